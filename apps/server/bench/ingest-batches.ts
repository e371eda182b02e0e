/** The rows bench:ingest posts and the bare loop inserts: built the same way in every process. */

/** One raw row as the ingest body and the bare loop carry it. */
export interface BenchRow {
  signal_id: number;
  ts: number;
  value: number;
}

/**
 * Batch `window` of one plant: each of its signals at `steps` consecutive seconds from `startMs` onward,
 * timestamp-major (as a gateway catching up sends it). The first signal of each inverter (every tenth) is
 * its energy counter and rises; the others are random to the hundredth, seeded by position so every
 * process builds the same rows.
 */
export function batchOf(signals: readonly number[], window: number, startMs: number, steps: number) {
  const rows: BenchRow[] = [];
  for (let step = 0; step < steps; step++) {
    const second = window * steps + step;
    const ts = startMs + second * 1000;
    for (let i = 0; i < signals.length; i++) {
      const value = i % 10 === 0 ? 1000 + second * 0.01 : ((second * 7919 + i * 104_729) % 10_000_000) / 100;
      rows.push({ signal_id: signals[i]!, ts, value });
    }
  }
  return rows;
}
