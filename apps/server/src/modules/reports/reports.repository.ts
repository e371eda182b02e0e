import type { Db } from '../../db/database';

/** A plant's local range in epoch ms, half-open. */
export interface PlantRange {
  plantId: number;
  startMs: number;
  endMs: number;
}

/** What the alarm statistics need of one alarm. */
export interface AlarmStatRow {
  plantId: number;
  deviceId: number | null;
  deviceName: string | null;
  deviceType: string | null;
  priorityId: number;
  startedAt: number;
  approvedAt: number | null;
  rejectedAt: number | null;
}

/** Ids per statement: far below either dialect's bind-parameter limit. */
const CHUNK = 1_000;

/** Alarms raised in each plant's range (alarms of the plant itself have no device). */
export async function readAlarms(db: Db, ranges: readonly PlantRange[]): Promise<AlarmStatRow[]> {
  let out: AlarmStatRow[] = [];
  // Plants share few distinct ranges (one per time zone): one query per range and chunk of plants.
  for (const [key, plantIds] of groupByRange(ranges)) {
    const [startMs, endMs] = key.split('|').map(Number) as [number, number];
    for (let i = 0; i < plantIds.length; i += CHUNK) {
      const rows = await db
        .selectFrom('alarms')
        .leftJoin('devices', 'devices.id', 'alarms.device_id')
        .select([
          'alarms.plant_id',
          'alarms.device_id',
          'devices.name as device_name',
          'devices.type as device_type',
          'alarms.priority_id',
          'alarms.started_at',
          'alarms.approved_at',
          'alarms.rejected_at',
        ])
        .where('alarms.plant_id', 'in', plantIds.slice(i, i + CHUNK))
        .where('alarms.started_at', '>=', startMs)
        .where('alarms.started_at', '<', endMs)
        .execute();
      out = out.concat(
        rows.map((r) => ({
          plantId: r.plant_id,
          deviceId: r.device_id,
          deviceName: r.device_name,
          deviceType: r.device_type,
          priorityId: r.priority_id,
          startedAt: Number(r.started_at),
          approvedAt: r.approved_at === null ? null : Number(r.approved_at),
          rejectedAt: r.rejected_at === null ? null : Number(r.rejected_at),
        })),
      );
    }
  }
  return out;
}

/** Faults detected in each plant's range: when found and when resolved or closed. */
export async function readFaults(
  db: Db,
  ranges: readonly PlantRange[],
): Promise<{ detectedAt: number; resolvedAt: number | null; closedAt: number | null }[]> {
  let out: { detectedAt: number; resolvedAt: number | null; closedAt: number | null }[] = [];
  for (const [key, plantIds] of groupByRange(ranges)) {
    const [startMs, endMs] = key.split('|').map(Number) as [number, number];
    for (let i = 0; i < plantIds.length; i += CHUNK) {
      const rows = await db
        .selectFrom('faults')
        .select(['detected_at', 'resolved_at', 'closed_at'])
        .where('plant_id', 'in', plantIds.slice(i, i + CHUNK))
        .where('detected_at', '>=', startMs)
        .where('detected_at', '<', endMs)
        .execute();
      out = out.concat(
        rows.map((r) => ({
          detectedAt: Number(r.detected_at),
          resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at),
          closedAt: r.closed_at === null ? null : Number(r.closed_at),
        })),
      );
    }
  }
  return out;
}

/** Alarms raised per plant in each plant's range. */
export async function countAlarms(db: Db, ranges: readonly PlantRange[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const [key, plantIds] of groupByRange(ranges)) {
    const [startMs, endMs] = key.split('|').map(Number) as [number, number];
    for (let i = 0; i < plantIds.length; i += CHUNK) {
      const rows = await db
        .selectFrom('alarms')
        .select(['plant_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('plant_id', 'in', plantIds.slice(i, i + CHUNK))
        .where('started_at', '>=', startMs)
        .where('started_at', '<', endMs)
        .groupBy('plant_id')
        .execute();
      for (const r of rows) out.set(r.plant_id, Number(r.n));
    }
  }
  return out;
}

function groupByRange(ranges: readonly PlantRange[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const r of ranges) {
    const key = `${r.startMs}|${r.endMs}`;
    const list = groups.get(key);
    if (list) list.push(r.plantId);
    else groups.set(key, [r.plantId]);
  }
  return groups;
}
