/**
 * One load-generating process of bench:ingest (forked by ingest.ts): builds its JSON bodies before the
 * start signal, so that neither building nor serialising a body runs in the server's process or while it
 * is measured, then posts them one at a time and reports latencies and stored counts to the parent.
 */
import { Agent, request } from 'node:http';
import { batchOf } from './ingest-batches';

export interface ClientTask {
  address: string;
  plants: { key: string; signals: number[] }[];
  startMs: number;
  steps: number;
  /** The batch numbers n this client posts: plant n % plants, window floor(n / plants). */
  batches: number[];
  /**
   * A timed run instead (the memory check): post batches first, first + stride, … for this many seconds,
   * each body built just before it is posted (bodies for ten minutes would not fit in memory).
   */
  timed?: { seconds: number; first: number; stride: number };
}

export interface ClientResult {
  points: number;
  errors: number;
  latenciesMs: number[];
  firstError?: string;
}

function bodyOf(task: ClientTask, n: number) {
  const plant = task.plants[n % task.plants.length]!;
  const rows = batchOf(plant.signals, Math.floor(n / task.plants.length), task.startMs, task.steps);
  return { key: plant.key, body: Buffer.from(JSON.stringify({ points: rows })) };
}

/** The bodies to post: built up front, or one by one until the time is up. */
function* bodiesOf(task: ClientTask, prebuilt: { key: string; body: Buffer }[]) {
  if (!task.timed) return yield* prebuilt;
  const { seconds, first, stride } = task.timed;
  const deadline = performance.now() + seconds * 1000;
  for (let n = first; performance.now() < deadline; n += stride) yield bodyOf(task, n);
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One POST over the client's one kept-alive connection: node:http, lighter per request than fetch. */
function post(url: string, key: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-api-key': key },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(task: ClientTask): Promise<ClientResult> {
  const prebuilt = task.timed ? [] : task.batches.map((n) => bodyOf(task, n));
  process.send!({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const result: ClientResult = { points: 0, errors: 0, latenciesMs: [] };
  for (const { key, body } of bodiesOf(task, prebuilt)) {
    const started = performance.now();
    const res = await post(`${task.address}/api/telemetry`, key, body);
    const text = res.text;
    result.latenciesMs.push(performance.now() - started);
    if (res.status === 200) result.points += (JSON.parse(text) as { stored: number }).stored;
    else {
      result.errors++;
      result.firstError ??= `${res.status} ${text.slice(0, 200)}`;
    }
  }
  return result;
}

process.once('message', (task: ClientTask) => {
  void run(task).then((result) => {
    process.send!({ type: 'done', result }, () => process.exit(0));
  });
});
