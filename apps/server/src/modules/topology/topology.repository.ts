import type { DeviceType } from '@solar/shared';
import type { Db } from '../../db/database';
import { bool } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';
import type { GraphDevice, Position } from './topology-graph';

/** A plant the scope reaches (id and name), or undefined. */
export async function findPlant(
  db: Db,
  scope: Scope,
  id: number,
): Promise<{ id: number; name: string } | undefined> {
  let q = db.selectFrom('plants').select(['plants.id', 'plants.name']).where('plants.id', '=', id);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

/** Signal keys of a device's live power, in order of preference. */
const POWER_KEYS = ['ac_power', 'active_power', 'dc_power'] as const;

/** The plant's devices with their live power signal. */
export async function plantDevices(db: Db, plantId: number): Promise<GraphDevice[]> {
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'parent_device_id', 'type', 'name', 'rated_power_kw', 'is_active'])
    .where('plant_id', '=', plantId)
    .orderBy('id')
    .execute();
  const signals = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select(['signals.id', 'signals.device_id', 'signals.key'])
    .where('devices.plant_id', '=', plantId)
    .where('signals.key', 'in', [...POWER_KEYS])
    .where('signals.is_active', '=', 1)
    .orderBy('signals.id')
    .execute();
  const powerSignal = new Map<number, { id: number; rank: number }>();
  for (const s of signals) {
    const rank = POWER_KEYS.indexOf(s.key as (typeof POWER_KEYS)[number]);
    const current = powerSignal.get(s.device_id);
    if (!current || rank < current.rank) powerSignal.set(s.device_id, { id: s.id, rank });
  }
  return devices.map((d) => ({
    id: d.id,
    parent_device_id: d.parent_device_id,
    type: d.type as DeviceType,
    name: d.name,
    rated_power_kw: d.rated_power_kw === null ? null : Number(d.rated_power_kw),
    is_active: bool(d.is_active),
    power_signal_id: powerSignal.get(d.id)?.id ?? null,
  }));
}

export async function positions(db: Db, plantId: number): Promise<Map<string, Position>> {
  const rows = await db
    .selectFrom('single_line_positions')
    .select(['node_id', 'x_px', 'y_px'])
    .where('plant_id', '=', plantId)
    .execute();
  return new Map(rows.map((r) => [r.node_id, { x_px: Number(r.x_px), y_px: Number(r.y_px) }]));
}

export async function savePosition(
  db: Db,
  row: {
    plant_id: number;
    node_id: string;
    x_px: number;
    y_px: number;
    updated_by: number;
    updated_at: number;
  },
): Promise<void> {
  await db
    .insertInto('single_line_positions')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['plant_id', 'node_id']).doUpdateSet({
        x_px: row.x_px,
        y_px: row.y_px,
        updated_by: row.updated_by,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function forgetPositions(db: Db, plantId: number, nodeIds: string[]): Promise<void> {
  if (!nodeIds.length) return;
  await db
    .deleteFrom('single_line_positions')
    .where('plant_id', '=', plantId)
    .where('node_id', 'in', nodeIds)
    .execute();
}
