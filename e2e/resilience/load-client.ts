/**
 * One load-generating process of the load suite (forked by load.resilience.test.ts, so that neither the
 * simulated users nor the ingest senders run in the server's process or the test's). Two kinds:
 * - `users`: simulated console users, each signed in with the session token it is handed, loading the plants
 *   overview, a plant's detail page and the alarms list, then polling them as the pages do;
 * - `ingest`: POST /api/telemetry batches at a target rate of points per second.
 * It reports latencies per call, error counts and the first errors to the parent.
 */
import { request as httpRequest, Agent } from 'node:http';

export interface UsersTask {
  kind: 'users';
  url: string;
  token: string;
  users: number;
  plantIds: number[];
  pollMs: number;
  durationMs: number;
}

export interface IngestTask {
  kind: 'ingest';
  url: string;
  targets: { key: string; signals: number[]; profiles: SignalProfile[] }[];
  pointsPerSecond: number;
  batchPoints: number;
  /** Timestamps of this process start here and step by one second per row set (unique per process). */
  startMs: number;
  durationMs: number;
}

export interface LoadResult {
  latencies: Record<string, number[]>;
  errors: number;
  requests: number;
  points: number;
  firstErrors: string[];
}

/**
 * What a signal carries, so that a load sends what devices send: a SunSpec status register stays at 4
 * (MPPT, producing), an event register at 0 (no event bit set), an energy counter rises, and every other
 * signal is a gauge. Random values in the status and event registers would make every inverter report a
 * new fault every second: an alarm storm, which is a scenario of its own, not a plant's normal day.
 */
export type SignalProfile = 'status' | 'events' | 'counter' | 'gauge';

/** The value a signal of `profile` sends at the `second`-th second of a load run. */
export function deviceValue(profile: SignalProfile, second: number): number {
  if (profile === 'status') return 4;
  if (profile === 'events') return 0;
  if (profile === 'counter') return 1000 + second * 0.01;
  // 0 … 0.99: inside the default validity bounds of every unit (kW, W/m², °C, V, A, %).
  return (second % 100) / 100;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One HTTP request; resolves with the status and body (never rejects: a network error is status 0). */
function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method, headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', (e) => resolve({ status: 0, body: String(e) }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    req.end(body);
  });
}

function record(result: LoadResult, name: string, ms: number, status: number, body: string) {
  (result.latencies[name] ??= []).push(ms);
  result.requests++;
  if (status < 200 || status >= 300) {
    result.errors++;
    if (result.firstErrors.length < 5) result.firstErrors.push(`${name}: ${status} ${body.slice(0, 200)}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runUsers(task: UsersTask): Promise<LoadResult> {
  const result: LoadResult = { latencies: {}, errors: 0, requests: 0, points: 0, firstErrors: [] };
  const headers = { authorization: `Bearer ${task.token}`, 'accept-language': 'tr-TR' };
  const end = Date.now() + task.durationMs;
  const get = async (name: string, path: string) => {
    const started = performance.now();
    const res = await call(`${task.url}/api/${path}`, 'GET', headers);
    record(result, name, performance.now() - started, res.status, res.body);
  };
  const today = new Date().toISOString().slice(0, 10);
  const year = today.slice(0, 4);
  const user = async (n: number) => {
    // Users arrive spread over the first poll interval, each on a plant of its own.
    await sleep(Math.random() * Math.min(task.pollMs, task.durationMs / 4));
    const plant = task.plantIds[n % task.plantIds.length]!;
    while (Date.now() < end) {
      // The plants page (its live overview), a plant's detail page (plant-detail-page.tsx: overview, the
      // day's, month's and year's KPIs, power, the plant's catalog), its devices' status, the alarms pages.
      await Promise.all([
        get('plants/overview', 'plants/overview'),
        get('plants/:id/kpis?period=day', `plants/${plant}/kpis?period=day&date=${today}`),
        get('plants/:id/kpis?period=month', `plants/${plant}/kpis?period=month&date=${today}`),
        get('plants/:id/kpis?period=year', `plants/${plant}/kpis?period=year&date=${year}-01-01`),
        get('plants/:id/power', `plants/${plant}/power?date=${today}`),
        get('telemetry/catalog?plant_id', `telemetry/catalog?plant_id=${plant}`),
        get('plants/:id/devices/status', `plants/${plant}/devices/status`),
        get('alarms/:id/plant', `alarms/${plant}/plant`),
        get('alarms', 'alarms'),
      ]);
      await sleep(task.pollMs * (0.9 + Math.random() * 0.2));
    }
  };
  await Promise.all(Array.from({ length: task.users }, (_, n) => user(n)));
  return result;
}

async function runIngest(task: IngestTask): Promise<LoadResult> {
  const result: LoadResult = { latencies: {}, errors: 0, requests: 0, points: 0, firstErrors: [] };
  const end = Date.now() + task.durationMs;
  const batchesPerSecond = task.pointsPerSecond / task.batchPoints;
  const intervalMs = 1000 / batchesPerSecond;
  let second = 0;
  let next = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; Date.now() < end; n++) {
    const target = task.targets[n % task.targets.length]!;
    const rows: { signal_id: number; ts: number; value: number }[] = [];
    while (rows.length < task.batchPoints) {
      const ts = task.startMs + second++ * 1000;
      for (let i = 0; i < target.signals.length && rows.length < task.batchPoints; i++)
        rows.push({ signal_id: target.signals[i]!, ts, value: deviceValue(target.profiles[i]!, second) });
    }
    const body = JSON.stringify({ points: rows });
    const started = performance.now();
    const p = call(
      `${task.url}/api/telemetry`,
      'POST',
      { 'content-type': 'application/json', 'x-api-key': target.key },
      body,
    ).then((res) => {
      record(result, 'POST telemetry', performance.now() - started, res.status, res.body);
      if (res.status === 200) result.points += (JSON.parse(res.body) as { stored: number }).stored;
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    // Open loop at the target rate, but never more than 64 batches outstanding (a slow server slows us).
    while (inFlight.size >= 64) await Promise.race(inFlight);
    next += intervalMs;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
  return result;
}

// Loaded and compiled: the parent starts every process's task only once all have said so, so that no
// client's start-up (a Node process compiling this file through tsx) competes with the measured calls.
process.send!('ready');
process.once('message', (task: UsersTask | IngestTask) => {
  void (task.kind === 'users' ? runUsers(task) : runIngest(task)).then((result) => {
    process.send!(result, () => process.exit(0));
  });
});
