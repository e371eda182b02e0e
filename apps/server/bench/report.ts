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
}

/** Records one figure (with the 1-minute load average at that moment: figures under load are noisy). */
export function recordFigure(figure: Figure): void {
  const file = process.env.BENCH_REPORT;
  if (!file) return;
  const line = { ...figure, load_average_1m: Number(loadavg()[0]!.toFixed(2)), at: new Date().toISOString() };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
