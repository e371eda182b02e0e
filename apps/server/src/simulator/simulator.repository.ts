import type { DeviceType } from '@solar/shared';
import type { VirtualPlantDefinition } from '@solar/simulator';
import type { Db } from '../db/database';
import { fromTelemetry } from '../telemetry-store/queries';

/** Active plants with coordinates, their active devices and signals, as virtual plant definitions. */
export async function loadPlantTopology(db: Db): Promise<VirtualPlantDefinition[]> {
  const plants = await db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select([
      'plants.id',
      'plants.time_zone',
      'plants.latitude',
      'plants.longitude',
      'plants.tilt_deg',
      'plants.azimuth_deg',
      'plants.dc_capacity_kwp',
      'plants.commissioning_date',
      'plants.field_id',
      'fields.latitude as field_latitude',
      'fields.longitude as field_longitude',
    ])
    .where('plants.is_active', '=', 1)
    .orderBy('plants.id')
    .execute();
  const devices = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['devices.id', 'devices.plant_id', 'devices.type', 'devices.rated_power_kw'])
    .where('devices.is_active', '=', 1)
    .where('plants.is_active', '=', 1)
    .orderBy('devices.id')
    .execute();
  const signals = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select(['signals.id', 'signals.device_id', 'signals.key'])
    .where('signals.is_active', '=', 1)
    .where('devices.is_active', '=', 1)
    .orderBy('signals.id')
    .execute();

  const signalsOf = new Map<number, { signalId: number; key: string }[]>();
  for (const s of signals) {
    const list = signalsOf.get(s.device_id) ?? [];
    list.push({ signalId: s.id, key: s.key });
    signalsOf.set(s.device_id, list);
  }
  const result: VirtualPlantDefinition[] = [];
  for (const p of plants) {
    const latitude = p.latitude ?? p.field_latitude;
    const longitude = p.longitude ?? p.field_longitude;
    // A plant without a place has no sun to simulate.
    if (latitude === null || longitude === null) continue;
    const own = devices.filter((d) => d.plant_id === p.id);
    const ratedAcKw = own.reduce(
      (sum, d) => sum + (d.type === 'inverter' ? Number(d.rated_power_kw ?? 0) : 0),
      0,
    );
    result.push({
      plantId: p.id,
      timeZone: p.time_zone,
      latitude: Number(latitude),
      longitude: Number(longitude),
      tiltDeg: Number(p.tilt_deg ?? 25),
      azimuthDeg: Number(p.azimuth_deg ?? 180),
      dcCapacityKwp: Number(p.dc_capacity_kwp ?? ratedAcKw * 1.2),
      commissioningDate: p.commissioning_date,
      // Plants of one field share its weather, computed at the field's place (or the plant's, if unknown).
      field: {
        id: p.field_id,
        latitude: Number(p.field_latitude ?? latitude),
        longitude: Number(p.field_longitude ?? longitude),
      },
      devices: own.map((d) => ({
        deviceId: d.id,
        type: d.type as DeviceType,
        ratedPowerKw: d.rated_power_kw === null ? null : Number(d.rated_power_kw),
        signals: signalsOf.get(d.id) ?? [],
      })),
    });
  }
  return result;
}

/** Latest stored value per signal id (to carry energy counters over a restart). */
export async function latestValues(db: Db, signalIds: number[]): Promise<Map<number, number>> {
  const values = new Map<number, number>();
  for (let i = 0; i < signalIds.length; i += 500) {
    const rows = await fromTelemetry(db, 'latest', 'latest')
      .select(['latest.signal_id', 'latest.value'])
      .where('latest.signal_id', 'in', signalIds.slice(i, i + 500))
      .execute();
    for (const r of rows) values.set(r.signal_id, Number(r.value));
  }
  return values;
}

/** The active camera devices of these plants, with their plant's name and stored addresses. */
export async function demoCameraDevices(db: Db, plantIds: number[]) {
  if (plantIds.length === 0) return [];
  return db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select([
      'devices.id',
      'devices.plant_id',
      'plants.name as plant_name',
      'devices.snapshot_url',
      'devices.stream_url',
    ])
    .where('devices.type', '=', 'camera')
    .where('devices.is_active', '=', 1)
    .where('devices.plant_id', 'in', plantIds)
    .orderBy('devices.id')
    .execute();
}

/** Points a demo camera device at the simulator's camera server. */
export async function pointCameraAt(
  db: Db,
  deviceId: number,
  urls: { snapshot_url: string; stream_url: string },
): Promise<void> {
  await db.updateTable('devices').set(urls).where('id', '=', deviceId).execute();
}
