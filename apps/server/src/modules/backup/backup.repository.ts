import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** The migrations the database has run, by name, with when (Kysely's bookkeeping table). */
export async function readAppliedMigrations(db: Db): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; timestamp: string }>`
    select name, timestamp from kysely_migration order by name
  `.execute(db);
  return new Map(rows.map((r) => [r.name, r.timestamp]));
}
