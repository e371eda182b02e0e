import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `kpi_day_versions`: per plant, a counter that every insert, update or delete of one of its kpi_daily rows
 * moves on, by a trigger in the same statement. The performance analysis reads it with one small query and
 * reads the plant's stored days again only when it moved (docs/performance.md, "Cost"). A trigger, so no
 * writer can forget it (the refresh job, a plant's deletion, a repair by hand); a row's computed_at cannot
 * serve, as two computations may share a millisecond. No foreign key: a plant's deletion deletes its days,
 * whose trigger would then name a plant already gone; a counter left behind is one small row.
 */
export const kpiDayVersions: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await db.schema
      .createTable('kpi_day_versions')
      .addColumn('plant_id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    if (dialect === 'sqlite') {
      for (const [event, row] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const)
        await sql
          .raw(
            `create trigger kpi_daily_version_${event} after ${event} on kpi_daily begin
               insert into kpi_day_versions (plant_id, version) values (${row}.plant_id, 1)
               on conflict (plant_id) do update set version = version + 1;
             end`,
          )
          .execute(db);
      return;
    }
    await sql
      .raw(
        `create function kpi_day_version_bump() returns trigger language plpgsql as $$
         begin
           insert into kpi_day_versions (plant_id, version)
           values (case when tg_op = 'DELETE' then old.plant_id else new.plant_id end, 1)
           on conflict (plant_id) do update set version = kpi_day_versions.version + 1;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger kpi_daily_version after insert or update or delete on kpi_daily
         for each row execute function kpi_day_version_bump()`,
      )
      .execute(db);
  },
};
