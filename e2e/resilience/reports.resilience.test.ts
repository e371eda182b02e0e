/**
 * Report and export builds against the built server (docs/security.md, "Report and export builds"): while
 * the largest report the limits allow (production by day, 218 plants × 366 days, XLSX) and the largest
 * telemetry export (115 signals × 30 days of 5-minute buckets, 993,600 points, XLSX) are built at once,
 * /api/health and GET /api/plants keep answering within 200 ms at p99, and the server's resident memory
 * (from /proc) stays under 1 GiB. A user's third concurrent build is refused with 429 and Retry-After.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/server';
import { ApiClient } from '../src/console';
import {
  adminClient,
  databaseEnv,
  FAST,
  percentile,
  processRssMiB,
  removeDataDir,
  report,
  sleep,
  startConsole,
  type ConsoleProcess,
} from './harness';
import { dropSchema } from './raw-store';

const DAY_MS = 86_400_000;
const REPORT_DAYS = 366;
/** The largest report the limits allow (218 plants), 50 in the fast subset (harness.ts, FAST). */
const PLANTS = FAST ? 50 : Math.floor(80_000 / REPORT_DAYS);
const EXPORT_DAYS = 30;
/** The largest export the limits allow (115 signals of 30 days of 5-minute buckets), 20 in the fast subset. */
const EXPORT_SIGNALS = FAST ? 20 : Math.floor(1_000_000 / (EXPORT_DAYS * 288));
const P99_LIMIT_MS = 200;
const RSS_LIMIT_MIB = 1024;
/** The /metrics scrape's token (the server answers 404 to /metrics without one). */
const METRICS_TOKEN = 'resilience-reports-metrics';
/** The demo operator (docs/spec-differences.md, demo data): a second user for builds at once. */
const OPERATOR = { email: 'operator@example.com', password: 'Solar!Operator1' };

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
async function seed(
  dataDir: string,
  dbEnv: Record<string, string>,
): Promise<{ plantIds: number[]; signalIds: number[] }> {
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
      ...dbEnv,
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

describe(`report and export builds (built server, ${databaseEnv().DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  let server: ConsoleProcess;
  let dataDir: string;
  let token: string;
  let plantIds: number[];
  let signalIds: number[];
  const figures: Record<string, unknown> = {};
  const dbEnv = databaseEnv();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'solar-resilience-reports-'));
    // SQLite in the data directory, or a fresh schema of RESILIENCE_DATABASE_URL: seeded, then served.
    ({ plantIds, signalIds } = await seed(dataDir, dbEnv));
    server = await startConsole({ dataDir, env: { ...dbEnv, METRICS_TOKEN } });
    token = (await adminClient(server.url)).sessionToken;
    // The machine's own pace before any build: what the bounds below are measured against.
    figures.idle = await measuredDuring(() => sleep(3000));
  }, 600_000);
  afterAll(async () => {
    report('reports', figures, { plants: PLANTS, days: REPORT_DAYS, signals: EXPORT_SIGNALS });
    await server?.stop();
    if (dataDir) removeDataDir(dataDir);
    await dropSchema(dbEnv);
  });

  const get = (apiPath: string, query: Record<string, string>, as = token) =>
    fetch(`${server.url}/api/${apiPath}?${new URLSearchParams(query).toString()}`, {
      headers: { authorization: `Bearer ${as}` },
    });
  const exportQuery = (signals: number[], format: string) => ({
    signal_ids: signals.join(','),
    from: new Date(end - EXPORT_DAYS * DAY_MS).toISOString(),
    to: new Date(end).toISOString(),
    resolution: '5m',
    format,
  });
  const largestReport = (format: string) => ({
    plant_ids: plantIds.join(','),
    from: date(end - REPORT_DAYS * DAY_MS),
    to: date(end - DAY_MS),
    granularity: 'day',
    lang: 'tr_TR',
    format,
  });

  /** The server's event-loop figures since the previous scrape, and its blocks over 1 s since it started. */
  async function eventLoop() {
    const res = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await res.text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    return {
      p99Ms: Math.round(metric('solar_event_loop_delay_p99_seconds') * 1000),
      maxMs: Math.round(metric('solar_event_loop_delay_max_seconds') * 1000),
      blocks: metric('solar_event_loop_blocks_total'),
    };
  }

  /** A file asked for, fetched whole, with the time from the start of its batch. */
  const timed = async (started: number, res: Promise<Response>) => {
    const answer = await res;
    const bytes = (await answer.arrayBuffer()).byteLength;
    return { status: answer.status, bytes, ms: Math.round(performance.now() - started) };
  };

  /**
   * Runs `work` while /api/health and GET /api/plants are called one after the other every 20 ms and the
   * server's VmRSS is read every 50 ms; answers their figures, the server's event loop over the same time
   * and the machine's load average (1 minute) before and after: the machine is shared.
   */
  async function measuredDuring<T>(work: (started: number) => Promise<T>) {
    const pid = server.child.pid!;
    const rssBeforeMiB = processRssMiB(pid);
    let peakRssMiB = rssBeforeMiB;
    const sampler = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, processRssMiB(pid))), 50);
    const loadBefore = loadavg()[0]!;
    const blocksBefore = (await eventLoop()).blocks;
    const latenciesMs: number[] = [];
    // Counted, not asserted here: the figures are recorded whatever happens, then judged.
    let probeFailures = 0;
    let running = true;
    const probe = (async () => {
      while (running) {
        for (const url of ['health', 'plants']) {
          const started = performance.now();
          const res = await fetch(`${server.url}/api/${url}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          latenciesMs.push(performance.now() - started);
          if (res.status !== 200) probeFailures++;
        }
        await sleep(20);
      }
    })();
    const started = performance.now();
    const result = await work(started).finally(() => (running = false));
    const durationMs = Math.round(performance.now() - started);
    await probe;
    clearInterval(sampler);
    const loop = await eventLoop();
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    return {
      result,
      duration_ms: durationMs,
      probe_calls: sorted.length,
      probe_failures: probeFailures,
      probe_p50_ms: Math.round(percentile(sorted, 50)),
      probe_p99_ms: Math.round(percentile(sorted, 99)),
      probe_max_ms: Math.round(sorted[sorted.length - 1] ?? NaN),
      event_loop_p99_ms: loop.p99Ms,
      event_loop_max_ms: loop.maxMs,
      event_loop_blocks: loop.blocks - blocksBefore,
      rss_before_mib: rssBeforeMiB,
      peak_rss_mib: peakRssMiB,
      load_before: Number(loadBefore.toFixed(2)),
      load_after: Number(loadavg()[0]!.toFixed(2)),
    };
  }

  /** What a measurement must keep: the light calls' p99, the memory bound, no task holding the loop 1 s. */
  const expectResponsive = (m: Awaited<ReturnType<typeof measuredDuring>>) => {
    expect(m.probe_calls).toBeGreaterThan(0);
    expect(m.probe_failures).toBe(0);
    expect(m.probe_p99_ms).toBeLessThan(P99_LIMIT_MS);
    expect(m.peak_rss_mib).toBeLessThan(RSS_LIMIT_MIB);
    expect(m.event_loop_blocks).toBe(0);
  };

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
    const m = await measuredDuring((started) =>
      Promise.all([
        timed(started, get('reports/production', largestReport('xlsx'))),
        timed(started, get('telemetry/export', exportQuery(signalIds, 'xlsx'))),
      ]),
    );
    const [reportFile, exportFile] = m.result;
    const { result: _files, ...measured } = m;
    figures.largest_xlsx = {
      report_xlsx_ms: reportFile.ms,
      report_xlsx_bytes: reportFile.bytes,
      export_xlsx_ms: exportFile.ms,
      export_xlsx_bytes: exportFile.bytes,
      ...measured,
    };
    expect(reportFile.status).toBe(200);
    expect(exportFile.status).toBe(200);
    expectResponsive(m);
    // Still alive and answering after both.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it(`builds the year of ${PLANTS} plants as PDF with the same bounds`, async () => {
    const m = await measuredDuring((started) =>
      timed(started, get('reports/production', largestReport('pdf'))),
    );
    const { result: file, ...measured } = m;
    figures.largest_pdf = { pdf_ms: file.ms, pdf_bytes: file.bytes, ...measured };
    expect(file.status).toBe(200);
    expectResponsive(m);
  });

  it('builds four small PDFs of two users at once with the same bounds', async () => {
    const operator = await ApiClient.login(server.url, OPERATOR.email, OPERATOR.password);
    const month = {
      from: date(end - 30 * DAY_MS),
      to: date(end - DAY_MS),
      granularity: 'day',
      format: 'pdf',
    };
    // GET plants/overview, not GET plants: the plant list is plant management's (the operator has no view
    // on it and is answered 403); the overview opens with view on the plant page, which both users have.
    const firstPlant = async (as: string) => {
      const res = await fetch(`${server.url}/api/plants/overview`, {
        headers: { authorization: `Bearer ${as}` },
      });
      expect(res.status).toBe(200);
      const list = (await res.json()) as { items: { plant_id: number }[] };
      return list.items[0]!.plant_id;
    };
    const asks = await Promise.all(
      [token, token, operator.sessionToken, operator.sessionToken].map(async (as, i) => ({
        as,
        query: { ...month, plant_ids: String(await firstPlant(as)), lang: i % 2 ? 'en_US' : 'tr_TR' },
      })),
    );
    const m = await measuredDuring((started) =>
      Promise.all(asks.map(({ as, query }) => timed(started, get('reports/production', query, as)))),
    );
    const { result: files, ...measured } = m;
    figures.small_pdfs = {
      slowest_ms: Math.max(...files.map((f) => f.ms)),
      bytes: files.reduce((a, f) => a + f.bytes, 0),
      ...measured,
    };
    expect(files.map((f) => f.status)).toEqual([200, 200, 200, 200]);
    expectResponsive(m);
  });
});
