/**
 * Report and export builds against the built server (docs/security.md, "Report and export builds"): while
 * the largest report the limits allow (production by day, 218 plants × 366 days, XLSX) and the largest
 * telemetry export (115 signals × 30 days of 5-minute buckets, 993,600 points, XLSX) are built at once,
 * /api/health and GET /api/plants keep answering within 200 ms at p99, and the server's resident memory
 * (from /proc) stays under 1 GiB. A user's third concurrent build is refused with 429 and Retry-After.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/server';
import {
  adminClient,
  percentile,
  processRssMiB,
  removeDataDir,
  report,
  sleep,
  startConsole,
  type ConsoleProcess,
} from './harness';

const DAY_MS = 86_400_000;
const REPORT_DAYS = 366;
const PLANTS = Math.floor(80_000 / REPORT_DAYS);
const EXPORT_DAYS = 30;
const EXPORT_SIGNALS = Math.floor(1_000_000 / (EXPORT_DAYS * 288));
const P99_LIMIT_MS = 200;
const RSS_LIMIT_MIB = 1024;

/** The little of Kysely the seeding uses. */
interface Chain {
  select(...columns: string[]): Chain;
  where(column: string, op: string, value: unknown): Chain;
  orderBy(column: string, direction?: 'asc' | 'desc'): Chain;
  values(rows: unknown): Chain;
  returning(column: string): Chain;
  execute(): Promise<unknown[]>;
  executeTakeFirstOrThrow(): Promise<unknown>;
}
interface Db {
  selectFrom(table: string): Chain;
  insertInto(table: string): Chain;
}
interface ServerModules {
  buildApp(config: unknown): Promise<{
    app: { ready(): Promise<unknown>; close(): Promise<unknown> };
    ctx: { db: Db; dialect: string };
  }>;
  loadConfig(env: Record<string, string>): unknown;
  generateFleet(db: Db, plants: number, inverters: number, now: number, kpiDays: number): Promise<unknown>;
  generateHistory(db: Db, dialect: string, signals: unknown[], options: unknown): Promise<unknown>;
}

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Yesterday's UTC midnight: the generated fleet holds today's rollups, the history ends before them. */
const end = Date.parse(`${date(Date.now())}T00:00:00Z`) - DAY_MS;

/**
 * The fleet and the export's history, written in-process into the data directory before the server starts
 * on it (the demo's accounts included). Imported by path at run time: the e2e workspace does not type-check
 * the server's sources.
 */
async function seed(dataDir: string): Promise<{ plantIds: number[]; signalIds: number[] }> {
  const source = (file: string) => path.join(repoRoot, 'apps/server', file);
  const { buildApp } = (await import(source('src/app.ts'))) as Pick<ServerModules, 'buildApp'>;
  const { loadConfig } = (await import(source('src/config.ts'))) as Pick<ServerModules, 'loadConfig'>;
  const { generateFleet } = (await import(source('bench/fleet-generator.ts'))) as Pick<
    ServerModules,
    'generateFleet'
  >;
  const { generateHistory } = (await import(source('bench/history-generator.ts'))) as Pick<
    ServerModules,
    'generateHistory'
  >;
  const built = await buildApp(
    loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DEMO: 'true',
      SIMULATOR: 'false',
      MODBUS_POLLER: 'false',
    }),
  );
  await built.app.ready();
  const { db, dialect } = built.ctx;
  const before = (await db
    .selectFrom('plants')
    .select('id')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()) as { id: number };
  await generateFleet(db, PLANTS, 20, Date.now(), REPORT_DAYS + 2);
  const plants = (await db
    .selectFrom('plants')
    .select('id')
    .where('id', '>', before.id)
    .orderBy('id')
    .execute()) as { id: number }[];
  const device = (await db
    .selectFrom('devices')
    .select('id')
    .where('plant_id', '=', plants[0]!.id)
    .orderBy('id')
    .executeTakeFirstOrThrow()) as { id: number };
  const now = Date.now();
  // Ids given here: the fleet generator assigns its own, so a PostgreSQL sequence would be behind them.
  const lastSignal = (await db
    .selectFrom('signals')
    .select('id')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()) as { id: number };
  const signals = (await db
    .insertInto('signals')
    .values(
      Array.from({ length: EXPORT_SIGNALS }, (_, i) => ({
        id: lastSignal.id + 1 + i,
        device_id: device.id,
        key: `export_power_${i}`,
        name: `Export power ${i}`,
        unit: 'kW',
        data_type: 'float32',
        scale: 1,
        is_counter: 0,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute()) as { id: number }[];
  await generateHistory(
    db,
    dialect,
    signals.map((s) => ({ signal_id: s.id, counter: false, time_zone: 'Europe/Istanbul' })),
    { end, rollupDays: EXPORT_DAYS, fiveMinuteDays: EXPORT_DAYS, rawDays: 0, parallel: 1, log: () => {} },
  );
  await built.app.close();
  return { plantIds: plants.map((p) => p.id), signalIds: signals.map((s) => s.id) };
}

describe('report and export builds (built server)', () => {
  let server: ConsoleProcess;
  let dataDir: string;
  let token: string;
  let plantIds: number[];
  let signalIds: number[];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'solar-resilience-reports-'));
    ({ plantIds, signalIds } = await seed(dataDir));
    server = await startConsole({ dataDir });
    token = (await adminClient(server.url)).sessionToken;
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) removeDataDir(dataDir);
  });

  const get = (apiPath: string, query: Record<string, string>) =>
    fetch(`${server.url}/api/${apiPath}?${new URLSearchParams(query).toString()}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const exportQuery = (signals: number[], format: string) => ({
    signal_ids: signals.join(','),
    from: new Date(end - EXPORT_DAYS * DAY_MS).toISOString(),
    to: new Date(end).toISOString(),
    resolution: '5m',
    format,
  });

  it('answers a user’s third concurrent build 429 with Retry-After', async () => {
    const answers = await Promise.all(
      [0, 1, 2].map(() => get('telemetry/export', exportQuery(signalIds.slice(0, 20), 'csv'))),
    );
    const statuses = answers.map((a) => a.status).sort();
    const refused = answers.find((a) => a.status === 429);
    const retryAfter = refused?.headers.get('retry-after');
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(bodies.join('\n')).toContain('errors.tooManyFileBuilds');
  });

  it('keeps health and a light call under 200 ms p99 and the server under 1 GiB during the largest builds', async () => {
    const pid = server.child.pid!;
    const rssBeforeMiB = processRssMiB(pid);
    let peakRssMiB = rssBeforeMiB;
    const sampler = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, processRssMiB(pid))), 50);
    const latenciesMs: number[] = [];
    let building = true;
    const probe = (async () => {
      while (building) {
        for (const url of ['health', 'plants']) {
          const started = performance.now();
          const res = await fetch(`${server.url}/api/${url}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          latenciesMs.push(performance.now() - started);
          expect(res.status).toBe(200);
        }
        await sleep(20);
      }
    })();
    const started = performance.now();
    const timed = async (res: Promise<Response>) => {
      const answer = await res;
      const bytes = (await answer.arrayBuffer()).byteLength;
      return { status: answer.status, bytes, ms: performance.now() - started };
    };
    const [reportFile, exportFile] = await Promise.all([
      timed(
        get('reports/production', {
          plant_ids: plantIds.join(','),
          from: date(end - REPORT_DAYS * DAY_MS),
          to: date(end - DAY_MS),
          granularity: 'day',
          lang: 'tr_TR',
          format: 'xlsx',
        }),
      ),
      timed(get('telemetry/export', exportQuery(signalIds, 'xlsx'))),
    ]);
    building = false;
    await probe;
    clearInterval(sampler);
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    const summary = {
      report_xlsx_ms: Math.round(reportFile.ms),
      report_xlsx_bytes: reportFile.bytes,
      export_xlsx_ms: Math.round(exportFile.ms),
      export_xlsx_bytes: exportFile.bytes,
      probe_calls: sorted.length,
      probe_p50_ms: Math.round(percentile(sorted, 50)),
      probe_p99_ms: Math.round(percentile(sorted, 99)),
      probe_max_ms: Math.round(sorted[sorted.length - 1] ?? NaN),
      rss_before_mib: rssBeforeMiB,
      peak_rss_mib: peakRssMiB,
    };
    report('reports', summary, { plants: PLANTS, days: REPORT_DAYS, signals: EXPORT_SIGNALS });
    expect(reportFile.status).toBe(200);
    expect(exportFile.status).toBe(200);
    expect(summary.probe_p99_ms).toBeLessThan(P99_LIMIT_MS);
    expect(peakRssMiB).toBeLessThan(RSS_LIMIT_MIB);
    // Still alive and answering after both.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
