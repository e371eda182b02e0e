import { randomUUID } from 'node:crypto';
import { BUDGET_IMPORT_CONCURRENCY, BUDGET_READER_THREAD } from './budget-file-limits';

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => Promise<void>;

/**
 * Upload reading slots: how many uploaded files (budget files and history-import files alike) are being
 * read at once, in all and per user (BUDGET_IMPORT_CONCURRENCY): each one holds a reader thread, so a burst of uploads is refused (429) rather than queued in memory. Built once
 * per app (context.ts): across the nodes of a cluster on Redis, else in the process (docs/security.md,
 * "Uploads").
 */
export interface UploadReadingSlots {
  /** A slot for the user, with the function that gives it back; undefined when none is free. */
  take(userId: number): Promise<ReleaseSlot | undefined>;
}

interface Limits {
  total: number;
  perUser: number;
}

/** The slots of one process: enough for one node (SQLite, or a node without Redis). */
export class ProcessUploadReadingSlots implements UploadReadingSlots {
  private total = 0;
  private readonly byUser = new Map<number, number>();

  constructor(private readonly limits: Limits = BUDGET_IMPORT_CONCURRENCY) {}

  take(userId: number): Promise<ReleaseSlot | undefined> {
    const mine = this.byUser.get(userId) ?? 0;
    if (this.total >= this.limits.total || mine >= this.limits.perUser) return Promise.resolve(undefined);
    this.total++;
    this.byUser.set(userId, mine + 1);
    let given = false;
    return Promise.resolve(() => {
      if (given) return Promise.resolve();
      given = true;
      this.total--;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
      return Promise.resolve();
    });
  }
}

/** The Redis commands the shared slots need: the cluster bus's connection (ClusterBus.redis). */
export interface SlotRedis {
  evalScript(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/**
 * Takes a slot atomically: expired slots (a node that crashed while reading) leave first, then the slot is
 * added to the deployment's set and the user's set if both have room. Scores are expiry times on Redis's own
 * clock, so nodes' clocks need not agree. KEYS: all, user. ARGV: slot id, ttl ms, total, per user.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return 0
end
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1`;

/** KEYS: all, user. ARGV: slot id. */
const RELEASE_SCRIPT = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

/**
 * The slots of every node sharing one Redis (REDIS_URL): two sorted sets per deployment (its schema names
 * them), the whole one and the user's, each slot scored with its expiry. A slot is given back when the
 * import answers, read or refused; a node that dies while reading leaves its slot until it expires
 * (`ttlMs`, longer than a reader thread may run). When Redis cannot be reached the process's own slots
 * answer instead, so that imports keep their per-node limit rather than failing.
 */
export class RedisUploadReadingSlots implements UploadReadingSlots {
  private readonly fallback: ProcessUploadReadingSlots;

  constructor(
    private readonly redis: SlotRedis,
    private readonly options: {
      /** Keeps deployments apart on one Redis: the database schema. */
      namespace: string;
      ttlMs: number;
      limits?: Limits;
      onRedisError?: (error: unknown) => void;
    },
  ) {
    this.fallback = new ProcessUploadReadingSlots(options.limits);
  }

  async take(userId: number): Promise<ReleaseSlot | undefined> {
    const { total, perUser } = this.options.limits ?? BUDGET_IMPORT_CONCURRENCY;
    const keys = [
      `solar:budget-import:${this.options.namespace}`,
      `solar:budget-import:${this.options.namespace}:user:${userId}`,
    ];
    const slot = randomUUID();
    let taken: unknown;
    try {
      taken = await this.redis.evalScript(TAKE_SCRIPT, keys, [
        slot,
        String(this.options.ttlMs),
        String(total),
        String(perUser),
      ]);
    } catch (error) {
      this.options.onRedisError?.(error);
      return this.fallback.take(userId);
    }
    if (Number(taken) !== 1) return undefined;
    let given = false;
    return async () => {
      if (given) return;
      given = true;
      // A slot Redis did not hear given back expires on its own.
      await this.redis.evalScript(RELEASE_SCRIPT, keys, [slot]).catch(this.options.onRedisError);
    };
  }
}

/**
 * A slot outlives the longest read by this much before it counts as left by a crashed node: the thread's
 * deadline covers the read, the rest the answer's way back.
 */
const SLOT_TTL_MS = 3 * BUDGET_READER_THREAD.timeoutMs;

/** The app's slots: on the cluster bus's Redis when it has one (REDIS_URL), else the process's. */
export function createUploadReadingSlots(
  redis: SlotRedis | undefined,
  namespace: string,
  onRedisError: (error: unknown) => void,
): UploadReadingSlots {
  if (!redis) return new ProcessUploadReadingSlots();
  return new RedisUploadReadingSlots(redis, { namespace, ttlMs: SLOT_TTL_MS, onRedisError });
}
