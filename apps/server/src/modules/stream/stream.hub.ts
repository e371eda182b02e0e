import { randomBytes } from 'node:crypto';
import {
  STREAM_HEARTBEAT_S,
  STREAM_MAX_CONNECTIONS_PER_USER,
  STREAM_MIN_INTERVAL_MS,
  type Method,
  type Page,
  type Permission,
  type StreamLatestEvent,
  type UserUnit,
} from '@solar/shared';
import type { Scope } from '../../lib/scope';
import type { SessionChange, SessionEvents } from '../../lib/session-events';
import type { StoredPoint, TelemetryHub } from '../../telemetry-store/telemetry-hub';

/** Where a connection's bytes go: the HTTP response in production, an array in unit tests. */
export interface StreamSink {
  /** Writes a chunk; false when the client is not keeping up (the hub then waits for `drain`). */
  write(chunk: string): boolean;
  /** Registers the one callback for the next `drain`. */
  onceDrain(callback: () => void): void;
  /** Ends the response. */
  end(): void;
}

/** Who holds a connection, as the hub needs it: scope for plant-wide events, the session for expiry. */
export interface StreamOwner {
  userId: number;
  /** The owner's role: a change to its permissions ends the connection. The stream route always sets it. */
  roleId?: number;
  scope: Scope;
  /**
   * What decided the scope and permissions at open (role, company, units, permissions, token version):
   * the heartbeat ends the connection when the database says otherwise (a change missed by the events).
   * The stream route always sets it; connections opened in process without it skip that comparison.
   */
  sessionKey?: string;
  can(page: Page, method: Method): boolean;
  /** Token issue and expiry (epoch seconds): the stream ends when the session ends. */
  tokenIat: number;
  tokenExp: number;
}

/** The database questions the hub asks, injected so it stays free of SQL. */
export interface StreamLookups {
  plantReachable(scope: Scope, plantId: number): Promise<boolean>;
  /** Whether each user is still active and from when their tokens count (a missing user is gone). */
  sessionStates(userIds: readonly number[]): Promise<Map<number, SessionState>>;
  /** The stored latest value of each signal (for `resync`); without it a resync re-sends no values. */
  latestValues?(signalIds: readonly number[]): Promise<Map<number, { ts: number; value: number }>>;
}

/** What decides a connection's reach, as one comparable string (order of permissions and units aside). */
export function sessionKeyOf(session: {
  roleId: number;
  isAdmin: boolean;
  companyId: number | null;
  tokenVersion: number;
  permissions: readonly Permission[];
  units: readonly UserUnit[];
}): string {
  // The administrator holds every pair whatever the table says: its rows must not make keys differ.
  const pairs = session.isAdmin ? [] : session.permissions;
  const permissions = pairs.map((p) => `${p.page}:${p.method}`).sort();
  const units = session.units.map((u) => `${u.unit_type}:${u.unit_id}`).sort();
  const { roleId, isAdmin, companyId, tokenVersion } = session;
  return JSON.stringify([roleId, isAdmin, companyId, tokenVersion, permissions, units]);
}

/** A user's session as the database has it now. */
export interface SessionState {
  active: boolean;
  /** Tokens issued (iat, seconds) before this are ended. */
  validAfter: number;
  /** The key StreamOwner.sessionKey is compared with. */
  sessionKey: string;
}

export class TooManyConnections extends Error {}

interface Connection {
  id: string;
  owner: StreamOwner;
  sink: StreamSink;
  signals: Set<number>;
  /** Newest value per subscribed signal not sent yet. */
  pending: Map<number, [number, number, number]>;
  /** Timestamp last sent per signal: an older point (a back-fill) never replaces a newer value on screen. */
  sentTs: Map<number, number>;
  lastFlush: number;
  timer: NodeJS.Timeout | null;
  waitingForDrain: boolean;
  closed: boolean;
}

/** Formats one Server-Sent Event. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Live push: the open stream connections, what each watches, and the fan-out of stored telemetry to
 * them. `latest` events are coalesced per connection (newest value per signal, at most one event per
 * STREAM_MIN_INTERVAL_MS); other modules reach every connection allowed to see a plant through
 * `publishToPlant` (the alarms issue uses event `alarm`).
 */
export class StreamHub {
  private readonly connections = new Map<string, Connection>();
  /** Connections by watched signal: the hot path of `onStored`. */
  private readonly bySignal = new Map<number, Set<Connection>>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeSessions: () => void;

  constructor(
    telemetry: Pick<TelemetryHub, 'onStored'>,
    private readonly lookups: StreamLookups,
    private readonly now: () => number = Date.now,
    private readonly log: (error: unknown) => void = () => undefined,
    sessions?: Pick<SessionEvents, 'on'>,
  ) {
    this.unsubscribe = telemetry.onStored((points) => this.onStored(points));
    this.unsubscribeSessions = sessions?.on((change) => this.endSessions(change)) ?? (() => undefined);
    this.heartbeat = setInterval(() => void this.beat(), STREAM_HEARTBEAT_S * 1000);
    this.heartbeat.unref();
  }

  /** Open connections (for tests and health). */
  get size(): number {
    return this.connections.size;
  }

  /** False when the user already holds STREAM_MAX_CONNECTIONS_PER_USER connections. */
  canOpen(userId: number): boolean {
    let mine = 0;
    for (const c of this.connections.values()) if (c.owner.userId === userId) mine++;
    return mine < STREAM_MAX_CONNECTIONS_PER_USER;
  }

  /** Opens a connection for the owner and sends `hello`; throws TooManyConnections over the cap. */
  open(owner: StreamOwner, sink: StreamSink): string {
    if (!this.canOpen(owner.userId)) throw new TooManyConnections();
    const id = randomBytes(18).toString('base64url');
    this.connections.set(id, {
      id,
      owner,
      sink,
      signals: new Set(),
      pending: new Map(),
      sentTs: new Map(),
      lastFlush: 0,
      timer: null,
      waitingForDrain: false,
      closed: false,
    });
    sink.write(sseEvent('hello', { connection_id: id }));
    return id;
  }

  /** The owner of an open connection held by `userId`, or undefined (unknown or someone else's). */
  ownerOf(connectionId: string, userId: number): StreamOwner | undefined {
    const c = this.connections.get(connectionId);
    return c && c.owner.userId === userId ? c.owner : undefined;
  }

  /** Replaces what a connection watches (the ids are already checked against the owner's scope). */
  setSubscriptions(connectionId: string, signalIds: readonly number[]): void {
    const c = this.connections.get(connectionId);
    if (!c) return;
    const next = new Set(signalIds);
    for (const id of c.signals) {
      if (next.has(id)) continue;
      const set = this.bySignal.get(id);
      set?.delete(c);
      if (set?.size === 0) this.bySignal.delete(id);
      c.pending.delete(id);
      c.sentTs.delete(id);
    }
    for (const id of next) {
      if (c.signals.has(id)) continue;
      let set = this.bySignal.get(id);
      if (!set) this.bySignal.set(id, (set = new Set()));
      set.add(c);
    }
    c.signals = next;
  }

  /** Closes a connection and forgets it (the client went away, or the server ends it). */
  close(connectionId: string): void {
    const c = this.connections.get(connectionId);
    if (!c) return;
    this.setSubscriptions(connectionId, []);
    this.connections.delete(connectionId);
    c.closed = true;
    if (c.timer) clearTimeout(c.timer);
    c.timer = null;
    try {
      c.sink.end();
    } catch (error) {
      this.log(error);
    }
  }

  /**
   * Sends an event to every connection whose owner may see the plant (and, when `page` is given, may view
   * that page). Answers how many connections got it.
   */
  async publishToPlant(
    plantId: number,
    event: string,
    data: unknown,
    options: { page?: Page } = {},
  ): Promise<number> {
    const reach = new Map<number, Promise<boolean>>();
    const targets = [...this.connections.values()].filter(
      (c) => !options.page || c.owner.can(options.page, 'view'),
    );
    const allowed = await Promise.all(
      targets.map((c) => {
        if (c.owner.scope.all) return Promise.resolve(true);
        let answer = reach.get(c.owner.userId);
        if (!answer)
          reach.set(c.owner.userId, (answer = this.lookups.plantReachable(c.owner.scope, plantId)));
        return answer;
      }),
    );
    const chunk = sseEvent(event, data);
    let sent = 0;
    targets.forEach((c, i) => {
      if (!allowed[i] || c.closed) return;
      c.sink.write(chunk);
      sent++;
    });
    return sent;
  }

  /**
   * Ends at once, before any further event, every connection whose scope or permissions the change may
   * alter (docs/security.md, hole 2). The client opens a new one, scoped as the user is now.
   */
  endSessions(change: SessionChange): number {
    const ended = [...this.connections.values()].filter((c) =>
      change.kind === 'user' ? c.owner.userId === change.userId : c.owner.roleId === change.roleId,
    );
    for (const c of ended) this.close(c.id);
    return ended.length;
  }

  /**
   * After this node missed what other nodes published (its cluster bus connection dropped and came back):
   * every connection gets `resync`, so the client re-reads what it shows from events (the alarm list); the
   * watched signals' stored latest values, which any node may have written meanwhile, are queued as fresh
   * points (a value not newer than the one sent is skipped, as always); and the sessions are checked at once,
   * as a missed change of a user's reach would otherwise wait for the heartbeat.
   */
  async resync(): Promise<void> {
    const chunk = sseEvent('resync', { reason: 'cluster' });
    for (const c of this.connections.values()) if (!c.closed) c.sink.write(chunk);
    if (this.lookups.latestValues && this.bySignal.size) {
      try {
        const latest = await this.lookups.latestValues([...this.bySignal.keys()]);
        this.onStored([...latest].map(([signal_id, p]) => ({ signal_id, ts: p.ts, value: p.value })));
      } catch (error) {
        this.log(error);
      }
    }
    await this.beat();
  }

  /** Ends every connection and stops listening (server shutdown). */
  shutdown(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.unsubscribeSessions();
    for (const id of [...this.connections.keys()]) this.close(id);
  }

  private onStored(points: readonly Pick<StoredPoint, 'signal_id' | 'ts' | 'value'>[]): void {
    if (this.bySignal.size === 0) return;
    const touched = new Set<Connection>();
    for (const p of points) {
      const watchers = this.bySignal.get(p.signal_id);
      if (!watchers) continue;
      for (const c of watchers) {
        const queued = c.pending.get(p.signal_id);
        if (queued && queued[1] >= p.ts) continue;
        if ((c.sentTs.get(p.signal_id) ?? -Infinity) >= p.ts) continue;
        c.pending.set(p.signal_id, [p.signal_id, p.ts, p.value]);
        touched.add(c);
      }
    }
    for (const c of touched) this.schedule(c);
  }

  private schedule(c: Connection): void {
    if (c.timer || c.waitingForDrain || c.closed) return;
    const wait = Math.max(0, c.lastFlush + STREAM_MIN_INTERVAL_MS - this.now());
    c.timer = setTimeout(() => {
      c.timer = null;
      this.flush(c);
    }, wait);
  }

  private flush(c: Connection): void {
    if (c.closed || c.pending.size === 0) return;
    const values: StreamLatestEvent = [...c.pending.values()];
    c.pending.clear();
    for (const [signalId, ts] of values) c.sentTs.set(signalId, ts);
    c.lastFlush = this.now();
    if (!c.sink.write(sseEvent('latest', values))) {
      // A slow client: keep coalescing into `pending` until the socket drains, then send the newest.
      c.waitingForDrain = true;
      c.sink.onceDrain(() => {
        c.waitingForDrain = false;
        if (c.pending.size) this.schedule(c);
      });
    }
  }

  /** Heartbeat comment to every connection; ends the ones whose session expired or was revoked. */
  private async beat(): Promise<void> {
    const nowS = Math.floor(this.now() / 1000);
    const live = [...this.connections.values()];
    for (const c of live) {
      if (c.owner.tokenExp <= nowS) this.close(c.id);
      else if (!c.waitingForDrain) c.sink.write(': heartbeat\n\n');
    }
    const open = live.filter((c) => !c.closed);
    if (!open.length) return;
    try {
      const states = await this.lookups.sessionStates([...new Set(open.map((c) => c.owner.userId))]);
      for (const c of open) {
        const state = states.get(c.owner.userId);
        if (!state?.active || c.owner.tokenIat < state.validAfter) this.close(c.id);
        else if (c.owner.sessionKey !== undefined && state.sessionKey !== c.owner.sessionKey)
          this.close(c.id);
      }
    } catch (error) {
      this.log(error);
    }
  }
}
