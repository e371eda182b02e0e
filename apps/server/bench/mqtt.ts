/**
 * bench:mqtt — MQTT to the database, acknowledged after commit, through the collector the server runs
 * (shared subscription over several connections, many messages per transaction). A separate process
 * publishes BENCH_MESSAGES QoS 1 messages as fast as the broker takes them; the figure is the points
 * committed per second from the first message received to the last one stored. SQLite, then PostgreSQL
 * when DATABASE_URL is set; with 10 values per message and with 1. Prints figures; asserts nothing.
 *   BENCH_MESSAGES (20000)  BENCH_CONNECTIONS (16, each holding up to 100 messages)  BENCH_VALUES (10,1)
 *   BENCH_PLANTS (10, of 10 inverters each)
 *   BENCH_MQTT_URL (unset: a Mosquitto of its own with
 *   .ci/mosquitto.conf, whose queues hold the whole burst; the machine's default broker would drop)
 *   BENCH_PHASE_SECONDS (180) per setup phase, BENCH_STALL_SECONDS (60) without a point stored: past either,
 *   the run fails with what it waited for (phases.ts) instead of waiting for good.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMqttCollector } from '../src/collectors/mqtt/mqtt-collector';
import { startOwnMosquitto } from '../src/test/mosquitto';
import { recordFigure } from './report';
import { phase, runBench, waitWithProgress } from './phases';
import { benchApp, rssMiB, seedPlants } from './setup';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const VALUES = (process.env.BENCH_VALUES ?? '10,1').split(',').map(Number);
// 10 plants of 10 inverters: a batch holds about 15 messages per device. 200 plants: about one, as in a
// large fleet where every signal has one point per transaction.
const PLANTS = Number(process.env.BENCH_PLANTS ?? 10);
const INVERTERS = 10;

const log = {
  debug: () => undefined,
  info: () => undefined,
  warn: (o: unknown, m?: string) => console.warn('warn', m, o),
  error: (o: unknown, m?: string) => console.error('error', m, o),
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Load generators still running: a failed run ends them, or they would outlive it. */
const loadChildren = new Set<ReturnType<typeof fork>>();

/** Runs the load generator in its own process; resolves with what it printed. */
function publishInChild(job: object): Promise<{ published: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    // Through a file: the job of a large fleet is too long for an argument (E2BIG).
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'bench-mqtt-')), 'job.json');
    writeFileSync(file, JSON.stringify(job));
    const child = fork(fileURLToPath(new URL('./mqtt-load.ts', import.meta.url)), [file], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    loadChildren.add(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      loadChildren.delete(child);
      if (code === 0) resolve(JSON.parse(out.trim()) as never);
      else reject(new Error(`the load generator exited ${code}`));
    });
  });
}

async function run(url: string, label: string, values: number, databaseUrl?: string) {
  const step = `[${label}, ${values} value(s)]`;
  const { app, ctx, dispose } = await phase(`${step} building the app`, () => benchApp(databaseUrl));
  await phase(`${step} seeding the plants`, () => seedPlants(ctx.db, PLANTS, INVERTERS, values));
  const devices = await ctx.db.selectFrom('devices').select(['id', 'plant_id']).orderBy('id').execute();
  const keys = Array.from({ length: values }, (_, s) =>
    s === 0 ? 'total_energy' : s === 1 ? 'ac_power' : `sig_${s}`,
  );
  const root = `b${randomBytes(4).toString('hex')}`;
  const id = `bench-${randomBytes(3).toString('hex')}`;
  const collector = startMqttCollector(ctx, log, {
    url,
    clientId: id,
    shareGroup: id,
    connections: CONNECTIONS,
    sessionExpiryS: 300,
    topicRoot: root,
  });
  await phase(`${step} connecting and subscribing the collector to ${url}`, () => collector.ready());
  const expected = MESSAGES * values;
  let firstAt = 0;
  const watch = setInterval(() => {
    if (!firstAt && collector.stats().received > 0) firstAt = performance.now();
  }, 1);
  const loadStart = performance.now();
  const published = publishInChild({
    url,
    root,
    devices: devices.map((d) => ({ plantId: d.plant_id, deviceId: d.id, keys })),
    messages: MESSAGES,
    // Two days back: inside raw retention, and every message a new point.
    startTs: Date.now() - 2 * 86_400_000,
    window: 500,
  });
  try {
    await waitWithProgress({
      name: `${step} storing ${expected} points`,
      progress: () => collector.stats().stored + collector.stats().received,
      done: () => collector.stats().stored >= expected,
      describe: () => `collector ${JSON.stringify(collector.stats())}`,
      failed: published,
    });
  } finally {
    clearInterval(watch);
  }
  const end = performance.now();
  const sent = await phase(`${step} the load generator's end`, () => published);
  const s = collector.stats();
  const seconds = (end - (firstAt || loadStart)) / 1000;
  console.log(
    `[${label}] ${values} value(s)/message: ${s.stored} points, ${s.received} messages in ${seconds.toFixed(2)} s = ` +
      `${(s.stored / seconds).toFixed(0)} points/s, ${(s.received / seconds).toFixed(0)} messages/s; ` +
      `${s.batches} transactions (${(s.received / s.batches).toFixed(1)} messages each); duplicates ${s.duplicates}; ` +
      `publisher ${sent.seconds.toFixed(2)} s; RSS ${rssMiB()} MiB; load average ${load()}`,
  );
  const params = { messages: MESSAGES, connections: CONNECTIONS, values, devices: PLANTS * INVERTERS };
  const database = label === 'postgres' ? 'postgres' : 'sqlite';
  // Aims: 10 values a message, 50,000 points/s on SQLite and 30,000 on PostgreSQL; 1 value, 5,000 messages/s.
  const pointsAim = values >= 10 ? (database === 'postgres' ? 30_000 : 50_000) : undefined;
  recordFigure({
    bench: 'mqtt',
    database,
    name: `${database}_${values}_values_points_per_s`,
    value: Math.round(s.stored / seconds),
    unit: 'points/s',
    params,
    ...(pointsAim ? { aim: { op: '>=' as const, value: pointsAim } } : {}),
  });
  recordFigure({
    bench: 'mqtt',
    database,
    name: `${database}_${values}_values_messages_per_s`,
    value: Math.round(s.received / seconds),
    unit: 'messages/s',
    params,
    ...(values === 1 ? { aim: { op: '>=' as const, value: 5_000 } } : {}),
  });
  await phase(`${step} stopping the collector and the app`, async () => {
    await collector.stop();
    await app.close();
    await dispose();
  });
  return { label, values, pointsPerS: s.stored / seconds, messagesPerS: s.received / seconds };
}

let own: Awaited<ReturnType<typeof startOwnMosquitto>> | undefined;
await runBench(
  'bench:mqtt',
  async () => {
    own = process.env.BENCH_MQTT_URL ? undefined : await startOwnMosquitto();
    const url = process.env.BENCH_MQTT_URL ?? own!.url;
    console.log(
      `bench:mqtt ${MESSAGES} messages over ${PLANTS * INVERTERS} devices, ${CONNECTIONS} connections, broker ${url}` +
        `${own ? ' (own, .ci/mosquitto.conf)' : ''}; Node ${process.version}; load average ${load()}`,
    );
    for (const values of VALUES) {
      await run(url, 'sqlite', values);
      if (process.env.DATABASE_URL) await run(url, 'postgres', values, process.env.DATABASE_URL);
    }
  },
  async () => {
    for (const child of loadChildren) child.kill('SIGKILL');
    await own?.stop();
  },
);
