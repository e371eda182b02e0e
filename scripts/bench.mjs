/**
 * npm run bench: every benchmark at a size that fits about ten minutes on the development machine, one after
 * the other, each in its own process. Figures the benchmarks record (apps/server/bench/report.ts) and the
 * tail of each one's output go into docs/benchmarks/<date>-<commit>.json with the machine, the commit and
 * the date, so two runs can be compared. PostgreSQL too when DATABASE_URL is set.
 *   BENCH_ONLY=ingest,kpi  runs only those.
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/** name, npm script, the environment that sizes it for the ten-minute budget. */
const BENCHES = [
  ['ingest', 'bench:ingest', { BENCH_BATCHES: '300' }],
  ['query', 'bench:query', { BENCH_SIGNALS: '50', BENCH_DAYS: '90', BENCH_RAW_DAYS: '7', BENCH_RUNS: '20' }],
  ['alarms', 'bench:alarms', { BENCH_SECONDS: '15', BENCH_RULES: '1000' }],
  ['kpi', 'bench:kpi', { BENCH_DAYS: '3', BENCH_RUNS: '50' }],
  ['fleet', 'bench:fleet', { BENCH_FLEET: '6,200', BENCH_RUNS: '20' }],
  ['single-line', 'bench:single-line', { BENCH_RUNS: '10' }],
  ['web', 'bench:web', { RUNS: '5' }],
  ['login', 'bench:login', { BENCH_SECONDS: '10' }],
];
const only = process.env.BENCH_ONLY?.split(',');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
const started = new Date();
const loadAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
const figuresFile = path.join(os.tmpdir(), `solar-bench-${process.pid}.jsonl`);
rmSync(figuresFile, { force: true });

const runs = [];
for (const [name, script, env] of BENCHES) {
  if (only && !only.includes(name)) continue;
  console.log(`\n=== ${name} (npm run ${script})`);
  const t0 = Date.now();
  const res = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    env: { ...process.env, ...env, BENCH_REPORT: figuresFile },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 2 ** 20,
  });
  process.stdout.write(res.stdout ?? '');
  runs.push({
    bench: name,
    env,
    exit_code: res.status,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    // The last lines hold the figures of benchmarks that do not record them yet.
    output_tail: (res.stdout ?? '').trim().split('\n').slice(-15),
  });
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
  database: process.env.DATABASE_URL ? 'sqlite+postgres' : 'sqlite',
  runs,
  figures,
};
const dir = path.join(root, 'docs', 'benchmarks');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `${started.toISOString().slice(0, 10)}-${commit}.json`);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nfigures written to ${path.relative(root, file)}`);
