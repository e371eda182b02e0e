/**
 * bench:query-split — where the time of bench:query's three series/latest reads goes, on the database that
 * bench:query cached (run `BENCH_CACHE=dir npm run bench:query` first with the same BENCH_* sizes). For
 * each read, BENCH_RUNS calls (after 3 warm-ups) through app.inject, split by Fastify hooks and a timer
 * around every database call:
 *   auth (onRequest: token, session user, permissions), handler JS (service + Kysely compile + mapping),
 *   database calls (round trip incl. the driver's parse), serialization (preSerialization → onSend),
 *   and the rest of app.inject.
 * Then, for the read's big statement as the server sent it (captured text and parameters), on PostgreSQL:
 *   server execution (`explain (analyze, timing off)`), the driver's round trip with its type parsers and
 *   row objects, and with rowMode 'array' and no type parsing; Kysely compile time of the same builder is
 *   the handler's JS less the mapping, shown by the handler line.
 * Prints medians (ms). Not a figure for docs' generated block: an analysis tool (docs/benchmarks.md).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadavg } from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { benchAdminToken } from './setup';

const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 500);
const DAYS = Number(process.env.BENCH_DAYS ?? 1_826);
const FIVE_MINUTE_DAYS = Math.min(DAYS, Number(process.env.BENCH_5M_DAYS ?? DAYS));
const RAW_DAYS = Math.min(DAYS, Number(process.env.BENCH_RAW_DAYS ?? 90));
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const CACHE = process.env.BENCH_CACHE;
const DATABASE_URL = process.env.DATABASE_URL;
const DAY = 86_400_000;
if (!CACHE) throw new Error('BENCH_CACHE: the directory bench:query kept its generated database in');

const sizes = `s${SIGNALS}-d${DAYS}-f${FIVE_MINUTE_DAYS}-r${RAW_DAYS}`;
const config = loadConfig({
  NODE_ENV: 'production',
  DATA_DIR: path.resolve(CACHE, `query-${sizes}`),
  LOG_LEVEL: 'error',
  JWT_SECRET: randomBytes(32).toString('hex'),
  DEMO: 'false',
  SIMULATOR: 'false',
  MODBUS_POLLER: 'false',
  TELEMETRY_RAW_RETENTION_DAYS: '3650',
  ...(DATABASE_URL ? { DATABASE_URL, DATABASE_SCHEMA: `bench_query_${sizes.replace(/-/g, '_')}` } : {}),
});

/** Database calls of the request in flight: [statement, parameters, ms]. */
let calls: [string, unknown[], number][] = [];
// Every statement goes through pg.Client#query (Kysely's PostgresConnection) or better-sqlite3's prepare.
if (DATABASE_URL) {
  // Called below with the client as `this` (Function#apply), as the driver itself would.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (result instanceof Promise && typeof args[0] === 'string') {
      const s = performance.now();
      return result.then((r: unknown) => {
        calls.push([args[0] as string, (args[1] as unknown[]) ?? [], performance.now() - s]);
        return r;
      });
    }
    return result;
  } as typeof pg.Client.prototype.query;
}

const { app, ctx } = await buildApp(config);
const marks = new Map<unknown, Record<string, number>>();
app.addHook('preHandler', (req, _reply, done) => {
  marks.set(req.raw, { preHandler: performance.now() });
  calls = [];
  done();
});
app.addHook('preSerialization', (req, _reply, payload, done) => {
  marks.get(req.raw)!.preSerialization = performance.now();
  done(null, payload);
});
app.addHook('onSend', (req, _reply, payload, done) => {
  const m = marks.get(req.raw);
  if (m) m.onSend = performance.now();
  done(null, payload);
});
await app.ready();
const { db, dialect } = ctx;
await db.deleteFrom('users').where('username', '=', 'bench').execute();
await db.deleteFrom('roles').where('name', '=', 'admin-bench').execute();
const token = await benchAdminToken(ctx);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (ms: number) => ms.toFixed(2);

const plants = await db.selectFrom('plants').select('id').orderBy('id').execute();
const signals = await db
  .selectFrom('signals')
  .innerJoin('devices', 'devices.id', 'signals.device_id')
  .select(['signals.id', 'signals.key', 'devices.plant_id'])
  .orderBy('signals.id')
  .execute();
const latestPlant = plants.at(-1)!.id;
const history = signals.filter((s) => s.plant_id !== latestPlant);
const meta = await db
  .selectFrom('telemetry_latest')
  .select((eb) => eb.fn.max('ts').as('ts'))
  .executeTakeFirstOrThrow();
const end = Number(meta.ts) + 60_000;
const fifty = history
  .filter((s) => s.key === 'ac_power')
  .map((s) => s.id)
  .slice(0, 50);
const twenty = history.map((s) => s.id).slice(0, 20);

const reads: [string, string][] = [
  [
    `5m power, ${fifty.length} inverters, a day`,
    `/api/telemetry?signal_ids=${fifty.join(',')}&from=${end - 2 * DAY}&to=${end - DAY}&resolution=5m`,
  ],
  [
    'hourly, 20 signals, a month',
    `/api/telemetry?signal_ids=${twenty.join(',')}&from=${end - 31 * DAY}&to=${end - DAY}&resolution=1h`,
  ],
  ['latest, 1,000 signals', `/api/telemetry/latest?plant_id=${latestPlant}`],
  [
    `raw power, ${fifty.length} inverters, a day`,
    `/api/telemetry?signal_ids=${fifty.join(',')}&from=${end - 2 * DAY}&to=${end - DAY}&resolution=raw`,
  ],
];

console.log(`${dialect}, ${sizes}, ${RUNS} runs, load average ${load()}`);
for (const [label, url] of reads) {
  const split: Record<string, number[]> = {
    total: [],
    auth: [],
    handler: [],
    db: [],
    serialize: [],
    rest: [],
    cpu: [],
  };
  let big: [string, unknown[], number] | undefined;
  let rows = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const c = process.cpuUsage();
    const s = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const e = performance.now();
    const used = process.cpuUsage(c);
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
    const m = [...marks.values()].at(-1)!;
    marks.clear();
    if (i < 3) continue;
    const dbMs = calls.reduce((a, [, , ms]) => a + ms, 0);
    split.total!.push(e - s);
    split.auth!.push(m.preHandler! - s);
    split.db!.push(dbMs);
    split.handler!.push(m.preSerialization! - m.preHandler! - dbMs);
    split.serialize!.push(m.onSend! - m.preSerialization!);
    split.rest!.push(e - m.onSend!);
    split.cpu!.push((used.user + used.system) / 1000);
    big = calls.reduce<[string, unknown[], number] | undefined>(
      (a, c) => (!a || c[2] > a[2] ? c : a),
      undefined,
    );
    const body = JSON.parse(res.body) as { series?: { points: unknown[] }[]; items?: unknown[] };
    rows = body.items?.length ?? body.series!.reduce((a, s) => a + s.points.length, 0);
  }
  console.log(
    `\n${label} (${rows.toLocaleString('en')} points/items, load ${load()}): median total ${f(median(split.total!))} ms (CPU ${f(median(split.cpu!))}) = auth ${f(median(split.auth!))} + handler JS ${f(median(split.handler!))} + database calls ${f(median(split.db!))} (${calls.length} statements) + serialization ${f(median(split.serialize!))} + inject ${f(median(split.rest!))}`,
  );
  if (!big || dialect !== 'postgres') continue;
  const [text, params] = big;
  console.log(`  biggest statement: ${text.slice(0, 160)}${text.length > 160 ? '…' : ''}`);
  const pool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: 1,
    options: `-c search_path=${config.database.dialect === 'postgres' ? config.database.schema : ''}`,
  });
  const raw = new pg.Pool({
    connectionString: DATABASE_URL,
    max: 1,
    options: `-c search_path=${config.database.dialect === 'postgres' ? config.database.schema : ''}`,
    types: { getTypeParser: () => (v: string) => v },
  });
  const exec: number[] = [];
  const parsed: number[] = [];
  const unparsed: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const plan = await pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, timing off, buffers off) ${text}`,
      params,
    );
    const t = /Execution Time: ([\d.]+) ms/.exec(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    let s = performance.now();
    await pool.query(text, params);
    const p = performance.now() - s;
    s = performance.now();
    const r = await raw.query({ text, values: params, rowMode: 'array' });
    const u = performance.now() - s;
    if (i < 3) continue;
    exec.push(Number(t![1]));
    parsed.push(p);
    unparsed.push(u);
    bytes = (r.rows as string[][]).reduce((a, row) => a + row.reduce((b, v) => b + (v?.length ?? 0), 0), 0);
  }
  const size = await pool.query<{ n: string }>(`select count(*)::text as n from (${text}) q`, params);
  console.log(
    `  ${size.rows[0]!.n} rows, ${(bytes / 1024).toFixed(0)} KiB of text values: server execution ${f(median(exec))} ms; round trip with row objects and type parsers ${f(median(parsed))} ms; as arrays of strings ${f(median(unparsed))} ms`,
  );
  await pool.end();
  await raw.end();
}
if (dialect === 'postgres') await sql`select 1`.execute(db);
await app.close();
