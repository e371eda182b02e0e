/**
 * npm run bench: every benchmark at a size that fits about ten minutes on the development machine, one after
 * the other, each in its own process. Every benchmark records its figures (apps/server/bench/report.ts, or
 * e2e/bench/report.ts) with their database and aim; they go into docs/benchmarks/<date>T<hhmm>-<commit>.json with
 * the machine, the load average, the commit and the date, so two runs can be compared, and
 * docs/benchmarks.md's figures section is regenerated from them (scripts/bench-docs.mjs).
 *   BENCH_ONLY=ingest,kpi  runs only those.
 *   BENCH_DB=postgres (or sqlite): of the benchmarks run once per database, only that database's run (a
 *     full-size history cached for one database need not be generated again for the other).
 *   BENCH_PG_URL (or DATABASE_URL): PostgreSQL too. Benchmarks that measure both databases in one process get
 *     it as DATABASE_URL; the others run once on SQLite (without DATABASE_URL) and once on PostgreSQL.
 *   BENCH_MEMORY_SECONDS (30): bench:ingest's timed run per database with RSS/heap every 10 s; 600 for the
 *     ten-minute flat-memory check (then the whole run takes twenty minutes longer).
 *   BENCH_QUERY_FULL=1: bench:query at full size (500 signals, 90 days raw, 5 years of rollups) instead of the
 *     ten-minute size, kept between runs under BENCH_CACHE (default <tmp>/solar-bench-cache).
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pgUrl = process.env.BENCH_PG_URL || process.env.DATABASE_URL || undefined;
const fullQuery = process.env.BENCH_QUERY_FULL === '1';
/**
 * name, npm script, the environment that sizes it for the ten-minute budget, and how it meets PostgreSQL:
 * 'one' measures both databases in one process (given DATABASE_URL), 'each' measures the database of
 * DATABASE_URL (run once per database), 'none' uses no PostgreSQL.
 */
const BENCHES = [
  [
    'ingest',
    'bench:ingest',
    { BENCH_BATCHES: '300', BENCH_MEMORY_SECONDS: process.env.BENCH_MEMORY_SECONDS ?? '30' },
    'one',
  ],
  [
    'query',
    'bench:query',
    fullQuery
      ? {
          BENCH_CACHE: process.env.BENCH_CACHE ?? path.join(os.tmpdir(), 'solar-bench-cache'),
          // 200 calls, as at the ten-minute size: of 50, p95 is the third-slowest call.
          BENCH_RUNS: '200',
        }
      : // 200 calls: p95 is the 191st of them. Of 20 it was the slowest (setup.ts pct), one call's luck.
        { BENCH_SIGNALS: '50', BENCH_DAYS: '90', BENCH_RAW_DAYS: '7', BENCH_RUNS: '200' },
    'each',
  ],
  ['alarms', 'bench:alarms', { BENCH_SECONDS: '15', BENCH_RULES: '1000' }, 'each'],
  ['kpi', 'bench:kpi', { BENCH_DAYS: '3', BENCH_RUNS: '50' }, 'each'],
  ['fleet', 'bench:fleet', { BENCH_FLEET: '6,200', BENCH_RUNS: '20' }, 'each'],
  ['mqtt', 'bench:mqtt', { BENCH_MESSAGES: '10000', BENCH_VALUES: '10,1' }, 'one'],
  ['reports', 'bench:reports', { BENCH_DAYS: '31', BENCH_RUNS: '3', BENCH_PLANTS: '200' }, 'each'],
  ['single-line', 'bench:single-line', { BENCH_RUNS: '10' }, 'none'],
  ['web', 'bench:web', { RUNS: '5' }, 'none'],
  ['login', 'bench:login', { BENCH_SECONDS: '10' }, 'none'],
  ['dashboard', 'bench:dashboard', { RUNS: '5', BENCH_DAYS: '2' }, 'none'],
  ['rtu', 'bench:rtu', { BENCH_SECONDS: '5' }, 'none'],
  // The agent's console runs on SQLite in the bench's process; the agent's own queue is SQLite anyway.
  ['edge', 'bench:edge', { BENCH_LIVE_SECONDS: '60' }, 'none'],
];
const only = process.env.BENCH_ONLY?.split(',');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--short', 'HEAD');
// Code changes only: the figures and docs of an earlier run waiting to be committed do not make a run dirty.
const dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs') !== '';
const started = new Date();
const loadAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
const figuresFile = path.join(os.tmpdir(), `solar-bench-${process.pid}.jsonl`);
rmSync(figuresFile, { force: true });

const runs = [];
const onlyDb = process.env.BENCH_DB;
/** The runs of one benchmark: its databases and the DATABASE_URL each gets (undefined: SQLite). */
const passes = (mode) =>
  mode === 'each' && pgUrl
    ? [undefined, pgUrl].filter((url) => !onlyDb || onlyDb === (url ? 'postgres' : 'sqlite'))
    : [mode === 'one' ? pgUrl : undefined];
for (const [name, script, env, mode] of BENCHES) {
  if (only && !only.includes(name)) continue;
  for (const databaseUrl of passes(mode)) {
    console.log(
      `\n=== ${name} (npm run ${script})${mode === 'each' ? (databaseUrl ? ' on PostgreSQL' : ' on SQLite') : ''}`,
    );
    // What the run's figures will name as their database, so that a failed run stands where they would.
    const databases =
      mode === 'none'
        ? ['none']
        : mode === 'one' && databaseUrl
          ? ['sqlite', 'postgres']
          : [databaseUrl ? 'postgres' : 'sqlite'];
    runs.push(runOne(name, script, env, databaseUrl, databases));
  }
}

function runOne(name, script, env, databaseUrl, databases) {
  const t0 = Date.now();
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.BENCH_PG_URL;
  const res = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    env: {
      ...base,
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      BENCH_REPORT: figuresFile,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 2 ** 20,
  });
  process.stdout.write(res.stdout ?? '');
  return {
    bench: name,
    database: databaseUrl ? 'postgres' : 'sqlite',
    databases,
    env,
    exit_code: res.status,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    // For a failed run: what it printed last.
    output_tail: (res.stdout ?? '').trim().split('\n').slice(-15),
  };
}

let figures = [];
try {
  figures = readFileSync(figuresFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
} catch {
  // No benchmark recorded a figure.
}
rmSync(figuresFile, { force: true });
const cpus = os.cpus();
const report = {
  date: started.toISOString(),
  commit,
  dirty,
  machine: {
    cpu: cpus[0]?.model,
    cores: cpus.length,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    load_average_at_start: loadAtStart,
    load_average_at_end: os.loadavg().map((l) => Number(l.toFixed(2))),
  },
  database: pgUrl ? 'sqlite+postgres' : 'sqlite',
  runs,
  figures,
};
const dir = path.join(root, 'docs', 'benchmarks');
mkdirSync(dir, { recursive: true });
// Date and time: two runs of one commit on one day (BENCH_ONLY parts) keep a file each.
const file = path.join(dir, `${started.toISOString().slice(0, 16).replace(':', '')}-${commit}.json`);
// As prettier would leave it, so that `npm run check` stays green with the file committed.
const prettier = await import('prettier');
writeFileSync(file, await prettier.format(JSON.stringify(report), { filepath: file }));
console.log(`\nfigures written to ${path.relative(root, file)}`);
// docs/benchmarks.md's figures section, from this run and the earlier ones.
execFileSync(process.execPath, [path.join(root, 'scripts', 'bench-docs.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
