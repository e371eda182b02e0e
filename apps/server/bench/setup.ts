/** Shared by the telemetry benchmarks: a server on a fresh database with plants, inverters and signals. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALL_PERMISSIONS } from '@solar/shared';
import pg from 'pg';
import { buildApp } from '../src/app';
import type { AppContext } from '../src/context';
import { loadConfig } from '../src/config';
import { hashKey } from '../src/modules/telemetry/ingest-keys.service';

/**
 * A server on a fresh database: a data directory of its own and, with `databaseUrl`, a PostgreSQL schema of
 * its own. `dispose()`, after `app.close()`, removes both: a ten-minute ingest run leaves gigabytes, and
 * every run of `npm run bench` left them behind before.
 */
export async function benchApp(databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-bench-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DEMO: 'false',
    SIMULATOR: 'false',
    MODBUS_POLLER: 'false',
    // `SQLITE_WRITER_THREAD=false npm run bench:ingest` measures the event-loop writes for comparison.
    SQLITE_WRITER_THREAD: process.env.SQLITE_WRITER_THREAD ?? 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
  });
  const built = await buildApp(config);
  const dispose = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropSchema(databaseUrl, schema);
  };
  return { ...built, dataDir, config, dispose };
}

/** Drops a benchmark's PostgreSQL schema and everything in it, through a connection of its own. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${client.escapeIdentifier(schema)} cascade`);
  } finally {
    await client.end();
  }
}

/**
 * `plants` plants (alternating Istanbul and Skopje) with `inverters` inverters each and `perDevice` signals
 * per inverter (the first is total_energy, a counter); answers the signal ids per plant and a plant key each.
 */
export async function seedPlants(
  db: Awaited<ReturnType<typeof benchApp>>['ctx']['db'],
  plants: number,
  inverters: number,
  perDevice: number,
) {
  const now = Date.now();
  const company = await db
    .insertInto('companies')
    .values({ name: 'Bench', is_active: 1, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const field = await db
    .insertInto('fields')
    .values({
      company_id: company.id,
      name: 'Bench field',
      is_active: 1,
      created_at: now,
      updated_at: now,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const out: { plantId: number; key: string; counters: number[]; powers: number[]; signals: number[] }[] = [];
  for (let p = 0; p < plants; p++) {
    const plant = await db
      .insertInto('plants')
      .values({
        field_id: field.id,
        name: `Plant ${p}`,
        time_zone: p % 2 ? 'Europe/Skopje' : 'Europe/Istanbul',
        subscriber_numbers: '[]',
        is_active: 1,
        created_at: now,
        updated_at: now,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const entry = {
      plantId: plant.id,
      key: `sk_${randomBytes(32).toString('base64url')}`,
      counters: [] as number[],
      powers: [] as number[],
      signals: [] as number[],
    };
    for (let d = 0; d < inverters; d++) {
      const device = await db
        .insertInto('devices')
        .values({
          plant_id: plant.id,
          name: `INV-${p}-${d}`,
          type: 'inverter',
          protocol: 'http',
          poll_interval_s: 60,
          is_active: 1,
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let s = 0; s < perDevice; s++) {
        const key = s === 0 ? 'total_energy' : s === 1 ? 'ac_power' : `sig_${s}`;
        const signal = await db
          .insertInto('signals')
          .values({
            device_id: device.id,
            key,
            name: key,
            unit: s === 0 ? 'kWh' : 'kW',
            data_type: 'float32',
            scale: 1,
            is_counter: s === 0 ? 1 : 0,
            is_active: 1,
            created_at: now,
            updated_at: now,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        entry.signals.push(signal.id);
        if (s === 0) entry.counters.push(signal.id);
        if (s === 1) entry.powers.push(signal.id);
      }
    }
    await db
      .insertInto('ingest_keys')
      .values({
        plant_id: plant.id,
        device_id: null,
        key_hash: hashKey(entry.key),
        prefix: entry.key.slice(0, 11),
        created_at: now,
        created_by: null,
      })
      .execute();
    out.push(entry);
  }
  return out;
}

export const rssMiB = () => (process.memoryUsage().rss / 2 ** 20).toFixed(0);
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** An administrator with every permission, straight in the database, and a token for it: the benches' caller. */
export async function benchAdminToken(ctx: AppContext): Promise<string> {
  const now = Date.now();
  const role = await ctx.db
    .insertInto('roles')
    .values({ name: 'admin-bench', description: null, is_admin: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await ctx.db
    .insertInto('users')
    .values({
      name: 'Bench',
      surname: 'Admin',
      username: 'bench',
      telephone: '+90 555 000 00 00',
      email: 'bench@example.com',
      password_hash: 'x',
      language_id: 1,
      is_active: 1,
      role_id: role.id,
      company_id: null,
      tokens_valid_after: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A sign-in of its own, as a login records it: tokens naming none are refused (docs/security.md).
  const session = await ctx.sessions.start(user.id, 8 * 3600_000, { ip: null, userAgent: undefined });
  return ctx.tokens.sign(
    {
      id: user.id,
      name: 'Bench',
      role_id: role.id,
      permissions: [...ALL_PERMISSIONS],
      sessionId: session.sessionId,
      generation: 0,
    },
    false,
    session.expiresAt - ctx.now(),
  );
}
