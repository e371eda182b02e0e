/**
 * bench:ingest — POST /api/telemetry throughput over a real port (10,000-point batches, plant keys), against
 * SQLite and, when DATABASE_URL is set, PostgreSQL; then the same rows through a bare better-sqlite3
 * prepared-insert loop into an equally shaped table, and the ratio. Prints figures and RSS; asserts nothing.
 *   BENCH_SECONDS (60)  CLIENTS (2)  BENCH_SIGNALS (1000: signals per batch, 10 timestamps each)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { benchApp, rssMiB, seedPlants } from './setup';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CLIENTS = Number(process.env.CLIENTS ?? 2);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 1000);
const BATCH = 10_000;
const PLANTS = 10;
const PER_PLANT = Math.max(2, Math.round(SIGNALS / PLANTS));
const STEPS = Math.max(1, Math.floor(BATCH / PER_PLANT));

/** Batch `window` of one plant: each of its signals at STEPS consecutive seconds, from 60 days ago onward. */
function batchOf(signals: readonly number[], window: number, start: number) {
  const points: { signal_id: number; ts: number; value: number }[] = [];
  for (let step = 0; step < STEPS; step++) {
    const second = window * STEPS + step;
    const ts = start + second * 1000;
    for (let i = 0; i < signals.length; i++) {
      // The first signal of each inverter is its energy counter.
      const value = i % 10 === 0 ? 1000 + second * 0.01 : Math.round(Math.random() * 100_000) / 100;
      points.push({ signal_id: signals[i]!, ts, value });
    }
  }
  return points;
}

async function runHttp(label: string, databaseUrl?: string) {
  const { app, ctx } = await benchApp(databaseUrl);
  // 10 plants × 10 inverters × SIGNALS/100 signals: a plant key covers its 100-signal share of a batch.
  const plants = await seedPlants(ctx.db, PLANTS, 10, Math.max(1, Math.round(PER_PLANT / 10)));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`[${label}] listening on ${address}; RSS ${rssMiB()} MiB at start`);
  const start = Date.now() - 60 * 86_400_000;
  let next = 0;
  let points = 0;
  let errors = 0;
  const latencies: number[] = [];
  const t0 = performance.now();
  const end = Date.now() + SECONDS * 1000;
  const memory = setInterval(
    () =>
      console.log(
        `[${label}] ${((performance.now() - t0) / 1000).toFixed(0)} s: RSS ${rssMiB()} MiB, ${points} points`,
      ),
    10_000,
  );
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const n = next++;
        const plant = plants[n % PLANTS]!;
        const body = JSON.stringify({ points: batchOf(plant.signals, Math.floor(n / PLANTS), start) });
        const s = performance.now();
        const res = await fetch(`${address}/api/telemetry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': plant.key },
          body,
        });
        const answer = (await res.json()) as { stored?: number };
        latencies.push(performance.now() - s);
        if (res.status === 200) points += answer.stored ?? 0;
        else errors++;
      }
    }),
  );
  clearInterval(memory);
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const rate = points / elapsed;
  console.log(
    `[${label}] HTTP ingest: ${points} points in ${elapsed.toFixed(1)} s = ${rate.toFixed(0)} points/s; ${latencies.length} batches, p50 ${latencies[Math.floor(latencies.length / 2)]?.toFixed(0)} ms; errors ${errors}; RSS ${rssMiB()} MiB`,
  );
  await app.close();
  return { rate, plants: plants.map((p) => p.signals) };
}

function runBare(plants: number[][], batches: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'solar-bare-'));
  const db = new SQLite(path.join(dir, 'bare.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'create table raw (signal_id integer not null, ts bigint not null, value double precision not null, primary key (signal_id, ts)) without rowid',
  );
  const insert = db.prepare('insert into raw (signal_id, ts, value) values (?, ?, ?) on conflict do nothing');
  const many = db.transaction((rows: { signal_id: number; ts: number; value: number }[]) => {
    for (const r of rows) insert.run(r.signal_id, r.ts, r.value);
  });
  const start = Date.now() - 60 * 86_400_000;
  const t0 = performance.now();
  let points = 0;
  for (let n = 0; n < batches; n++) {
    const rows = batchOf(plants[n % PLANTS]!, Math.floor(n / PLANTS), start);
    many(rows);
    points += rows.length;
  }
  const rate = points / ((performance.now() - t0) / 1000);
  console.log(
    `[bare better-sqlite3] prepared insert loop, 10,000-row transactions: ${points} points = ${rate.toFixed(0)} points/s`,
  );
  db.close();
  return rate;
}

console.log(
  `bench:ingest ${SECONDS} s, ${CLIENTS} clients, batches of ${BATCH} (one plant's ${PER_PLANT} signals × ${STEPS} s); Node ${process.version}`,
);
const sqlite = await runHttp('sqlite');
const bare = runBare(sqlite.plants, 200);
console.log(`ratio HTTP/bare: ${(sqlite.rate / bare).toFixed(2)}`);
if (process.env.DATABASE_URL) await runHttp('postgres', process.env.DATABASE_URL);
