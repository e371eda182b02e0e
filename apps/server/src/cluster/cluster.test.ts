import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { sql } from 'kysely';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, dialectUnderTest, TEST_DATABASE_URL, type TestApp } from '../test/test-app';
import {
  NOTIFY_PART_BYTES,
  PartAssembler,
  clusterChannel,
  createPostgresBus,
  createRedisBus,
  listenerApplicationName,
  notifyPayloads,
  redisSubscriberName,
  type ClusterBus,
} from './cluster-bus';
import { acquireLease, createLease, readLease, releaseLease } from './lease';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
/**
 * Node ids are unique to this run: other suites on the same PostgreSQL and Redis (two-nodes.test.ts runs
 * beside this file) start nodes called node-b too, and the cut below finds its listener by name.
 */
const run = randomBytes(4).toString('hex');

const redisAnswers = () =>
  new Promise<boolean>((resolve) => {
    const url = new URL(REDIS_URL);
    const socket = createConnection({ host: url.hostname, port: Number(url.port || 6379) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('cluster bus messages', () => {
  it('splits a message longer than a NOTIFY payload into parts under the limit and puts them back', () => {
    const data = Array.from({ length: 3000 }, (_, i) => [i, 7, 9, 1_764_000_000_000 + i, i * 1.5]);
    const envelope = { n: 'node-a', t: 'points' as const, d: { data, text: 'Işık Štip Свети Николе "\\' } };
    const payloads = notifyPayloads(envelope);
    expect(payloads.length).toBeGreaterThan(5);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(NOTIFY_PART_BYTES);
    const assembler = new PartAssembler();
    // Parts of two messages interleaved, in any order: each whole once its last part arrives.
    const other = notifyPayloads({ ...envelope, n: 'node-b' });
    const results = [...payloads].reverse().flatMap((p, i) => {
      const out = [assembler.accept(p)];
      if (other[i]) out.push(assembler.accept(other[i]));
      return out.filter((e) => e !== undefined);
    });
    expect(results.map((e) => e.n).sort()).toEqual(['node-a', 'node-b']);
    expect(results.find((e) => e.n === 'node-a')).toEqual(envelope);
  });

  it('keeps short messages whole and names one channel per schema', () => {
    expect(notifyPayloads({ n: 'a', t: 'rules', d: null })).toEqual(['{"n":"a","t":"rules","d":null}']);
    expect(clusterChannel('t_abc')).toBe('solar_cluster_t_abc');
    expect(clusterChannel('x'.repeat(63))).toMatch(/^solar_cluster_[0-9a-f]{40}$/);
  });
});

/** Two buses of one deployment and one of another: what each hears. */
async function crossTalk(make: (nodeId: string, schema: string) => ClusterBus) {
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const a = make('node-a', schema);
  const b = make('node-b', schema);
  const stranger = make('node-c', `${schema}_other`);
  try {
    await Promise.all([a.ready(), b.ready(), stranger.ready()]);
    const heard = { a: [] as unknown[], b: [] as unknown[], stranger: [] as unknown[] };
    a.on('session', (d) => heard.a.push(d));
    b.on('session', (d) => heard.b.push(d));
    stranger.on('session', (d) => heard.stranger.push(d));
    const big = { kind: 'user', userId: 7, padding: 'x'.repeat(20_000) };
    // Published back to back, as a busy node does: they must arrive in this order.
    const burst = Array.from({ length: 40 }, (_, i) => ({ kind: 'user', userId: 100 + i }));
    const sent = [{ kind: 'role', roleId: 3 }, big, ...burst, big];
    for (const message of sent) a.publish('session', message);
    a.publish('rules', null);
    await vi.waitFor(() => expect(heard.b).toHaveLength(sent.length), { timeout: 5_000, interval: 20 });
    await new Promise((r) => setTimeout(r, 300));
    expect(heard.b).toEqual(sent);
    // No echo to the sender, nothing across deployments.
    expect(heard.a).toEqual([]);
    expect(heard.stranger).toEqual([]);
  } finally {
    await Promise.all([a.stop(), b.stop(), stranger.stop()]);
  }
}

describe.skipIf(!TEST_DATABASE_URL)('cluster bus on PostgreSQL LISTEN/NOTIFY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('delivers to the other nodes of the schema only, long messages in parts', async () => {
    await crossTalk((nodeId, schema) =>
      createPostgresBus({
        nodeId: `${nodeId}-${run}`,
        url: TEST_DATABASE_URL!,
        schema,
        log: quiet,
        async notify(channel, payloads) {
          await sql`select pg_notify(${channel}, p) from unnest(${payloads}::text[]) with ordinality as t(p, i) order by i`.execute(
            t.ctx.db,
          );
        },
      }),
    );
  });
});

/**
 * A listener cut off by the server: what is published while it is away is lost (neither PostgreSQL nor
 * Redis keeps it), so the bus must come back by itself and call its resync handlers; later messages
 * arrive again. `cut` ends node-b's listening connection on the server side and resolves once it is gone.
 */
async function resyncAfterCut(
  make: (nodeId: string, schema: string) => ClusterBus,
  cut: (nodeId: string) => Promise<void>,
) {
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const a = make('node-a', schema);
  const b = make('node-b', schema);
  try {
    await Promise.all([a.ready(), b.ready()]);
    const heard: unknown[] = [];
    let resyncs = 0;
    b.on('session', (d) => heard.push(d));
    b.onResync(() => resyncs++);
    a.publish('session', { kind: 'user', userId: 1 });
    await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(resyncs).toBe(0);
    await cut('node-b');
    // Published in the gap: no one listens for node-b now.
    a.publish('session', { kind: 'user', userId: 2 });
    await vi.waitFor(() => expect(resyncs).toBe(1), { timeout: 10_000, interval: 20 });
    a.publish('session', { kind: 'user', userId: 3 });
    await vi.waitFor(() => expect(heard).toContainEqual({ kind: 'user', userId: 3 }), {
      timeout: 5_000,
      interval: 20,
    });
    expect(resyncs).toBe(1);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

describe.skipIf(!TEST_DATABASE_URL)('cluster bus on PostgreSQL LISTEN/NOTIFY, connection cut', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('notices pg_terminate_backend on its listener, listens again and tells its subscribers to resync', async () => {
    const make = (nodeId: string, schema: string) =>
      createPostgresBus({
        nodeId: `${nodeId}-${run}`,
        url: TEST_DATABASE_URL!,
        schema,
        log: quiet,
        // A gap long enough that the message sent in it surely falls into it.
        retryMinMs: 1_000,
        async notify(channel, payloads) {
          await sql`select pg_notify(${channel}, p) from unnest(${payloads}::text[]) with ordinality as t(p, i) order by i`.execute(
            t.ctx.db,
          );
        },
      });
    const backends = async (nodeId: string) =>
      (
        await sql<{
          pid: number;
        }>`select pid from pg_stat_activity where application_name = ${listenerApplicationName(`${nodeId}-${run}`)}`.execute(
          t.ctx.db,
        )
      ).rows.map((r) => r.pid);
    await resyncAfterCut(make, async (nodeId) => {
      const pids = await backends(nodeId);
      expect(pids).toHaveLength(1);
      await sql`select pg_terminate_backend(${pids[0]!})`.execute(t.ctx.db);
      await vi.waitFor(async () => expect(await backends(nodeId)).toEqual([]), {
        timeout: 5_000,
        interval: 20,
      });
    });
  });
});

describe('cluster bus on Redis pub/sub', () => {
  it('delivers to the other nodes of the schema only', async (context) => {
    if (!(await redisAnswers())) context.skip(`no Redis at ${REDIS_URL}`);
    await crossTalk((nodeId, schema) => createRedisBus({ nodeId, url: REDIS_URL, schema, log: quiet }));
  });

  it('tells its subscribers to resync after its subscriber connection was killed', async (context) => {
    if (!(await redisAnswers())) context.skip(`no Redis at ${REDIS_URL}`);
    const admin = createClient({ url: REDIS_URL });
    await admin.connect();
    try {
      const subscriberIds = async (nodeId: string) =>
        (await admin.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
          .split('\n')
          .filter((line) => line.includes(` name=${redisSubscriberName(`${nodeId}-${run}`)} `))
          .map((line) => /\bid=(\d+)/.exec(line)![1]!);
      await resyncAfterCut(
        (nodeId, schema) =>
          createRedisBus({ nodeId: `${nodeId}-${run}`, url: REDIS_URL, schema, log: quiet }),
        async (nodeId) => {
          const ids = await subscriberIds(nodeId);
          expect(ids).toHaveLength(1);
          await admin.sendCommand(['CLIENT', 'KILL', 'ID', ids[0]!]);
        },
      );
    } finally {
      await admin.quit();
    }
  });
});

describe(`jobs lease (${dialectUnderTest})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is held by the app at start and shown in health', async () => {
    expect(t.ctx.lease.isHeld()).toBe(true);
    expect((await t.ctx.lease.holder())?.holder).toBe(t.ctx.config.cluster.nodeId);
  });

  it.skipIf(dialectUnderTest !== 'postgres')(
    'goes to one node at a time, to another once expired or released, counting holders',
    async () => {
      const db = t.ctx.db;
      const first = await acquireLease(db, 'test-lease', 'node-a', 600);
      expect(first).toMatchObject({ holder: 'node-a', generation: 1 });
      // Renewed by its holder, refused to the other while it runs.
      expect(await acquireLease(db, 'test-lease', 'node-a', 600)).toMatchObject({ generation: 1 });
      expect(await acquireLease(db, 'test-lease', 'node-b', 600)).toBeUndefined();
      // Twenty racing takers after expiry: exactly one wins.
      await new Promise((r) => setTimeout(r, 700));
      const race = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          acquireLease(db, 'test-lease', `node-${i % 2 ? 'b' : 'c'}`, 10_000),
        ),
      );
      const winners = new Set(race.filter((r) => r !== undefined).map((r) => r.holder));
      expect(winners.size).toBe(1);
      expect((await readLease(db, 'test-lease'))?.generation).toBe(2);
      const holder = [...winners][0]!;
      await releaseLease(db, 'test-lease', holder);
      expect(await acquireLease(db, 'test-lease', 'node-a', 600)).toMatchObject({
        holder: 'node-a',
        generation: 3,
      });
    },
  );

  it.skipIf(dialectUnderTest !== 'postgres')(
    'a second node takes the lease when the first stops, and tells its listeners',
    async () => {
      const make = (nodeId: string) =>
        createLease({
          db: t.ctx.db,
          dialect: 'postgres',
          name: 'test-handover',
          nodeId,
          log: quiet,
          ttlMs: 1_000,
          renewMs: 200,
        });
      const a = make('node-a');
      const b = make('node-b');
      const changes: string[] = [];
      b.onChange((held) => changes.push(`b:${held}`));
      await a.start();
      await b.start();
      expect(a.isHeld()).toBe(true);
      expect(b.isHeld()).toBe(false);
      await a.stop();
      await vi.waitFor(() => expect(b.isHeld()).toBe(true), { timeout: 3_000, interval: 20 });
      expect(changes).toEqual(['b:true']);
      await b.stop();
      expect(changes).toEqual(['b:true', 'b:false']);
    },
  );
});
