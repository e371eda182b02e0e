import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/** Epoch ms of the first instant of the UTC month `offset` months after the one holding `ms`. */
const monthStart = (ms: number, offset = 0) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1);
};
const monthName = (ms: number) => {
  const d = new Date(ms);
  return `telemetry_raw_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

/**
 * PostgreSQL only: `telemetry_raw` becomes a table partitioned by UTC month of `ts`, so that raw
 * retention drops a month's partition instead of deleting tens of millions of rows one by one (and leaving
 * the table bloated for vacuum). The primary key (signal_id, ts) holds across partitions because it
 * contains the partition key, so INSERT … ON CONFLICT (signal_id, ts) and COPY keep working unchanged. The
 * BRIN index on ts is declared on the parent and therefore created on every partition.
 *
 * A default partition takes points of a month that has no partition yet (a back-fill older than the
 * partitions made ahead, a clock gone wrong): nothing is ever refused for want of a partition. The hourly
 * maintenance (telemetry-store/retention.ts) moves such rows into their month's partition once it makes
 * it, so the default partition stays small. This migration makes the partitions for three months back to
 * two months ahead; the maintenance keeps that window moving.
 *
 * Existing rows are copied into the new table once (a long step on a large database, done at upgrade).
 * SQLite keeps its single clustered table: it has no partitioning, and its retention deletes by key range.
 */
export const rawPartitions: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    if (dialect !== 'postgres') return;
    await sql`alter table telemetry_raw rename to telemetry_raw_old`.execute(db);
    await sql`alter table telemetry_raw_old rename constraint telemetry_raw_pk to telemetry_raw_old_pk`.execute(
      db,
    );
    await sql`alter index telemetry_raw_ts_brin rename to telemetry_raw_old_ts_brin`.execute(db);
    await sql`
      create table telemetry_raw (
        signal_id integer not null,
        ts bigint not null,
        value double precision not null,
        constraint telemetry_raw_pk primary key (signal_id, ts)
      ) partition by range (ts)
    `.execute(db);
    await sql`create index telemetry_raw_ts_brin on telemetry_raw using brin (ts)`.execute(db);
    await sql`create table telemetry_raw_default partition of telemetry_raw default`.execute(db);
    const now = Date.now();
    for (let offset = -3; offset <= 2; offset++) {
      const from = monthStart(now, offset);
      await sql`create table ${sql.id(monthName(from))} partition of telemetry_raw for values from (${sql.lit(from)}) to (${sql.lit(monthStart(from, 1))})`.execute(
        db,
      );
    }
    await sql`insert into telemetry_raw (signal_id, ts, value) select signal_id, ts, value from telemetry_raw_old`.execute(
      db,
    );
    await sql`drop table telemetry_raw_old`.execute(db);
  },
};
