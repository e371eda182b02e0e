import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database';

/** Signals per retention statement on SQLite. */
const RETENTION_SIGNALS = 500;

/** The default partition of telemetry_raw on PostgreSQL (migration 0016): months without a partition. */
export const RAW_DEFAULT_PARTITION = 'telemetry_raw_default';

/** Epoch ms of the first instant of the UTC month `offset` months after the one holding `ms`. */
export function monthStartUtc(ms: number, offset = 0): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1);
}

/** `telemetry_raw_p202611`: the partition holding the UTC month that starts at `from`. */
export function rawPartitionName(from: number): string {
  const d = new Date(from);
  return `telemetry_raw_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** True for the name of a telemetry_raw partition (the schema drift test leaves them out: same columns). */
export function isRawPartition(table: string): boolean {
  return /^telemetry_raw_(p\d{6}|default)$/.test(table);
}

/** A monthly partition of telemetry_raw: its name and [from, to) in epoch ms. */
export interface RawPartition {
  name: string;
  from: number;
  to: number;
}

/** The monthly partitions of telemetry_raw in this schema, oldest first (the default partition left out). */
export async function listRawPartitions(db: Db): Promise<RawPartition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    join pg_namespace n on n.oid = p.relnamespace
    where p.relname = 'telemetry_raw' and n.nspname = current_schema()
  `.execute(db);
  const out: RawPartition[] = [];
  for (const r of rows) {
    // "FOR VALUES FROM ('1793491200000') TO ('1796083200000')"; the default partition says "DEFAULT".
    const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
    if (m) out.push({ name: r.name, from: Number(m[1]), to: Number(m[2]) });
  }
  return out.sort((a, b) => a.from - b.from);
}

/**
 * Makes the partition of the UTC month starting at `from` unless it exists. Rows of that month already in
 * the default partition move into it in the same transaction: PostgreSQL refuses a partition whose range
 * the default partition still holds rows of.
 */
export async function createRawPartition(db: Db, from: number): Promise<string> {
  const name = rawPartitionName(from);
  const to = monthStartUtc(from, 1);
  await db.transaction().execute(async (trx) => {
    const exists = await sql<{
      n: number;
    }>`select 1 as n from pg_class c join pg_namespace s on s.oid = c.relnamespace where c.relname = ${name} and s.nspname = current_schema()`.execute(
      trx,
    );
    if (exists.rows.length) return;
    await sql`create table ${sql.id(name)} (like telemetry_raw including defaults including constraints)`.execute(
      trx,
    );
    await sql`
      with moved as (
        delete from ${sql.id(RAW_DEFAULT_PARTITION)} where ts >= ${from} and ts < ${to}
        returning signal_id, ts, value
      )
      insert into ${sql.id(name)} (signal_id, ts, value) select signal_id, ts, value from moved
    `.execute(trx);
    // Attaching builds the parent's indexes on it (primary key, BRIN on ts).
    await sql`alter table telemetry_raw attach partition ${sql.id(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
      trx,
    );
  });
  return name;
}

/** UTC month starts of the rows in the default partition at or after `since` (they await their partition). */
export async function monthsInDefault(db: Db, since: number): Promise<number[]> {
  const { rows } = await sql<{ month: string }>`
    select distinct (extract(epoch from date_trunc('month', to_timestamp(ts / 1000.0) at time zone 'UTC')) * 1000)::bigint::text as month
    from ${sql.id(RAW_DEFAULT_PARTITION)} where ts >= ${since}
  `.execute(db);
  return rows.map((r) => Number(r.month)).sort((a, b) => a - b);
}

/** Drops a partition of telemetry_raw: one catalog change instead of a row delete per point. */
export async function dropRawPartition(db: Db, name: string): Promise<void> {
  if (!/^telemetry_raw_p\d{6}$/.test(name)) throw new Error(`not a telemetry_raw partition: ${name}`);
  await sql`drop table ${sql.id(name)}`.execute(db);
}

/**
 * Deletes raw points older than `cutoff` (epoch ms) row by row; answers how many. On PostgreSQL only the
 * default partition is deleted from this way (the monthly partitions are dropped whole by the retention).
 */
export async function deleteRawBefore(db: Db, dialect: Dialect, cutoff: number): Promise<number> {
  if (dialect === 'postgres') {
    const res = await sql`delete from ${sql.id(RAW_DEFAULT_PARTITION)} where ts < ${cutoff}`.execute(db);
    return Number(res.numAffectedRows ?? 0);
  }
  // SQLite has no index on ts alone: a primary-key range per signal, RETENTION_SIGNALS signals a statement,
  // with a turn of the event loop between statements. SQLite runs on the server's one thread: one statement
  // per signal took 15 s of it on a 212,000-signal fleet, stalling every request meanwhile (bench:fleet).
  const signals = (await db.selectFrom('telemetry_latest').select('signal_id').execute()).map(
    (r) => r.signal_id,
  );
  let deleted = 0;
  for (let i = 0; i < signals.length; i += RETENTION_SIGNALS) {
    const res = await db
      .deleteFrom('telemetry_raw')
      .where('signal_id', 'in', signals.slice(i, i + RETENTION_SIGNALS))
      .where('ts', '<', cutoff)
      .executeTakeFirst();
    deleted += Number(res.numDeletedRows);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return deleted;
}
