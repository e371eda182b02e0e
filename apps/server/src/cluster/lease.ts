import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database';

/** A lease is held this long after its last renewal. */
export const LEASE_TTL_MS = 10_000;
/** The holder renews this often; a node without the lease tries to take it as often. */
export const LEASE_RENEW_MS = 3_000;
/**
 * The holder stops its jobs when it could not renew for this long, before the lease expires for the
 * others (clocks of nodes and database may differ by a little).
 */
const LOCAL_MARGIN_MS = 2_000;

/** Who holds a lease, as the database says. */
export interface LeaseHolder {
  name: string;
  holder: string;
  /** Epoch ms. */
  expiresAt: number;
  acquiredAt: number;
  /** Grows by one at each change of holder. */
  generation: number;
}

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/**
 * One singleton role in the cluster (docs/operations.md, "Several nodes"): the node that holds it runs the
 * alarm engine, the scheduled reports, retention, the KPI refresh and the camera probe. Acquire and renew are
 * one atomic upsert in PostgreSQL; on SQLite (one node by construction) the lease is simply held by the one process.
 */
export interface Lease {
  readonly name: string;
  readonly nodeId: string;
  /** Whether this node holds the lease now. */
  isHeld(): boolean;
  /** Called with true when this node took the lease, false when it lost or released it. */
  onChange(listener: (held: boolean) => void): () => void;
  /** The holder as stored (on SQLite: this node). */
  holder(): Promise<LeaseHolder | undefined>;
  /** Tries to take the lease at once, then renews or retries every LEASE_RENEW_MS. */
  start(): Promise<void>;
  /** Stops renewing and releases the lease, so that another node takes it at once. */
  stop(): Promise<void>;
}

/** The database's clock in epoch ms (one clock for every node's leases). */
const dbNow = sql<number>`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`;

/**
 * Takes or renews the lease in one statement: it succeeds when the lease is free, expired, or already this
 * node's. Answers the stored row when this node holds it afterwards, undefined when another node does.
 */
export async function acquireLease(
  db: Db,
  name: string,
  nodeId: string,
  ttlMs: number,
): Promise<LeaseHolder | undefined> {
  const result = await sql<{ holder: string; expires_at: number; acquired_at: number; generation: number }>`
    insert into cluster_leases as l (name, holder, expires_at, acquired_at, generation)
    values (${name}, ${nodeId}, ${dbNow} + ${ttlMs}, ${dbNow}, 1)
    on conflict (name) do update set
      holder = excluded.holder,
      expires_at = excluded.expires_at,
      acquired_at = case when l.holder = excluded.holder then l.acquired_at else excluded.acquired_at end,
      generation = case when l.holder = excluded.holder then l.generation else l.generation + 1 end
    where l.holder = excluded.holder or l.expires_at < ${dbNow}
    returning holder, expires_at, acquired_at, generation`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    name,
    holder: row.holder,
    expiresAt: Number(row.expires_at),
    acquiredAt: Number(row.acquired_at),
    generation: Number(row.generation),
  };
}

/** Gives the lease up when this node holds it (a clean stop): it expires at once. */
export async function releaseLease(db: Db, name: string, nodeId: string): Promise<void> {
  await db
    .updateTable('cluster_leases')
    .set({ expires_at: 0 })
    .where('name', '=', name)
    .where('holder', '=', nodeId)
    .execute();
}

/** The stored holder of a lease. */
export async function readLease(db: Db, name: string): Promise<LeaseHolder | undefined> {
  const row = await db.selectFrom('cluster_leases').selectAll().where('name', '=', name).executeTakeFirst();
  return row
    ? {
        name,
        holder: row.holder,
        expiresAt: Number(row.expires_at),
        acquiredAt: Number(row.acquired_at),
        generation: Number(row.generation),
      }
    : undefined;
}

/** The lease `name` for this node: in the database on PostgreSQL, held by the one process on SQLite. */
export function createLease(deps: {
  db: Db;
  dialect: Dialect;
  name: string;
  nodeId: string;
  log: Log;
  ttlMs?: number;
  renewMs?: number;
}): Lease {
  const { db, name, nodeId } = deps;
  const ttlMs = deps.ttlMs ?? LEASE_TTL_MS;
  const renewMs = deps.renewMs ?? LEASE_RENEW_MS;
  const listeners = new Set<(held: boolean) => void>();
  let held = false;
  /** Local time until which a successful renewal lets this node act as the holder. */
  let heldUntil = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let attempt: Promise<void> = Promise.resolve();
  const startedAt = Date.now();

  const set = (next: boolean) => {
    if (next === held) return;
    held = next;
    deps.log.info({ lease: name, node: nodeId, held }, held ? 'cluster: lease taken' : 'cluster: lease lost');
    for (const listener of [...listeners]) listener(held);
  };

  const tryOnce = async () => {
    if (stopped) return;
    const sentAt = Date.now();
    try {
      const row = await acquireLease(db, name, nodeId, ttlMs);
      if (stopped) return;
      if (row) heldUntil = sentAt + ttlMs - Math.min(LOCAL_MARGIN_MS, ttlMs / 5);
      set(!!row);
    } catch (error) {
      deps.log.warn({ err: error, lease: name }, 'cluster: lease renewal failed');
      if (Date.now() >= heldUntil) set(false);
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      attempt = tryOnce().finally(schedule);
    }, renewMs);
    timer.unref();
  };

  if (deps.dialect === 'sqlite') {
    return {
      name,
      nodeId,
      isHeld: () => held,
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      holder: () =>
        Promise.resolve(
          held ? { name, holder: nodeId, expiresAt: 0, acquiredAt: startedAt, generation: 1 } : undefined,
        ),
      start() {
        stopped = false;
        set(true);
        return Promise.resolve();
      },
      stop() {
        stopped = true;
        set(false);
        return Promise.resolve();
      },
    };
  }

  return {
    name,
    nodeId,
    isHeld: () => held && Date.now() < heldUntil,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    holder: () => readLease(db, name),
    async start() {
      stopped = false;
      attempt = tryOnce();
      await attempt;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await attempt;
      const wasHeld = held;
      set(false);
      if (wasHeld) await releaseLease(db, name, nodeId).catch(() => undefined);
    },
  };
}

/** The lease of the singleton jobs (alarm engine, timers, reports, retention, KPI refresh, camera probe). */
export const JOBS_LEASE = 'jobs';

/** A job that runs only while this node holds a lease. */
export interface LeaderJob {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `job` whenever this node holds the lease and stops it when the node loses it, one transition at a
 * time. Resolves once the first state is applied (the job runs on return when the lease is held); `stop`
 * stops the job for good.
 */
export async function runWhileLeader(
  lease: Pick<Lease, 'isHeld' | 'onChange'>,
  log: { error(obj: object, msg: string): void },
  what: string,
  job: LeaderJob,
): Promise<{ stop(): Promise<void> }> {
  let running = false;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();
  const apply = () => {
    chain = chain
      .then(async () => {
        const want = !closed && lease.isHeld();
        if (want === running) return;
        if (want) await job.start();
        else await job.stop();
        running = want;
      })
      .catch((error: unknown) => log.error({ err: error, job: what }, 'cluster: job start or stop failed'));
    return chain;
  };
  const off = lease.onChange(() => void apply());
  await apply();
  return {
    async stop() {
      closed = true;
      off();
      await apply();
    },
  };
}
