/**
 * bench:fleet — GET plants/overview and GET plants/{id}/kpis?period=year on generated fleets
 * (bench/fleet-generator.ts) of BENCH_FLEET plants (default 6,200,2000), 20 inverters each, a year of
 * kpi_daily rows, over HTTP (app.inject: routing, auth, validation and serialisation included). Each size
 * gets a fresh database; prints the build time, p50/p95 of BENCH_RUNS calls (after 3 warm-up calls), and
 * where an overview call spends its time per query (BENCH_PROFILE=1). Against PostgreSQL when DATABASE_URL
 * is set.
 */
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
} from 'kysely';
import { loadavg } from 'node:os';
import { recordFigure, recordLatencies } from './report';
import { benchAdminToken, benchApp, pct, rssMiB } from './setup';
import { generateFleet } from './fleet-generator';

const SIZES = (process.env.BENCH_FLEET ?? '6,200,2000').split(',').map(Number);
const INVERTERS = Number(process.env.BENCH_INVERTERS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PROFILE = process.env.BENCH_PROFILE === '1';

/** Times every query between its compilation and its result, by the table it reads first. */
class QueryTimer implements KyselyPlugin {
  readonly started = new Map<unknown, number>();
  readonly totals = new Map<string, { ms: number; n: number }>();
  readonly names = new Map<unknown, string>();
  transformQuery(args: PluginTransformQueryArgs) {
    const node = args.node as {
      kind: string;
      from?: { froms: { table?: { identifier?: { name: string } } }[] };
    };
    const table = node.from?.froms[0]?.table?.identifier?.name ?? node.kind;
    this.names.set(args.queryId, table);
    this.started.set(args.queryId, performance.now());
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    const t0 = this.started.get(args.queryId);
    const name = this.names.get(args.queryId) ?? '?';
    if (t0 !== undefined) {
      const entry = this.totals.get(name) ?? { ms: 0, n: 0 };
      entry.ms += performance.now() - t0;
      entry.n++;
      this.totals.set(name, entry);
    }
    return Promise.resolve(args.result);
  }
}

for (const size of SIZES) {
  const { app, ctx, dispose } = await benchApp(process.env.DATABASE_URL);
  await app.ready();
  const token = await benchAdminToken(ctx);
  const now = Date.now();
  let t0 = performance.now();
  const counts = await generateFleet(ctx.db, size, INVERTERS, now);
  // A live database has planner statistics (autovacuum's analyze); a just-bulk-loaded one not yet.
  if (ctx.dialect === 'postgres') await sql`analyze`.execute(ctx.db);
  const buildS = (performance.now() - t0) / 1000;
  const first = await ctx.db.selectFrom('plants').select('id').orderBy('id').executeTakeFirstOrThrow();

  const call = async (url: string) => {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const ms = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return { ms, bytes: res.body.length, body: res.body };
  };
  const time = async (url: string, runs: number) => {
    for (let i = 0; i < 3; i++) await call(url);
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const r = await call(url);
      ms.push(r.ms);
      bytes = r.bytes;
    }
    return { ms: ms.sort((a, b) => a - b), bytes };
  };
  const today = new Date(now).toISOString().slice(0, 10);
  const overviewRuns = size >= 1000 ? Math.min(RUNS, 30) : RUNS;
  const overview = await time('/api/plants/overview', overviewRuns);
  const items = (JSON.parse((await call('/api/plants/overview')).body) as { items: unknown[] }).items.length;
  if (items !== size) throw new Error(`overview answered ${items} plants, expected ${size}`);
  const year = await time(`/api/plants/${first.id}/kpis?period=year&date=${today}`, RUNS);

  console.log(
    `\n${size} plants, ${counts.devices} devices, ${counts.signals} signals, ${counts.kpiDays} kpi_daily rows, ` +
      `${counts.activeAlarms} active + ${counts.clearedAlarms} cleared alarms: built in ${buildS.toFixed(1)} s ` +
      `(${ctx.dialect}, rss ${rssMiB()} MiB, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
  recordFigure({
    bench: 'fleet',
    name: `build_${size}_plants_s`,
    value: Number(buildS.toFixed(1)),
    unit: 's',
    params: { plants: size, inverters: INVERTERS },
  });
  const line = (name: string, r: { ms: number[]; bytes: number }) => {
    console.log(
      `  ${name.padEnd(30)} p50 ${pct(r.ms, 50).toFixed(1).padStart(7)} ms  p95 ${pct(r.ms, 95)
        .toFixed(1)
        .padStart(7)} ms  per plant p50 ${((pct(r.ms, 50) * 1000) / size).toFixed(0)} µs  ` +
        `(${r.ms.length} calls, ${(r.bytes / 1024).toFixed(0)} KiB)`,
    );
    recordLatencies('fleet', `${name} ${size} plants`, r.ms, {
      params: { plants: size, inverters: INVERTERS, bytes: r.bytes },
    });
  };
  line('plants/overview', overview);
  line('plants/{id}/kpis?period=year', year);

  if (PROFILE) {
    const timer = new QueryTimer();
    const plain = ctx.db;
    // The service reads ctx.db on each call, so the timed instance is what it uses from here on.
    (ctx as { db: typeof plain }).db = plain.withPlugin(timer);
    const n = 10;
    t0 = performance.now();
    for (let i = 0; i < n; i++) await call('/api/plants/overview');
    const wall = (performance.now() - t0) / n;
    (ctx as { db: typeof plain }).db = plain;
    console.log(`  overview profile: ${wall.toFixed(1)} ms per call, of which queries (ms per call):`);
    for (const [name, v] of [...timer.totals].sort((a, b) => b[1].ms - a[1].ms))
      console.log(`    ${name.padEnd(20)} ${(v.ms / n).toFixed(1).padStart(7)}  (${v.n / n} per call)`);
  }
  await app.close();
  await dispose();
}
