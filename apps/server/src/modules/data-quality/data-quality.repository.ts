import { REPORTED_REASONS, type DataQualityReason } from '@solar/shared';
import type { Db } from '../../db/database';
import { pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';
import type { DetectedFlag } from './detectors';
import { flagKey } from './engine/plant-day-input';

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** A plant as the engine and the routes need it. */
export interface DqPlant {
  id: number;
  name: string;
  fieldId: number;
  companyId: number;
  timeZone: string;
  latitude: number | null;
  longitude: number | null;
  tiltDeg: number | null;
  azimuthDeg: number | null;
  acCapacityKw: number | null;
  dcCapacityKwp: number | null;
}

/** Plants the scope reaches (one when `id` is given), by id. */
export async function findPlants(db: Db, scope: Scope, id?: number): Promise<DqPlant[]> {
  let q = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select([
      'plants.id',
      'plants.name',
      'plants.field_id',
      'fields.company_id',
      'plants.time_zone',
      'plants.latitude',
      'plants.longitude',
      'plants.tilt_deg',
      'plants.azimuth_deg',
      'plants.ac_capacity_kw',
      'plants.dc_capacity_kwp',
    ])
    .orderBy('plants.id');
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  if (id !== undefined) q = q.where('plants.id', '=', id);
  return (await q.execute()).map((r) => ({
    id: r.id,
    name: r.name,
    fieldId: r.field_id,
    companyId: r.company_id,
    timeZone: r.time_zone,
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    tiltDeg: num(r.tilt_deg),
    azimuthDeg: num(r.azimuth_deg),
    acCapacityKw: num(r.ac_capacity_kw),
    dcCapacityKwp: num(r.dc_capacity_kwp),
  }));
}

/** Plants of the fields, for irradiance neighbours. */
export async function plantsOfFields(db: Db, fieldIds: readonly number[]): Promise<DqPlant[]> {
  if (fieldIds.length === 0) return [];
  const all = await findPlants(db, { all: true });
  const fields = new Set(fieldIds);
  return all.filter((p) => fields.has(p.fieldId));
}

/** A device the scope reaches, with its plant; undefined otherwise. */
export async function findDevice(
  db: Db,
  scope: Scope,
  id: number,
): Promise<{ id: number; plantId: number; name: string } | undefined> {
  let q = db.selectFrom('devices').select(['id', 'plant_id', 'name']).where('id', '=', id);
  if (!scope.all) q = q.where('id', 'in', reachable.devices(db, scope));
  const row = await q.executeTakeFirst();
  return row && { id: row.id, plantId: row.plant_id, name: row.name };
}

/** A signal of an active device, with what decides its kind and its device's figures. */
export interface DqSignalRow {
  signalId: number;
  deviceId: number;
  plantId: number;
  key: string;
  unit: string | null;
  isCounter: boolean;
  sunspecType: string | null;
  deviceType: string;
  ratedPowerKw: number | null;
  pollIntervalS: number;
}

/** The active signals of the plants' active devices (cameras send no telemetry and are left out). */
export async function loadSignals(db: Db, plantIds: readonly number[]): Promise<DqSignalRow[]> {
  if (plantIds.length === 0) return [];
  const rows = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id',
      'signals.device_id',
      'devices.plant_id',
      'signals.key',
      'signals.unit',
      'signals.is_counter',
      'signals.sunspec_type',
      'devices.type',
      'devices.rated_power_kw',
      'devices.poll_interval_s',
    ])
    .where('devices.plant_id', 'in', [...plantIds])
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .where('devices.type', '!=', 'camera')
    .orderBy('signals.id')
    .execute();
  return rows.map((r) => ({
    signalId: r.id,
    deviceId: r.device_id,
    plantId: r.plant_id,
    key: r.key,
    unit: r.unit,
    isCounter: Number(r.is_counter) === 1,
    sunspecType: r.sunspec_type,
    deviceType: r.type,
    ratedPowerKw: num(r.rated_power_kw),
    pollIntervalS: Number(r.poll_interval_s),
  }));
}

/**
 * Which of the flags' plant, devices and signals still exist. A run reads its input before it writes, and a
 * signal, device or plant deleted meanwhile has nothing left to flag: storing its flags would break the
 * foreign keys and lose the whole day's flags with them.
 */
async function liveOwners(trx: Db, plantId: number, flags: readonly DetectedFlag[]) {
  const signalIds = [...new Set(flags.flatMap((f) => (f.signalId === null ? [] : [f.signalId])))];
  const deviceIds = [...new Set(flags.flatMap((f) => (f.deviceId === null ? [] : [f.deviceId])))];
  const [plant, signals, devices] = await Promise.all([
    trx.selectFrom('plants').select('id').where('id', '=', plantId).executeTakeFirst(),
    signalIds.length
      ? trx.selectFrom('signals').select('id').where('id', 'in', signalIds).execute()
      : Promise.resolve([]),
    deviceIds.length
      ? trx.selectFrom('devices').select('id').where('id', 'in', deviceIds).execute()
      : Promise.resolve([]),
  ]);
  return {
    plant: plant !== undefined,
    signals: new Set(signals.map((r) => Number(r.id))),
    devices: new Set(devices.map((r) => Number(r.id))),
  };
}

/**
 * Stores a plant day's flags in place of its unaccepted ones, in one transaction: accepted flags stay
 * as they are, and a flag found again under an accepted one's key is not stored twice. Answers how many
 * flags the day holds afterwards.
 */
export async function replaceDayFlags(
  db: Db,
  plantId: number,
  localDay: string,
  flags: readonly DetectedFlag[],
  now: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('data_quality_flags')
      .where('plant_id', '=', plantId)
      .where('local_day', '=', localDay)
      .where('accepted_at', 'is', null)
      // Flags an edge agent's reports set are no detector's: a rerun of the day cannot find them again.
      .where('reason', 'not in', [...REPORTED_REASONS])
      .execute();
    const kept = await trx
      .selectFrom('data_quality_flags')
      .select('flag_key')
      .where('plant_id', '=', plantId)
      .where('local_day', '=', localDay)
      .execute();
    const keys = new Set(kept.map((r) => r.flag_key));
    const live = await liveOwners(trx, plantId, flags);
    const rows = [];
    for (const f of flags) {
      if (!live.plant) break;
      if (f.signalId !== null && !live.signals.has(f.signalId)) continue;
      if (f.deviceId !== null && !live.devices.has(f.deviceId)) continue;
      const key = flagKey(f);
      // Two flags of one detector at the same start are one stretch: the first is kept.
      if (keys.has(key)) continue;
      keys.add(key);
      rows.push({
        plant_id: plantId,
        device_id: f.deviceId,
        signal_id: f.signalId,
        reason: f.reason,
        local_day: localDay,
        flag_key: key,
        from_ts: f.fromMs,
        to_ts: f.toMs,
        readings: f.readings,
        detail: JSON.stringify(f.detail),
        detected_at: now,
      });
    }
    // Well below either dialect's bind limit per statement (14 columns).
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('data_quality_flags')
        .values(rows.slice(i, i + 500))
        .execute();
    return keys.size;
  });
}

/** A stretch of a reported reason (REPORTED_REASONS) on some of a plant's devices, one flag per device. */
export interface ReportedStretch {
  plantId: number;
  reason: DataQualityReason;
  /** Names the stretch within its plant, with the device and start appended per flag. */
  keyPrefix: string;
  deviceIds: readonly number[];
  /** The plant's local date the stretch began on: the flags stay on that day as the stretch grows. */
  localDay: string;
  fromMs: number;
  toMs: number;
  detail: Record<string, number>;
}

/**
 * Opens the flags of a reported stretch, or moves their end and detail on when they exist (an accepted one
 * keeps its acceptance).
 */
export async function upsertReportedFlags(db: Db, stretch: ReportedStretch, now: number): Promise<void> {
  if (!stretch.deviceIds.length) return;
  const detail = JSON.stringify(stretch.detail);
  const rows = stretch.deviceIds.map((deviceId) => ({
    plant_id: stretch.plantId,
    device_id: deviceId,
    signal_id: null,
    reason: stretch.reason,
    local_day: stretch.localDay,
    flag_key: `${stretch.keyPrefix}:${deviceId}:${stretch.fromMs}`.slice(0, 120),
    from_ts: stretch.fromMs,
    to_ts: stretch.toMs,
    readings: 0,
    detail,
    detected_at: now,
  }));
  await db
    .insertInto('data_quality_flags')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['plant_id', 'local_day', 'flag_key']).doUpdateSet({ to_ts: stretch.toMs, detail }),
    )
    .execute();
}

/** A stored flag with the names the screens show. */
export interface FlagRow {
  id: number;
  plantId: number;
  deviceId: number | null;
  deviceName: string | null;
  signalId: number | null;
  signalKey: string | null;
  reason: DataQualityReason;
  localDay: string;
  fromMs: number;
  toMs: number;
  readings: number;
  detail: Record<string, number>;
  detectedAt: number;
  acceptedAt: number | null;
  acceptedBy: string | null;
  acceptNote: string | null;
  plantName: string;
  timeZone: string;
}

function flagQuery(db: Db) {
  return db
    .selectFrom('data_quality_flags as f')
    .innerJoin('plants', 'plants.id', 'f.plant_id')
    .leftJoin('devices', 'devices.id', 'f.device_id')
    .leftJoin('signals', 'signals.id', 'f.signal_id')
    .leftJoin('users', 'users.id', 'f.accepted_by')
    .select([
      'f.id',
      'f.plant_id',
      'f.device_id',
      'devices.name as device_name',
      'f.signal_id',
      'signals.key as signal_key',
      'f.reason',
      'f.local_day',
      'f.from_ts',
      'f.to_ts',
      'f.readings',
      'f.detail',
      'f.detected_at',
      'f.accepted_at',
      'users.name as user_name',
      'users.surname as user_surname',
      'f.accept_note',
      'plants.name as plant_name',
      'plants.time_zone',
    ]);
}

type FlagQueryRow = Awaited<ReturnType<ReturnType<typeof flagQuery>['execute']>>[number];

function parseDetail(text: string): Record<string, number> {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object') return {};
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter(
        (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
      ),
    );
  } catch {
    return {};
  }
}

function toFlag(r: FlagQueryRow): FlagRow {
  return {
    id: r.id,
    plantId: r.plant_id,
    deviceId: r.device_id,
    deviceName: r.device_name,
    signalId: r.signal_id,
    signalKey: r.signal_key,
    reason: r.reason as DataQualityReason,
    localDay: r.local_day,
    fromMs: Number(r.from_ts),
    toMs: Number(r.to_ts),
    readings: Number(r.readings),
    detail: parseDetail(r.detail),
    detectedAt: Number(r.detected_at),
    acceptedAt: num(r.accepted_at),
    acceptedBy: r.user_name === null ? null : `${r.user_name} ${r.user_surname ?? ''}`.trim(),
    acceptNote: r.accept_note,
    plantName: r.plant_name,
    timeZone: r.time_zone,
  };
}

/**
 * A plant's flags of the given reasons on local days [fromDay, toDay], accepted or not, oldest first: what
 * the KPIs leave out (the open ones) and when the flags of a day last changed (detected or accepted).
 */
export async function readFlagsOfReasons(
  db: Db,
  plantId: number,
  fromDay: string,
  toDay: string,
  reasons: readonly DataQualityReason[],
): Promise<FlagRow[]> {
  if (reasons.length === 0) return [];
  const rows = await flagQuery(db)
    .where('f.plant_id', '=', plantId)
    .where('f.local_day', '>=', fromDay)
    .where('f.local_day', '<=', toDay)
    .where('f.reason', 'in', reasons)
    .orderBy('f.from_ts')
    .orderBy('f.id')
    .execute();
  return rows.map(toFlag);
}

/**
 * A digest of the plant's flags of `reasons` on local days [fromDay, toDay] that moves whenever one is added,
 * removed, accepted, unaccepted, re-detected or re-extended: one aggregate row, so a caller that kept what it
 * built from these flags can tell with one small query whether it still holds (docs/performance.md, "Cost").
 */
export async function flagsStamp(
  db: Db,
  plantId: number,
  fromDay: string,
  toDay: string,
  reasons: readonly DataQualityReason[],
): Promise<string> {
  if (reasons.length === 0) return '';
  const r = await db
    .selectFrom('data_quality_flags')
    .select((eb) => [
      eb.fn.countAll().as('flags'),
      eb.fn.max('id').as('last_id'),
      eb.fn.max('detected_at').as('last_detected'),
      eb.fn.sum('detected_at').as('detected'),
      eb.fn.count('accepted_at').as('accepted_count'),
      eb.fn.sum('accepted_at').as('accepted'),
      eb.fn.sum('from_ts').as('froms'),
      eb.fn.sum('to_ts').as('tos'),
    ])
    .where('plant_id', '=', plantId)
    .where('local_day', '>=', fromDay)
    .where('local_day', '<=', toDay)
    .where('reason', 'in', reasons)
    .executeTakeFirstOrThrow();
  // Each as a string: PostgreSQL answers counts and sums of bigints as strings, SQLite as numbers.
  return Object.values(r)
    .map((v) => (v === null ? '-' : String(v)))
    .join(':');
}

/** Plants per statement of readFlagsOfReasonsOfPlants: well under either database's bound on parameters. */
const PLANTS_PER_FLAG_READ = 500;

/**
 * readFlagsOfReasons for many plants in one statement (per 500 plants): each plant's flags, oldest first;
 * a plant without any has an empty list. The fleet report of a year read them one plant at a time, twice,
 * and that alone made it 2.4 times slower (docs/benchmarks.md).
 */
export async function readFlagsOfReasonsOfPlants(
  db: Db,
  plantIds: readonly number[],
  fromDay: string,
  toDay: string,
  reasons: readonly DataQualityReason[],
): Promise<Map<number, FlagRow[]>> {
  const out = new Map<number, FlagRow[]>(plantIds.map((id) => [id, []]));
  if (reasons.length === 0 || plantIds.length === 0) return out;
  for (let i = 0; i < plantIds.length; i += PLANTS_PER_FLAG_READ) {
    const rows = await flagQuery(db)
      .where('f.plant_id', 'in', plantIds.slice(i, i + PLANTS_PER_FLAG_READ))
      .where('f.local_day', '>=', fromDay)
      .where('f.local_day', '<=', toDay)
      .where('f.reason', 'in', reasons)
      .orderBy('f.from_ts')
      .orderBy('f.id')
      .execute();
    for (const r of rows) out.get(r.plant_id)?.push(toFlag(r));
  }
  return out;
}

/** A plant's (or one of its devices') flags of local days [fromDay, toDay], oldest first. */
export async function readFlags(
  db: Db,
  where: { plantId: number; deviceId?: number; fromDay: string; toDay: string },
): Promise<FlagRow[]> {
  let q = flagQuery(db)
    .where('f.plant_id', '=', where.plantId)
    .where('f.local_day', '>=', where.fromDay)
    .where('f.local_day', '<=', where.toDay);
  if (where.deviceId !== undefined) q = q.where('f.device_id', '=', where.deviceId);
  return (await q.orderBy('f.from_ts').orderBy('f.id').execute()).map(toFlag);
}

/** One flag the scope reaches. */
export async function findFlag(db: Db, scope: Scope, id: number): Promise<FlagRow | undefined> {
  let q = flagQuery(db).where('f.id', '=', id);
  if (!scope.all) q = q.where('f.plant_id', 'in', reachable.plants(db, scope));
  const row = await q.executeTakeFirst();
  return row && toFlag(row);
}

/** Marks a flag accepted; answers false when it already was (the first acceptance stands). */
export async function acceptFlag(
  db: Db,
  id: number,
  userId: number,
  note: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('data_quality_flags')
    .set({ accepted_at: now, accepted_by: userId, accept_note: note })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * One page of the open problems the scope reaches (unaccepted, not informational), newest first, and how
 * many there are.
 */
export async function readProblems(
  db: Db,
  scope: Scope,
  query: {
    informational: readonly string[];
    plantId?: number;
    reason?: string;
    q?: string;
    page: number;
    pageSize: number;
  },
): Promise<{ items: FlagRow[]; total: number }> {
  let q = flagQuery(db).where('f.accepted_at', 'is', null);
  if (query.informational.length) q = q.where('f.reason', 'not in', [...query.informational]);
  if (!scope.all) q = q.where('f.plant_id', 'in', reachable.plants(db, scope));
  if (query.plantId !== undefined) q = q.where('f.plant_id', '=', query.plantId);
  if (query.reason !== undefined) q = q.where('f.reason', '=', query.reason);
  if (query.q) q = q.where(searchAny(['plants.name', 'devices.name'], query.q));
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('f.from_ts', 'desc')
    .orderBy('f.id', 'desc')
    .limit(pageOf(query).limit)
    .offset(pageOf(query).offset)
    .execute();
  return { items: rows.map(toFlag), total: Number(total.n) };
}
