/**
 * recordFigure: how a benchmark hands a measured figure to `npm run bench` (scripts/bench.mjs). Each call
 * prints nothing; when BENCH_REPORT names a file (the runner sets it) it appends one JSON line there, so the
 * runner can gather the figures of every benchmark, each run in its own process, into one dated file.
 */
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';

export interface Figure {
  /** The benchmark, e.g. `ingest`. */
  bench: string;
  /** What was measured, e.g. `http_sqlite_points_per_s`; the unit belongs in the name or in `unit`. */
  name: string;
  value: number;
  unit: string;
  /** The sizes and settings the figure depends on. */
  params?: Record<string, string | number | boolean>;
  /**
   * The database measured: 'sqlite' or 'postgres' (default: PostgreSQL when the benchmark runs with
   * DATABASE_URL, else SQLite); 'none' for what uses no database (a browser's paint, a layout).
   */
  database?: 'sqlite' | 'postgres' | 'none';
  /** The aim the figure is held to (docs/benchmarks.md): met when `value op aim.value`. */
  aim?: { op: '<' | '<=' | '>=' | '>'; value: number };
  /** A series behind the figure (e.g. memory every 10 s), kept in the JSON as it is. */
  series?: Record<string, number>[];
}

/** Records one figure (with the 1-minute load average at that moment: figures under load are noisy). */
export function recordFigure(figure: Figure): void {
  const file = process.env.BENCH_REPORT;
  if (!file) return;
  const line = {
    ...figure,
    database: figure.database ?? (process.env.DATABASE_URL ? 'postgres' : 'sqlite'),
    load_average_1m: Number(loadavg()[0]!.toFixed(2)),
    at: new Date().toISOString(),
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** `name` as a figure name: lower case, words joined by `_` (e.g. "Fleet overview" → fleet_overview). */
export const figureName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Records `<name>_p50` and `<name>_p95` of sorted latencies in ms; `aimP95Ms`, when given, holds the p95. */
export function recordLatencies(
  bench: string,
  name: string,
  sortedMs: readonly number[],
  options: { params?: Figure['params']; aimP95Ms?: number; database?: Figure['database'] } = {},
): void {
  const at = (p: number) =>
    sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))] ?? 0;
  const base = { bench, unit: 'ms', params: options.params, database: options.database };
  recordFigure({ ...base, name: `${figureName(name)}_p50`, value: Number(at(50).toFixed(2)) });
  recordFigure({
    ...base,
    name: `${figureName(name)}_p95`,
    value: Number(at(95).toFixed(2)),
    ...(options.aimP95Ms !== undefined ? { aim: { op: '<' as const, value: options.aimP95Ms } } : {}),
  });
}
