import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventLoopFigures } from './event-loop-watch';

/** What the database pool reports (PostgreSQL); undefined on the embedded SQLite database, which has none. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** What the SQLite checkpoint thread reports (db/wal-checkpointer.ts); undefined on PostgreSQL or in memory. */
export interface WalFigures {
  walPages: number;
  checkpointedPages: number;
  pageBytes: number;
  catchUps: number;
  longestCatchUpMs: number;
}

/** A lease this node may hold; the lease service registers one per name (decoupled: any function will do). */
export type LeaseProbe = () => boolean;

/**
 * The server's Prometheus figures, one registry per built app (tests build several apps in one process, and
 * prom-client's global registry would mix their figures). Features report through the few methods here;
 * gauges that describe a state (SSE clients, pool, leases) are read from their sources when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly ingestStored: Counter;
  private readonly ingestRejected: Counter<'reason'>;
  private readonly ingestBodies: Counter<'parsed_on'>;
  private readonly mailHeld: Counter<'budget'>;
  private readonly ruleEvaluation: Histogram<'kind'>;
  private readonly leases = new Map<string, LeaseProbe>();
  private sseClients: () => number = () => 0;
  private pool: () => PoolStats | undefined = () => undefined;
  private wal: () => WalFigures | undefined = () => undefined;
  private eventLoop: () => EventLoopFigures | undefined = () => undefined;
  /** The event-loop figures of the scrape under way: read once, shared by its gauges. */
  private eventLoopNow: EventLoopFigures | undefined;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    // Event-loop lag, heap, GC, handles: prom-client's own collectors (nodejs_eventloop_lag_*).
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'solar_http_request_duration_seconds',
      help: 'HTTP answer time by method, route pattern (not the raw URL) and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.ingestStored = new Counter({
      name: 'solar_ingest_points_stored_total',
      help: 'Telemetry points stored (HTTP ingest, MQTT, Modbus); its rate is the ingest rate.',
      registers,
    });
    this.mailHeld = new Counter({
      name: 'solar_mail_held_back_total',
      help: "Mails not sent because a recipient's daily budget was used up, by budget (general, alarm, security).",
      labelNames: ['budget'],
      registers,
    });
    this.ingestRejected = new Counter({
      name: 'solar_ingest_points_rejected_total',
      help: 'Telemetry points refused or deduplicated, by reason (out_of_range, too_old, …).',
      labelNames: ['reason'],
      registers,
    });
    this.ingestBodies = new Counter({
      name: 'solar_ingest_bodies_parsed_total',
      help: 'HTTP ingest bodies by where they were parsed: the parse thread (large bodies) or the event loop.',
      labelNames: ['parsed_on'],
      registers,
    });
    this.ruleEvaluation = new Histogram({
      name: 'solar_alarm_evaluation_duration_seconds',
      help: "The alarm engine's evaluation time: per stored batch (point) and per timer pass (tick).",
      labelNames: ['kind'],
      buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
      registers,
    });
    // The gauges' collect() runs with `this` bound to the gauge: they read their sources through these.
    const read = {
      sseClients: () => this.sseClients(),
      pool: () => this.pool(),
      wal: () => this.wal(),
      leases: () => this.leases,
      eventLoop: () => this.eventLoopNow,
    };
    new Gauge({
      name: 'solar_sse_clients',
      help: 'Open Server-Sent Event streams on this node.',
      registers,
      collect() {
        this.set(read.sseClients());
      },
    });
    new Gauge({
      name: 'solar_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients, max); absent on SQLite.',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const stats = read.pool();
        if (!stats) return;
        for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, stats[state]);
      },
    });
    new Gauge({
      name: 'solar_sqlite_wal_bytes',
      help: "SQLite's WAL at the checkpoint thread's last checkpoint: its size, and how much of it was copied into the database file; absent on PostgreSQL.",
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const wal = read.wal();
        if (!wal) return;
        this.set({ state: 'size' }, wal.walPages * wal.pageBytes);
        this.set({ state: 'copied' }, wal.checkpointedPages * wal.pageBytes);
      },
    });
    new Gauge({
      name: 'solar_sqlite_wal_catch_ups',
      help: 'Checkpoints the main SQLite connection ran itself because the WAL had grown past its bound, since the server started; 0 on PostgreSQL.',
      registers,
      collect() {
        this.reset();
        const wal = read.wal();
        if (wal) this.set(wal.catchUps);
      },
    });
    new Gauge({
      name: 'solar_sqlite_wal_catch_up_longest_seconds',
      help: "The longest of those catch-ups: the event loop's stall; 0 on PostgreSQL.",
      registers,
      collect() {
        this.reset();
        const wal = read.wal();
        if (wal) this.set(wal.longestCatchUpMs / 1000);
      },
    });
    const eventLoopGauge = (name: string, help: string, value: (f: EventLoopFigures) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.reset();
          const figures = read.eventLoop();
          if (figures) this.set(value(figures));
        },
      });
    eventLoopGauge(
      'solar_event_loop_delay_p50_seconds',
      'Event-loop delay since the previous scrape, median (perf_hooks monitorEventLoopDelay, 10 ms resolution).',
      (f) => f.p50Seconds,
    );
    eventLoopGauge(
      'solar_event_loop_delay_p99_seconds',
      'Event-loop delay since the previous scrape, 99th percentile: how long a request may wait to start.',
      (f) => f.p99Seconds,
    );
    eventLoopGauge(
      'solar_event_loop_delay_max_seconds',
      'Event-loop delay since the previous scrape, longest: the longest one task held every request.',
      (f) => f.maxSeconds,
    );
    new Counter({
      name: 'solar_event_loop_blocks_total',
      help: 'Tasks that held the event loop for more than a second since the server started (each also logged as a warning).',
      registers,
      collect() {
        const figures = read.eventLoop();
        if (!figures) return;
        this.reset();
        this.inc(figures.blocks);
      },
    });
    new Gauge({
      name: 'solar_lease_held',
      help: 'Cluster leases (alarm engine, jobs): 1 when this node holds the lease, 0 otherwise.',
      labelNames: ['lease'],
      registers,
      collect() {
        this.reset();
        for (const [lease, held] of read.leases()) this.set({ lease }, held() ? 1 : 0);
      },
    });
  }

  /** One HTTP answer; `route` is the route pattern, or `unmatched` for a URL no route serves. */
  observeHttp(method: string, route: string | undefined, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
  }

  /** Points stored by one committed batch. */
  countStored(n: number): void {
    if (n > 0) this.ingestStored.inc(n);
  }

  /** Points refused or deduplicated for a reason. */
  countRejected(reason: string, n = 1): void {
    if (n > 0) this.ingestRejected.inc({ reason }, n);
  }

  /** One mail held back by its recipient's daily budget (lib/mail-budget.ts). */
  countMailHeld(budget: string): void {
    this.mailHeld.inc({ budget });
  }

  /** One HTTP ingest body parsed, on the parse thread or on the event loop. */
  countIngestBody(parsedOn: 'thread' | 'loop'): void {
    this.ingestBodies.inc({ parsed_on: parsedOn });
  }

  /** One evaluation pass of the alarm engine. */
  observeEvaluation(kind: 'point' | 'tick', seconds: number): void {
    this.ruleEvaluation.observe({ kind }, seconds);
  }

  /** Where the number of open SSE streams is read from. */
  setSseClients(source: () => number): void {
    this.sseClients = source;
  }

  /** Where the database pool's figures are read from. */
  setPool(source: () => PoolStats | undefined): void {
    this.pool = source;
  }

  /** Where the SQLite checkpoint thread's figures are read from. */
  setWal(source: () => WalFigures | undefined): void {
    this.wal = source;
  }

  /** Where the event loop's figures are read from, once per scrape (lib/event-loop-watch.ts). */
  setEventLoop(source: () => EventLoopFigures): void {
    this.eventLoop = source;
  }

  /** Registers a lease by name: `held` answers whether this node holds it now. */
  registerLease(name: string, held: LeaseProbe): void {
    this.leases.set(name, held);
  }

  /** The exposition text and its media type. */
  async render(): Promise<{ body: string; contentType: string }> {
    this.eventLoopNow = this.eventLoop();
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
