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
  /** The aim the figure is held to (issue 11 and the others): met when `value op aim.value`. */
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
