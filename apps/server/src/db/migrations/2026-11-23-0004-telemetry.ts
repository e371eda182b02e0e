import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/** The rollup tables: one row per signal and bucket start (epoch ms; `1d` = local midnight of the plant). */
export const ROLLUP_TABLES = ['telemetry_5m', 'telemetry_1h', 'telemetry_1d'] as const;

/** SQLite stores a table keyed by its primary key alone (no hidden rowid b-tree): half the writes. */
function clustered<T extends string, C extends string>(table: CreateTableBuilder<T, C>, dialect: Dialect) {
  return dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
}

/**
 * Telemetry: raw points keyed by (signal_id, ts), rollups per 5 minutes, hour and plant-local day,
 * the latest value per signal, and ingest keys. No foreign keys on the point tables: they are written
 * 100,000 rows a second and a check per row would cost more than an orphan row ever could.
 */
export const telemetry: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await clustered(
      db.schema
        .createTable('telemetry_raw')
        .addColumn('signal_id', 'integer', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('value', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('telemetry_raw_pk', ['signal_id', 'ts']),
      dialect,
    ).execute();
    if (dialect === 'postgres') {
      // Retention deletes and time scans by ts alone; BRIN stays tiny because ts grows with insertion order.
      await db.schema
        .createIndex('telemetry_raw_ts_brin')
        .on('telemetry_raw')
        .using('brin')
        .column('ts')
        .execute();
    }

    for (const table of ROLLUP_TABLES) {
      await clustered(
        db.schema
          .createTable(table)
          .addColumn('signal_id', 'integer', (c) => c.notNull())
          .addColumn('bucket', 'bigint', (c) => c.notNull())
          .addColumn('min', 'double precision', (c) => c.notNull())
          .addColumn('max', 'double precision', (c) => c.notNull())
          .addColumn('sum', 'double precision', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addColumn('first', 'double precision', (c) => c.notNull())
          .addColumn('first_ts', 'bigint', (c) => c.notNull())
          .addColumn('last', 'double precision', (c) => c.notNull())
          .addColumn('last_ts', 'bigint', (c) => c.notNull())
          // Counter signals only: the increase over the bucket, resets included (telemetry-store/aggregate.ts).
          .addColumn('delta', 'double precision')
          .addPrimaryKeyConstraint(`${table}_pk`, ['signal_id', 'bucket']),
        dialect,
      ).execute();
    }

    await clustered(
      db.schema
        .createTable('telemetry_latest')
        .addColumn('signal_id', 'integer', (c) => c.primaryKey())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('value', 'double precision', (c) => c.notNull()),
      dialect,
    ).execute();

    // One live key per device or plant; a rotated or revoked key keeps its row (revoked_at) for the record.
    await withId(db.schema.createTable('ingest_keys'), dialect)
      .addColumn('device_id', 'integer')
      .addColumn('plant_id', 'integer')
      // SHA-256 (hex) of the key; the key itself is shown once and never stored.
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addCheckConstraint('ingest_keys_owner_ck', sql`(device_id is null) <> (plant_id is null)`)
      .execute();
    await db.schema.createIndex('ingest_keys_device_idx').on('ingest_keys').column('device_id').execute();
    await db.schema.createIndex('ingest_keys_plant_idx').on('ingest_keys').column('plant_id').execute();
  },
};
