import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';

/**
 * What server nodes tell each other (docs/operations.md, "Several nodes"). Every message is small and names
 * what changed; each node then acts for its own connections and state.
 * - `points`: telemetry another node stored (compact rows), for its SSE clients' latest values and the
 *   alarm engine on the lease holder;
 * - `plant-event`: an event for the SSE clients allowed to see a plant (alarm events);
 * - `session`: a user's or role's reach changed (lib/session-events.ts);
 * - `settings`: the system settings were saved; `rules`: the custom alarm rules changed.
 */
export type ClusterTopic = 'points' | 'plant-event' | 'session' | 'settings' | 'rules';

/** The other nodes, as one publish/subscribe bus; a node never hears its own messages. */
export interface ClusterBus {
  readonly nodeId: string;
  readonly transport: 'local' | 'postgres' | 'redis';
  /** Sends to every other node; never throws (a lost message is logged; periodic checks catch up). */
  publish(topic: ClusterTopic, data: unknown): void;
  /** Adds a handler for what other nodes publish on `topic`; answers the function that removes it. */
  on(topic: ClusterTopic, handler: (data: unknown) => void): () => void;
  /**
   * Adds a handler called when the bus listens again after its connection dropped: what other nodes
   * published meanwhile is lost, so each listener re-reads what it keeps from the database (the stream
   * tells its clients to resync, the settings and rules are reloaded). Answers the function that removes it.
   */
  onResync(handler: () => void): () => void;
  /** Resolves once the bus listens (at once for the local bus). */
  ready(): Promise<void>;
  /**
   * The Redis bus's command connection, for state the nodes share atomically (the upload reading slots);
   * absent on the other buses.
   */
  readonly redis?: RedisScripts;
  stop(): Promise<void>;
}

/** Runs a Lua script on Redis (EVAL): one atomic step however many nodes call it. */
export interface RedisScripts {
  evalScript(script: string, keys: string[], args: string[]): Promise<unknown>;
}

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

interface Envelope {
  /** Sending node. */
  n: string;
  t: ClusterTopic;
  d: unknown;
}

/** One part of a message too long for one NOTIFY: message id, index, count and a slice of its JSON. */
interface Part {
  n: string;
  p: [string, number, number];
  s: string;
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: longer messages are sent in parts below it. */
export const NOTIFY_PART_BYTES = 7000;

/** At most this many payloads go in one NOTIFY statement; a longer queue leaves in several, in order. */
export const NOTIFY_BATCH_PAYLOADS = 500;

/** The channel of one deployment: its schema is part of it, so parallel test schemas never hear each other. */
export function clusterChannel(schema: string): string {
  const name = `solar_cluster_${schema}`;
  return name.length <= 63 ? name : `solar_cluster_${createHash('sha1').update(schema).digest('hex')}`;
}

/** Routes received envelopes to the handlers of their topic, dropping the node's own. */
class Handlers {
  private readonly byTopic = new Map<ClusterTopic, Set<(data: unknown) => void>>();
  constructor(
    private readonly nodeId: string,
    private readonly log: Log,
  ) {}

  on(topic: ClusterTopic, handler: (data: unknown) => void): () => void {
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  private readonly resyncs = new Set<() => void>();

  onResync(handler: () => void): () => void {
    this.resyncs.add(handler);
    return () => this.resyncs.delete(handler);
  }

  resync(): void {
    for (const handler of this.resyncs) {
      try {
        handler();
      } catch (error) {
        this.log.error({ err: error }, 'cluster: resync handler failed');
      }
    }
  }

  deliver(envelope: Envelope): void {
    if (envelope.n === this.nodeId) return;
    for (const handler of this.byTopic.get(envelope.t) ?? []) {
      try {
        handler(envelope.d);
      } catch (error) {
        this.log.error({ err: error, topic: envelope.t }, 'cluster: handler failed');
      }
    }
  }
}

/** One node alone (SQLite, or PostgreSQL without peers configured): nothing to tell anyone. */
export function createLocalBus(nodeId: string): ClusterBus {
  return {
    nodeId,
    transport: 'local',
    publish: () => undefined,
    on: () => () => undefined,
    onResync: () => () => undefined,
    ready: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };
}

/** Splits a message into NOTIFY payloads under NOTIFY_PART_BYTES each (one payload when it fits). */
export function notifyPayloads(envelope: Envelope): string[] {
  const json = JSON.stringify(envelope);
  if (Buffer.byteLength(json) < NOTIFY_PART_BYTES) return [json];
  // Slices by characters: a third of the limit keeps every slice under it even when each is 3 bytes long
  // in UTF-8 and JSON-escaped once more.
  const size = Math.floor(NOTIFY_PART_BYTES / 6);
  const id = randomBytes(6).toString('base64url');
  const count = Math.ceil(json.length / size);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const part: Part = { n: envelope.n, p: [id, i, count], s: json.slice(i * size, (i + 1) * size) };
    parts.push(JSON.stringify(part));
  }
  return parts;
}

/** Puts parts back together; answers the whole envelope once its last part arrived. */
export class PartAssembler {
  private readonly pending = new Map<string, { parts: string[]; got: number; at: number }>();

  accept(payload: string, now = Date.now()): Envelope | undefined {
    const parsed = JSON.parse(payload) as Envelope | Part;
    if (!('p' in parsed)) return parsed;
    const [id, index, count] = parsed.p;
    const key = `${parsed.n}:${id}`;
    let entry = this.pending.get(key);
    if (!entry) this.pending.set(key, (entry = { parts: new Array<string>(count), got: 0, at: now }));
    if (entry.parts[index] === undefined) entry.got++;
    entry.parts[index] = parsed.s;
    if (entry.got < count) {
      // A sender that died mid-message leaves parts behind: forget them after a minute.
      for (const [k, e] of this.pending) if (now - e.at > 60_000) this.pending.delete(k);
      return undefined;
    }
    this.pending.delete(key);
    return JSON.parse(entry.parts.join('')) as Envelope;
  }
}

/** The listener's connection shows as this in pg_stat_activity (operators and tests find it by it). */
export function listenerApplicationName(nodeId: string): string {
  return `solar-cluster-listen ${nodeId}`.slice(0, 63);
}

/**
 * The bus on PostgreSQL LISTEN/NOTIFY: one dedicated connection listens; messages go out through the pool,
 * the parts of one message in one statement, so they are delivered together and in order.
 *
 * A notification sent while the listening connection is down is lost: PostgreSQL keeps none for a session
 * that is not there. So the bus notices a drop (the connection's error or end, and a probe query every
 * `probeMs` for a connection that died silently), reconnects with a growing, jittered delay, and after
 * listening again calls the resync handlers, which re-read from the database what they keep.
 */
export function createPostgresBus(options: {
  nodeId: string;
  url: string;
  schema: string;
  /** Runs `select pg_notify(channel, payload)` for each payload in one statement (the app's pool). */
  notify(channel: string, payloads: string[]): Promise<void>;
  log: Log & { info?(obj: object, msg: string): void };
  /** First reconnect delay, doubled per failure up to `retryMaxMs`. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** How often the listening connection is probed; a probe unanswered within it counts as a drop. */
  probeMs?: number;
}): ClusterBus {
  const { nodeId, log } = options;
  const retryMinMs = options.retryMinMs ?? 250;
  const retryMaxMs = options.retryMaxMs ?? 5_000;
  const probeMs = options.probeMs ?? 5_000;
  const channel = clusterChannel(options.schema);
  const handlers = new Handlers(nodeId, log);
  const assembler = new PartAssembler();
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = retryMinMs;
  let listenedBefore = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  let resolveReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (resolveReady = resolve));

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({
      connectionString: options.url,
      application_name: listenerApplicationName(nodeId),
      keepAlive: true,
    });
    client = c;
    let failed = false;
    const retry = (error: unknown) => {
      if (failed || stopped) return;
      failed = true;
      clearInterval(probeTimer);
      log.warn({ err: error, retryMs }, 'cluster: LISTEN connection lost, reconnecting');
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      // Jittered, so that the nodes of a cluster do not all come back at one instant after a restart.
      reconnectTimer = setTimeout(() => void connect(), retryMs * (0.8 + Math.random() * 0.4));
      reconnectTimer.unref();
      retryMs = Math.min(retryMs * 2, retryMaxMs);
    };
    c.on('error', retry);
    c.on('end', () => retry(new Error('connection ended')));
    c.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      try {
        const envelope = assembler.accept(message.payload);
        if (envelope) handlers.deliver(envelope);
      } catch (error) {
        log.error({ err: error }, 'cluster: unreadable message');
      }
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel}"`);
    } catch (error) {
      retry(error);
      return;
    }
    if (failed || stopped) return;
    retryMs = retryMinMs;
    // A connection cut without a word (a firewall, a failover) shows no error until something is sent.
    probeTimer = setInterval(() => {
      let answered = false;
      const timeout = setTimeout(() => answered || retry(new Error('probe unanswered')), probeMs);
      timeout.unref();
      c.query('select 1').then(
        () => ((answered = true), clearTimeout(timeout)),
        (error: unknown) => (clearTimeout(timeout), retry(error)),
      );
    }, probeMs);
    probeTimer.unref();
    if (listenedBefore) {
      log.info?.({}, 'cluster: listening again; subscribers resync from the database');
      handlers.resync();
    }
    listenedBefore = true;
    resolveReady();
  };
  void connect();

  // Messages leave in the order they were published. Each NOTIFY statement is a transaction on some pool
  // connection, and two of them in flight at once may commit in either order, so one is in flight at a
  // time and what is published meanwhile goes out together in the next one (in order, in one statement).
  // PostgreSQL delivers identical payloads sent in one transaction once: only a repeat of a message that
  // is already on its way is merged, and every topic's handlers treat a repeat as a no-op.
  let queued: string[] = [];
  let sending: Promise<void> | undefined;
  const send = () => {
    if (sending || queued.length === 0) return;
    const batch = queued.splice(0, NOTIFY_BATCH_PAYLOADS);
    sending = options
      .notify(channel, batch)
      .catch((error: unknown) => log.error({ err: error, payloads: batch.length }, 'cluster: NOTIFY failed'))
      .finally(() => {
        sending = undefined;
        send();
      });
  };

  return {
    nodeId,
    transport: 'postgres',
    publish(topic, data) {
      queued.push(...notifyPayloads({ n: nodeId, t: topic, d: data }));
      send();
    },
    on: (topic, handler) => handlers.on(topic, handler),
    onResync: (handler) => handlers.onResync(handler),
    ready: () => readyPromise,
    async stop() {
      // What was published before stopping still goes out.
      while (sending) await sending;
      queued = [];
      stopped = true;
      clearTimeout(reconnectTimer);
      clearInterval(probeTimer);
      resolveReady();
      const c = client;
      c?.removeAllListeners('notification');
      await c?.end().catch(() => undefined);
    },
  };
}

/** The Redis subscriber's client name (CLIENT SETNAME allows no spaces). */
export function redisSubscriberName(nodeId: string): string {
  return `solar-cluster-sub:${nodeId.replace(/\s/g, '_')}`;
}

/** The bus on Redis pub/sub (REDIS_URL): one connection publishes, a second one subscribes. */
export function createRedisBus(options: {
  nodeId: string;
  url: string;
  schema: string;
  log: Log;
}): ClusterBus {
  const { nodeId, log } = options;
  const channel = `solar:cluster:${options.schema}`;
  const handlers = new Handlers(nodeId, log);
  const publisher = createClient({ url: options.url });
  // Named, so that CLIENT LIST shows which node's subscription a connection is.
  const subscriber = publisher.duplicate({ name: redisSubscriberName(nodeId) });
  // The client reconnects by itself; errors are reported, never thrown at the process.
  publisher.on('error', (error: unknown) => log.warn({ err: error }, 'cluster: redis publisher error'));
  subscriber.on('error', (error: unknown) => log.warn({ err: error }, 'cluster: redis subscriber error'));
  // The client resubscribes before it reports `ready` again; what was published while it was away is lost,
  // so the subscribers resync from the database, as on PostgreSQL.
  let readyBefore = false;
  subscriber.on('ready', () => {
    if (readyBefore) {
      log.warn({}, 'cluster: redis subscriber back; subscribers resync from the database');
      handlers.resync();
    }
    readyBefore = true;
  });
  const ready = (async () => {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel, (message) => {
      try {
        handlers.deliver(JSON.parse(message) as Envelope);
      } catch (error) {
        log.error({ err: error }, 'cluster: unreadable message');
      }
    });
  })();
  ready.catch((error: unknown) => log.error({ err: error }, 'cluster: redis connection failed'));
  return {
    nodeId,
    transport: 'redis',
    publish(topic, data) {
      const envelope: Envelope = { n: nodeId, t: topic, d: data };
      publisher
        .publish(channel, JSON.stringify(envelope))
        .catch((error: unknown) => log.error({ err: error, topic }, 'cluster: PUBLISH failed'));
    },
    on: (topic, handler) => handlers.on(topic, handler),
    onResync: (handler) => handlers.onResync(handler),
    ready: () => ready,
    redis: {
      evalScript: (script, keys, args) => publisher.eval(script, { keys, arguments: args }),
    },
    async stop() {
      await ready.catch(() => undefined);
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
