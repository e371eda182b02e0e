/**
 * bench:query — read latency over a year of telemetry. Generates BENCH_SIGNALS signals (500) across 10 plants;
 * BENCH_DAYS (365) of rollups written directly (5m/1h/1d rows from a synthetic day curve, not through the
 * ingest path: a year of 1-minute points through HTTP would take hours) and BENCH_RAW_DAYS (90) of raw
 * 1-minute points for the most recent days (bulk insert). Prints p50/p95 of three reads and database size.
 * Against PostgreSQL when DATABASE_URL is set.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { dayBucket } from '../src/telemetry-store/buckets';
import { insertRaw, upsertRollups, type RollupRow } from '../src/telemetry-store/telemetry-store.repository';
import { benchApp, pct, rssMiB, seedPlants, benchAdminToken } from './setup';

const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 500);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const RAW_DAYS = Math.min(DAYS, Number(process.env.BENCH_RAW_DAYS ?? 90));
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DAY = 86_400_000;

const { app, ctx, config } = await benchApp(process.env.DATABASE_URL);
const per = Math.max(2, Math.round(SIGNALS / 100));
const plants = await seedPlants(ctx.db, 10, 10, per);
const now = Date.now();
const token = await benchAdminToken(ctx);

/** kW of a 100 kW inverter at minute m of the day: a clipped sine between 06:00 and 18:00 UTC+3. */
const powerAt = (ms: number) =>
  Math.max(0, Math.sin(((((ms + 3 * 3_600_000) % DAY) / DAY) * 24 - 6) * (Math.PI / 12)) * 100);

const today = Math.floor(now / DAY) * DAY;
const start = today - DAYS * DAY;
const rawStart = today - RAW_DAYS * DAY;
let rawPoints = 0;
let rollupRows = 0;
const t0 = performance.now();
for (const plant of plants) {
  const tz = plant.plantId % 2 ? 'Europe/Istanbul' : 'Europe/Skopje';
  for (const signal of plant.signals) {
    const counter = plant.counters.includes(signal);
    // Rollups for the whole year from per-minute synthetic values, aggregated here.
    const rows: Record<'5m' | '1h' | '1d', Map<number, RollupRow>> = {
      '5m': new Map(),
      '1h': new Map(),
      '1d': new Map(),
    };
    let energy = 0;
    const raw: { signal_id: number; ts: number; value: number }[] = [];
    for (let ts = start; ts < today; ts += 60_000) {
      const p = powerAt(ts);
      const inc = p / 60;
      energy += inc;
      const value = counter ? energy : p;
      if (ts >= rawStart) raw.push({ signal_id: signal, ts, value });
      for (const [res, bucket] of [
        ['5m', ts - (ts % 300_000)],
        ['1h', ts - (ts % 3_600_000)],
        ['1d', dayBucket(ts - (ts % 900_000), tz)],
      ] as const) {
        const r = rows[res].get(bucket);
        if (!r)
          rows[res].set(bucket, {
            signal_id: signal,
            bucket,
            min: value,
            max: value,
            sum: value,
            count: 1,
            first: value,
            first_ts: ts,
            last: value,
            last_ts: ts,
            delta: counter ? inc : null,
          });
        else {
          r.min = Math.min(r.min, value);
          r.max = Math.max(r.max, value);
          r.sum += value;
          r.count++;
          r.last = value;
          r.last_ts = ts;
          if (counter) r.delta! += inc;
        }
      }
    }
    await ctx.db.transaction().execute(async (trx) => {
      for (const res of ['5m', '1h', '1d'] as const) {
        const list = [...rows[res].values()];
        rollupRows += list.length;
        for (let i = 0; i < list.length; i += 20_000)
          await upsertRollups(trx, ctx.dialect, res, list.slice(i, i + 20_000));
      }
      for (let i = 0; i < raw.length; i += 10_000)
        await insertRaw(trx, ctx.dialect, raw.slice(i, i + 10_000));
    });
    rawPoints += raw.length;
  }
  console.log(
    `generated plant ${plant.plantId}: ${rawPoints} raw points, ${rollupRows} rollup rows, ${((performance.now() - t0) / 1000).toFixed(0)} s, RSS ${rssMiB()} MiB`,
  );
}

async function measure(label: string, url: () => string) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: url(),
      headers: { authorization: `Bearer ${token}` },
    });
    times.push(performance.now() - s);
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label}: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms (${RUNS} runs)`,
  );
}

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
let k = 0;
await measure(
  'a year of daily energy for a plant',
  () =>
    `/api/telemetry/energy?plant_id=${plants[k++ % plants.length]!.plantId}&period=day&from=${date(today - 365 * DAY)}&to=${date(today - DAY)}`,
);
const powers = plants.flatMap((p) => p.powers);
const fifty = powers.slice(0, 50).join(',');
await measure(
  `a day of 5-minute power for ${Math.min(50, powers.length)} inverters`,
  () => `/api/telemetry?signal_ids=${fifty}&from=${today - 2 * DAY}&to=${today - DAY}&resolution=5m`,
);
const twenty = plants
  .flatMap((p) => p.signals)
  .slice(0, 20)
  .join(',');
await measure(
  'a month of hourly data for 20 signals',
  () => `/api/telemetry?signal_ids=${twenty}&from=${today - 31 * DAY}&to=${today - DAY}&resolution=1h`,
);

let bytes: number;
if (ctx.dialect === 'sqlite') {
  await ctx.db.executeQuery({
    sql: 'pragma wal_checkpoint(truncate)',
    parameters: [],
    query: { kind: 'RawNode' },
  } as never);
  const file = config.database.dialect === 'sqlite' ? config.database.file : '';
  bytes =
    statSync(file).size +
    (() => {
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0;
      }
    })();
  console.log(`database file ${path.basename(file)}`);
} else {
  const { rows } = await ctx.db.executeQuery<{ bytes: string }>({
    sql: "select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'",
    parameters: [],
    query: { kind: 'RawNode' },
  } as never);
  bytes = Number(rows[0]!.bytes);
}
console.log(
  `${ctx.dialect}: ${rawPoints} raw points + ${rollupRows} rollup rows = ${(bytes / 2 ** 20).toFixed(0)} MiB; ${((bytes / 2 ** 20 / rawPoints) * 1e6).toFixed(1)} MiB per million raw points (rollups included), ${((bytes / 2 ** 20 / (rawPoints + rollupRows)) * 1e6).toFixed(1)} MiB per million rows`,
);
await app.close();
