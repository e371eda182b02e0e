/**
 * bench:alarms — (1) latency from a point arriving over HTTP to its alarm being stored and pushed to an
 * open SSE client, p50/p95, with 1,000 active custom rules and background ingest at BENCH_RATE points/s
 * (aim 20,000); (2) evaluation cost of the engine's hot path on one core (no I/O: rules that do not fire).
 * Against PostgreSQL when DATABASE_URL is set. Prints figures; asserts nothing.
 *   BENCH_SECONDS (20)  BENCH_RATE (20000)  BENCH_RULES (1000)
 */
import type { AlarmEvent } from '@solar/shared';
import { createAlarmEngine } from '../src/modules/alarms/engine/alarm-engine';
import { SILENT_PUBLISHER } from '../src/modules/alarms/engine/alarm-publish';
import type { StoredPoint } from '../src/telemetry-store/telemetry-hub';
import { recordFigure, recordLatencies } from './report';
import { benchApp, pct, rssMiB, seedPlants, benchAdminToken } from './setup';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 20_000);
const RULES = Number(process.env.BENCH_RULES ?? 1000);
const silent = { info: () => undefined, warn: () => undefined, error: (o: object) => console.error(o) };

const { app, ctx, dispose } = await benchApp(process.env.DATABASE_URL);
// 10 plants × 10 inverters × 11 signals = 1,100 signals.
const plants = await seedPlants(ctx.db, 10, 10, 11);
const all = plants.flatMap((p) => p.signals);
const probe = all[all.length - 1]!;
const background = all.slice(0, -1);
const now = Date.now();
const ruleRows = background.slice(0, RULES - 1).map((tag_id, i) => ({
  tag_id,
  name: `bench ${i}`,
  description: null,
  priority_id: 2,
  operant: '>',
  value: 1e9,
  started_at: null,
  end_at: null,
  is_active: 1,
  on_delay_s: 0,
  off_delay_s: 0,
  hysteresis: 0,
  created_by: null,
  created_at: now,
  updated_at: now,
}));
for (let i = 0; i < ruleRows.length; i += 200)
  await ctx.db
    .insertInto('custom_alarms')
    .values(ruleRows.slice(i, i + 200))
    .execute();
const probeRule = await ctx.db
  .insertInto('custom_alarms')
  .values({ ...ruleRows[0]!, tag_id: probe, name: 'probe', value: 100 })
  .returning('id')
  .executeTakeFirstOrThrow();

// The app's engine, started here so that it has read the rules before the clock runs.
const engine = ctx.alarmEngine;
await engine.start({ log: silent });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const token = await benchAdminToken(ctx);
console.log(
  `bench:alarms ${SECONDS} s, ${engine.stats().rules} rules, target ${RATE} points/s; ${process.env.DATABASE_URL ? 'postgres' : 'sqlite'}; Node ${process.version}; RSS ${rssMiB()} MiB`,
);

// The SSE client.
const waiters = new Map<string, (at: number) => void>();
const abort = new AbortController();
const sse = await fetch(`${address}/api/stream`, {
  headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  signal: abort.signal,
});
void (async () => {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of sse.body! as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.startsWith('event: alarm')) continue;
        const event = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as AlarmEvent;
        waiters.get(`${event.kind}:${event.alarm.rule_id}`)?.(performance.now());
      }
    }
  } catch {
    // aborted
  }
})();

const post = async (points: { signal_id: number; ts: number; value: number }[], key: string) => {
  const res = await fetch(`${address}/api/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ points }),
  });
  await res.arrayBuffer();
  return res.status;
};

// Background ingest: every 100 ms a batch of RATE/10 points over the non-probe signals, one plant key each.
let stop = false;
let ingested = 0;
let errors = 0;
let clock = Date.now() - 3_600_000;
const perTick = Math.round(RATE / 10);
const backgroundLoop = (async () => {
  let n = 0;
  while (!stop) {
    const started = performance.now();
    const plant = plants[n++ % plants.length]!;
    const signals = plant.signals.filter((s) => s !== probe);
    const points: { signal_id: number; ts: number; value: number }[] = [];
    while (points.length < perTick) {
      const ts = clock++;
      for (const signal_id of signals) points.push({ signal_id, ts, value: Math.random() * 100 });
    }
    const status = await post(points, plant.key);
    if (status === 200) ingested += points.length;
    else errors++;
    const wait = 100 - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
})();

// Probes: a violating point on the probe signal, then a clearing one; latency to the pushed `raised`.
const probePlant = plants.find((p) => p.signals.includes(probe))!;
const latencies: number[] = [];
const t0 = performance.now();
const deadline = Date.now() + SECONDS * 1000;
let probeTs = Date.now() - 1_800_000;
while (Date.now() < deadline) {
  for (const [kind, value] of [
    ['raised', 200],
    ['cleared', 0],
  ] as const) {
    const arrived = new Promise<number>((resolve) => waiters.set(`${kind}:${probeRule.id}`, resolve));
    const sent = performance.now();
    await post([{ signal_id: probe, ts: probeTs++, value }], probePlant.key);
    const at = await Promise.race([arrived, new Promise<number>((r) => setTimeout(() => r(NaN), 10_000))]);
    if (kind === 'raised') latencies.push(at - sent);
  }
  await new Promise((r) => setTimeout(r, 200));
}
const elapsed = (performance.now() - t0) / 1000;
stop = true;
await backgroundLoop;
const ok = latencies.filter((l) => Number.isFinite(l)).sort((a, b) => a - b);
const stored = await ctx.db
  .selectFrom('alarms')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('rule_id', '=', probeRule.id)
  .executeTakeFirstOrThrow();
console.log(
  `[http→stored→SSE] ${ok.length} probes (${latencies.length - ok.length} timed out), p50 ${pct(ok, 50).toFixed(1)} ms, p95 ${pct(ok, 95).toFixed(1)} ms, max ${ok[ok.length - 1]?.toFixed(1)} ms; alarms stored for the probe rule: ${Number(stored.n)}`,
);
recordLatencies('alarms', 'http_stored_sse', ok, { params: { rules: RULES, rate: RATE, seconds: SECONDS } });
recordFigure({
  bench: 'alarms',
  name: 'probes_timed_out',
  value: latencies.length - ok.length,
  unit: 'probes',
  params: { rules: RULES, rate: RATE, seconds: SECONDS },
  aim: { op: '<=', value: 0 },
});
console.log(
  `[background ingest] ${ingested} points in ${elapsed.toFixed(1)} s = ${(ingested / elapsed).toFixed(0)} points/s (target ${RATE}); errors ${errors}; engine saw ${engine.stats().points} points; RSS ${rssMiB()} MiB`,
);
abort.abort();
await engine.stop();

// Evaluation cost: the real engine on a feed of its own (no HTTP, no database writes: nothing fires).
let feed: ((points: readonly StoredPoint[]) => void) | undefined;
const bare = createAlarmEngine(
  {
    db: ctx.db,
    now: () => Date.now(),
    telemetry: { onStored: (l) => ((feed = l), () => undefined) },
    publisher: SILENT_PUBLISHER,
  },
  { tickMs: 3_600_000 },
);
await bare.start({ log: silent });
const ruleSignals = ruleRows.map((r) => r.tag_id);
const signalInfo = new Map<number, { plant: number }>();
plants.forEach((p, i) => p.signals.forEach((s) => signalInfo.set(s, { plant: i })));
const BATCH = 10_000;
const batches = Array.from({ length: 20 }, (_, b) =>
  Array.from({ length: BATCH }, (_, i) => {
    const signal_id = ruleSignals[(b * BATCH + i) % ruleSignals.length]!;
    return { signal_id, ts: now + b * BATCH + i, value: (i % 100) + 0.5, device_id: 0, plant_id: 0 };
  }),
);
const before = bare.stats();
const e0 = performance.now();
for (let round = 0; round < 5; round++) for (const batch of batches) feed!(batch);
const spent = (performance.now() - e0) / 1000;
const after = bare.stats();
const pts = after.points - before.points;
const evals = after.evaluations - before.evaluations;
recordFigure({
  bench: 'alarms',
  name: 'rule_evaluations_per_s_one_rule_per_signal',
  value: Math.round(evals / spent),
  unit: 'evaluations/s',
  params: { rules: ruleSignals.length },
});
console.log(
  `[evaluation, one core] ${pts} points over ${ruleSignals.length} rules (one rule per signal) in ${spent.toFixed(2)} s = ${(pts / spent).toFixed(0)} points/s, ${(evals / spent).toFixed(0)} rule evaluations/s`,
);
// Every rule on one signal: each point judges all of them.
await ctx.db.updateTable('custom_alarms').set({ tag_id: ruleSignals[0]! }).execute();
await bare.reloadRules();
const hot = Array.from({ length: 2_000 }, (_, i) => ({
  signal_id: ruleSignals[0]!,
  ts: now + 10_000_000 + i,
  value: 1,
  device_id: 0,
  plant_id: 0,
}));
const h0 = performance.now();
const e1 = bare.stats().evaluations;
feed!(hot);
const hs = (performance.now() - h0) / 1000;
console.log(
  `[evaluation, one core] ${hot.length} points × ${bare.stats().rules} rules on one signal in ${hs.toFixed(2)} s = ${((bare.stats().evaluations - e1) / hs).toFixed(0)} rule evaluations/s`,
);
await bare.stop();
await app.close();
await dispose();
