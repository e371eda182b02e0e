import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessUploadReadingSlots, RedisUploadReadingSlots, type SlotRedis } from './upload-reading-slots';

/**
 * The upload reading slots on a real Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379; skipped, saying
 * so, when none answers): shared by every app that uses the same Redis and namespace, given back on
 * release, and expired when their holder never gives them back (a node that crashed while reading).
 * The proof across two server nodes is in cluster/two-nodes.test.ts.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const client = createClient({ url: REDIS_URL, socket: { reconnectStrategy: false, connectTimeout: 2000 } });
client.on('error', () => undefined);
const redisAnswers = await client.connect().then(
  () => true,
  () => false,
);
if (!redisAnswers) console.warn(`upload reading slots on Redis skipped: no Redis answers at ${REDIS_URL}`);

const redis: SlotRedis = {
  evalScript: (script, keys, args) => client.eval(script, { keys, arguments: args }),
};
const limits = { total: 2, perUser: 1 };

describe.skipIf(!redisAnswers)('upload reading slots on Redis', () => {
  let namespace: string;
  beforeAll(() => {
    namespace = `test-${randomUUID()}`;
  });
  afterAll(async () => {
    await client.quit();
  });

  it('shares two slots, one per user, between two apps on one Redis, and gives them back', async () => {
    const nodeA = new RedisUploadReadingSlots(redis, { namespace, ttlMs: 30_000, limits });
    const nodeB = new RedisUploadReadingSlots(redis, { namespace, ttlMs: 30_000, limits });
    const first = await nodeA.take(1);
    expect(first).toBeDefined();
    // The same user on the other node: one per user, whichever node.
    expect(await nodeB.take(1)).toBeUndefined();
    const second = await nodeB.take(2);
    expect(second).toBeDefined();
    // Two in all, across both.
    expect(await nodeA.take(3)).toBeUndefined();
    await first!();
    await first!();
    const third = await nodeA.take(3);
    expect(third).toBeDefined();
    expect(await nodeB.take(4)).toBeUndefined();
    await Promise.all([second!(), third!()]);
    expect(await nodeB.take(1)).toBeDefined();
  });

  it('frees the slots of a node that never gave them back once they expire', async () => {
    const crashed = new RedisUploadReadingSlots(redis, {
      namespace: `${namespace}-crash`,
      ttlMs: 400,
      limits,
    });
    expect(await crashed.take(1)).toBeDefined();
    expect(await crashed.take(2)).toBeDefined();
    const survivor = new RedisUploadReadingSlots(redis, {
      namespace: `${namespace}-crash`,
      ttlMs: 400,
      limits,
    });
    expect(await survivor.take(3)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await survivor.take(3)).toBeDefined();
  });

  it("falls back to the process's own slots while Redis cannot be reached", async () => {
    const errors: unknown[] = [];
    const down: SlotRedis = { evalScript: () => Promise.reject(new Error('connection refused')) };
    const slots = new RedisUploadReadingSlots(down, {
      namespace,
      ttlMs: 30_000,
      limits,
      onRedisError: (e) => errors.push(e),
    });
    expect(await slots.take(1)).toBeDefined();
    expect(await slots.take(1)).toBeUndefined();
    expect(errors).toHaveLength(2);
  });
});

describe('upload reading slots in one process', () => {
  it('gives two slots, one per user, and takes them back once each', async () => {
    const slots = new ProcessUploadReadingSlots(limits);
    const first = await slots.take(1);
    expect(await slots.take(1)).toBeUndefined();
    const second = await slots.take(2);
    expect(await slots.take(3)).toBeUndefined();
    await first!();
    await first!();
    expect(await slots.take(3)).toBeDefined();
    expect(await slots.take(4)).toBeUndefined();
    await second!();
  });
});
