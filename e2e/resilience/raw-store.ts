/**
 * Reads what the server stored, straight from its database (SQLite file in the data directory or the
 * PostgreSQL schema), after the server stopped: the suites count rows themselves instead of trusting the API
 * they are checking.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/** Rows of telemetry_raw per timestamp for these signals. */
export async function rawRowsByTs(
  dataDir: string,
  dbEnv: Record<string, string>,
  signalIds: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const ids = signalIds.join(',');
  const sql = `select ts, count(*) as n from telemetry_raw where signal_id in (${ids}) group by ts`;
  if (dbEnv.DATABASE_URL) {
    const client = new pg.Client({ connectionString: dbEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`set search_path to ${dbEnv.DATABASE_SCHEMA}`);
      const { rows } = await client.query<{ ts: string; n: string }>(sql);
      for (const r of rows) out.set(Number(r.ts), Number(r.n));
    } finally {
      await client.end();
    }
    return out;
  }
  const db = new Database(path.join(dataDir, 'solar.db'), { readonly: true });
  try {
    for (const r of db.prepare(sql).all() as { ts: number; n: number }[]) out.set(Number(r.ts), Number(r.n));
  } finally {
    db.close();
  }
  return out;
}

/** Drops the PostgreSQL schema a suite ran in (nothing to do on SQLite: the data directory goes). */
export async function dropSchema(dbEnv: Record<string, string>): Promise<void> {
  if (!dbEnv.DATABASE_URL || !/^resilience_[a-z0-9_]+$/.test(dbEnv.DATABASE_SCHEMA ?? '')) return;
  const client = new pg.Client({ connectionString: dbEnv.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${dbEnv.DATABASE_SCHEMA} cascade`);
  } finally {
    await client.end();
  }
}
