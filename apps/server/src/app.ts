import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { SERIAL_PORTS_DEFAULT, type AppConfig } from './config';
import type { AppContext } from './context';
import { ensureSchema, openDatabase, type DatabaseHandle, type OpenOptions } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DbAttemptLimiter } from './lib/attempt-limiter';
import { Clock } from './lib/clock';
import { DeviceNetworks } from './lib/device-networks';
import { createMailer } from './lib/mailer';
import { createBudgetedMailer, DbMailBudget } from './lib/mail-budget';
import { EventLoopWatch } from './lib/event-loop-watch';
import { Lifecycle } from './lib/lifecycle';
import { RunningCollectors } from './collectors/collector-status';
import { Metrics } from './lib/metrics';
import { createSessionEvents } from './lib/session-events';
import { UserSessions } from './modules/auth';
import { TokenService } from './lib/tokens';
import { startBackground, type BackgroundWork } from './background';
import {
  clusterPlantEvents,
  clusterSessionEvents,
  clusterTelemetry,
  createClusterBus,
} from './cluster/cluster-relay';
import { createLease, runWhileLeader, JOBS_LEASE } from './cluster/lease';
import { apiModules } from './modules';
import { createStreamHub } from './modules/stream';
import { CameraProbe, CameraStreamHub, type CameraProbeOptions } from './modules/cameras';
import {
  createAlarmEngine,
  type AlarmEngineOptions,
  createAlarmFeed,
  createAlarmPublisher,
} from './modules/alarms';
import { startKpiRefresh } from './modules/kpi';
import { readAgentReports } from './modules/edge';
import { DetectionRunner, detectionSourceOf, startDataQualityJob } from './modules/data-quality';
import { recipientTimeZone } from './modules/companies';
import { createUploadReadingSlots } from './modules/budgets';
import { KeptAnalyses } from './modules/performance';
import {
  createReportScheduleRunner,
  renderScheduledReport,
  type ReportScheduleRunnerOptions,
} from './modules/report-schedules';
import { defaultFileBuildLimits, FileBuildPool } from './file-builds/file-build-pool';
import { IngestKeysService } from './modules/telemetry';
import { createSettingsMailer, SettingsService, defaultSettings } from './modules/settings';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { metricsPlugin } from './plugins/metrics';
import { openapiPlugin } from './plugins/openapi';
import { securityPlugin } from './plugins/security';
import { webPlugin } from './plugins/web';
import { xsrfPlugin } from './plugins/xsrf';
import { seedDemo } from './seed/demo';
import { IngestCounts } from './telemetry-store/ingest-counts';
import { startRetention } from './telemetry-store/retention';
import { startBatchWriter, type BatchWriterThread } from './telemetry-store/batch-writer';
import { TelemetryStore } from './telemetry-store/telemetry-store';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** What runs beside the HTTP server, once the app is ready (tests drive the demo simulator through it). */
  background: () => BackgroundWork | undefined;
  /** The SQLite file database's telemetry writer thread (telemetry-store/batch-writer.ts); else undefined. */
  telemetryWriter?: BatchWriterThread;
  /** Every long-running part, in start order (app-lifecycle.test.ts holds the order's constraints). */
  parts: Lifecycle;
}

/** What tests may set that the environment does not. */
export interface BuildOptions {
  /** Thresholds, delays and timer of the alarm engine (defaults: the engine's). */
  alarmEngine?: AlarmEngineOptions;
  /** The clock (default Date.now): tests inject time. */
  now?: () => number;
  /** Interval and batch of the scheduled reports' runner (defaults: the runner's). */
  reportSchedules?: ReportScheduleRunnerOptions;
  /** Told of every database statement (Kysely's log hook): tests count a request's round trips with it. */
  onQuery?: OpenOptions['onQuery'];
  /** Interval and concurrency of the camera probe (defaults: the probe's). */
  cameraProbe?: CameraProbeOptions;
}

/**
 * Builds the whole server except listen(): tests build it and talk to it with inject or a real port. In
 * order: the logger, the Fastify instance, the database, the services (the context), the routes, and the
 * long-running parts, which start when the app is ready and stop in reverse order when it closes.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    loggerInstance: createLogger(config),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    trustProxy: config.trustProxy,
    bodyLimit: 8 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Fastify's child of it (with its request serializers): what every service logs to, and what tests watch.
  const log = app.log;
  // Every long-running part in start order; close stops them in reverse (docs/architecture.md).
  const parts = new Lifecycle(log);
  app.addHook('onReady', () => parts.start());
  app.addHook('onClose', () => parts.stop());

  const handle = openDatabase(config.database, { onQuery: options.onQuery, log });
  // Closed last, whether or not the app got as far as ready.
  parts.built('database', { stop: () => handle.close() });
  await migrateDatabase(config, handle);
  // SQLite file databases: batches' transactions on a thread of their own (batch-writer.ts), stopped after
  // everything that stores telemetry, before the connections it shares the file with.
  const writer = startTelemetryWriter(config, handle, log);
  if (writer) parts.built('telemetry writer thread', writer, () => writer.ready);

  const eventLoop = new EventLoopWatch(log);
  const ctx = await createContext(config, {
    handle,
    log,
    clock: new Clock(options.now),
    writer,
    eventLoop,
    // The configured port, and the one actually bound (tests and PORT=0 listen on a port chosen then).
    ownPorts: () => [config.port, ...boundPortOf(app)],
    options,
  });
  parts.built('file-build threads', { stop: () => ctx.fileBuilds.close() });
  parts.built('data-quality thread', { stop: () => ctx.dataQualityThread.close() });
  if (config.demo) await seedDemo(ctx);

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics: ctx.metrics, token: config.metricsToken });
  await app.register(securityPlugin, {
    tileUrl: () => ctx.settings.current().map_tile_url,
    https: /^https:\/\//i.test(config.publicUrl),
  });
  await app.register(cookie);
  await app.register(xsrfPlugin, { secure: config.cookieSecure });
  const ingestKeys = new IngestKeysService(ctx);
  await app.register(authPlugin, {
    db: ctx.db,
    dialect: handle.dialect,
    tokens: ctx.tokens,
    now: () => ctx.now(),
    verifyIngestKey: (key) => ingestKeys.verify(key),
    sessionSeen: (sessionId) => ctx.sessions.seen(sessionId),
  });
  await app.register(openapiPlugin, { version: config.version });
  await app.register(
    async (api) => {
      for (const module of apiModules) await api.register(module, { ctx });
    },
    { prefix: '/api' },
  );
  await app.register(webPlugin, { root: config.webDist });
  // Open streams would keep the server from closing: end them before it stops listening.
  app.addHook('preClose', (done) => {
    ctx.stream.shutdown();
    ctx.cameraStreams.shutdown();
    done();
  });

  const { cluster, lease } = ctx;
  const leader = () => lease.isHeld();
  // Built, not started on ready: the bus connects as it is made (createContext), so an app closed without
  // ever being ready (a bench driving the collector itself, a failed start) must still end that connection.
  parts.built('cluster bus', cluster, () => cluster.ready());
  // Released after the jobs: another node takes them over at once.
  parts.onReady('jobs lease', async () => {
    await lease.start();
    return lease;
  });
  // Stopped after the collectors, so that what they counted last is written.
  parts.onReady('ingest counts', () => {
    ctx.ingestCounts.start();
    return ctx.ingestCounts;
  });
  parts.onReady('settings reload', () => {
    ctx.settings.start();
    return ctx.settings;
  });
  parts.onReady('raw retention', () => startRetention(ctx, log, { leader }));
  // Subscribed before the collectors start, so that no stored point escapes its day's dirty mark.
  parts.onReady('KPI refresh', () => startKpiRefresh(ctx, log, { leader }));
  // On the lease holder: each plant's yesterday after its local midnight, its today hourly.
  parts.onReady('data quality', () => startDataQualityJob(ctx, log, { leader }));
  parts.onReady('event-loop watch', () => {
    eventLoop.start();
    return eventLoop;
  });
  // Demo simulator, collectors, alarm engine and mail digest (background.ts).
  const background = parts.onReady('background', () => startBackground(ctx, log));
  // On the lease holder, after the background: the demo's cameras are served (and pointed at) by then.
  if (options.cameraProbe?.enabled !== false)
    parts.onReady('camera probe', () =>
      runWhileLeader(lease, log, 'camera probe', {
        start: () => Promise.resolve(ctx.cameraProbe.start()),
        stop: () => ctx.cameraProbe.stop(),
      }),
    );
  // On the lease holder; its first pass sends the runs missed while no node ran them.
  parts.onReady('report schedules', async () => {
    const onLeader = await runWhileLeader(lease, log, 'report schedules', {
      start: () => Promise.resolve(ctx.reportSchedules.start(log)),
      stop: () => ctx.reportSchedules.stop(),
    });
    return {
      async stop() {
        await onLeader.stop();
        await ctx.reportSchedules.stop();
      },
    };
  });
  return { app, ctx, background, parts, ...(writer ? { telemetryWriter: writer } : {}) };
}

/** The server's one logger, made first and handed to Fastify; the services log through Fastify's `app.log`. */
function createLogger(config: AppConfig): FastifyBaseLogger {
  return pino({
    level: config.logLevel,
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      'req.headers["x-api-key"]',
      'res.headers["set-cookie"]',
    ],
  });
}

/** Creates the configured PostgreSQL schema if need be and runs the migrations not yet run. */
async function migrateDatabase(config: AppConfig, handle: DatabaseHandle): Promise<void> {
  const schema = config.database.dialect === 'postgres' ? config.database.schema : undefined;
  if (schema) await ensureSchema(handle, schema);
  await migrateToLatest(handle, schema);
}

/** The SQLite file database's telemetry writer thread (SQLITE_WRITER_THREAD); undefined otherwise. */
function startTelemetryWriter(
  config: AppConfig,
  handle: DatabaseHandle,
  log: FastifyBaseLogger,
): BatchWriterThread | undefined {
  if (!handle.sqlite || !config.sqliteWriterThread) return undefined;
  return startBatchWriter(
    handle.sqlite,
    handle.sqliteWriterGate!,
    handle.walCheckpointer,
    (details, message) => log.warn(details, message),
  );
}

/** The port the server listens on, once it does. */
function boundPortOf(app: FastifyInstance): number[] {
  const address = app.server.address();
  return address && typeof address === 'object' ? [address.port] : [];
}

/** What the services are built from besides the configuration. */
interface ContextParts {
  handle: DatabaseHandle;
  log: FastifyBaseLogger;
  clock: Clock;
  writer: BatchWriterThread | undefined;
  eventLoop: EventLoopWatch;
  ownPorts: () => number[];
  options: Pick<BuildOptions, 'alarmEngine' | 'reportSchedules' | 'cameraProbe'>;
}

/**
 * Builds every long-lived service once, each from the configuration and the services built before it, and
 * answers them as the context the modules receive. Nothing here starts: buildApp starts what runs.
 */
async function createContext(config: AppConfig, parts: ContextParts): Promise<AppContext> {
  const { handle, log, clock, writer, eventLoop, ownPorts, options } = parts;
  const { db, dialect } = handle;
  const { now } = clock;
  // Before everything that reads a setting (token signing, the engine, the CSP, the mailer).
  const settings = new SettingsService({ db, now }, defaultSettings(config));
  await settings.load();

  const metrics = new Metrics();
  const ingestCounts = new IngestCounts(
    { db, now, onCount: (reason, n) => metrics.countRejected(reason, n) },
    log,
  );
  const telemetry = new TelemetryStore(
    { db, dialect, sqlite: handle.sqlite, counts: ingestCounts, ...(writer ? { writer } : {}) },
    log,
  );
  telemetry.onStored((points) => metrics.countStored(points.length));

  // Several nodes (docs/operations.md): what other nodes must hear travels on the cluster bus; the singleton
  // jobs run on the node that holds the lease. On SQLite the bus is local and the lease is this process's.
  const cluster = createClusterBus(config, db, log);
  const lease = createLease({ db, dialect, name: JOBS_LEASE, nodeId: config.cluster.nodeId, log });
  // Stored telemetry of every node: the live stream and the engine judge points whichever node stored them.
  const liveTelemetry = clusterTelemetry(cluster, telemetry);
  const sessionEvents = clusterSessionEvents(cluster, createSessionEvents());
  const stream = createStreamHub({ db, dialect, telemetry: liveTelemetry, now, sessionEvents });

  const alarmFeed = createAlarmFeed();
  const alarmPublisher = createAlarmPublisher({
    db,
    feed: alarmFeed,
    pushToPlant: clusterPlantEvents(cluster, (plantId, event, data, opts) =>
      stream.publishToPlant(plantId, event, data, opts),
    ),
    log,
  });
  const alarmEngine = createAlarmEngine(
    {
      db,
      now,
      telemetry: liveTelemetry,
      publisher: alarmPublisher,
      conditions: () => settings.alarmConditions(),
      onEvaluated: (kind, seconds) => metrics.observeEvaluation(kind, seconds),
      // A rule saved on any node reaches the engine on the lease holder.
      announceRules: () => cluster.publish('rules', null),
      edgeAgents: () => readAgentReports(db),
    },
    { edgeSilenceMs: config.edgeSilenceMs, ...options.alarmEngine },
  );
  relayClusterEvents(cluster, { settings, stream, alarmEngine }, log);

  // Every mail first takes its place in its recipients' daily budget, counted in the database
  // (docs/security.md, "Mail and schedules").
  const mailer = createBudgetedMailer(
    createSettingsMailer(
      settings,
      createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir }),
    ),
    new DbMailBudget(db, config.mailLimits, (address) => recipientTimeZone(db, address), now),
    (budget, recipients) => {
      metrics.countMailHeld(budget);
      // The domains only: the log must not become a list of addresses.
      const domains = recipients.map((r) => r.slice(r.lastIndexOf('@') + 1));
      log.warn({ budget, domains }, "mail held back: the recipient's daily budget is used up");
    },
  );
  const { loginLimit } = config;
  const deviceNetworks = new DeviceNetworks({
    allowed: () => settings.deviceNetworks(),
    extraAllowed: config.deviceNetworks.extraAllowed,
    ownPorts,
    serialPorts: config.deviceNetworks.serialPorts ?? SERIAL_PORTS_DEFAULT,
  });

  metrics.setPool(handle.poolStats);
  metrics.setWal(handle.walCheckpoints);
  metrics.setEventLoop(() => eventLoop.takeFigures());
  metrics.setSseClients(() => stream.size);
  metrics.registerLease(lease.name, () => lease.isHeld());

  const ctx: AppContext = {
    config,
    db,
    dialect,
    ping: handle.ping,
    settings,
    tokens: new TokenService(config.jwtSecret, () => settings.tokenLifetimesS()),
    mailer,
    // In the database, so that the limits hold across parallel requests and several nodes
    // (docs/security.md, hole 3).
    loginLimiter: new DbAttemptLimiter(db, 'login', loginLimit.maxFailures, loginLimit.windowMs, now),
    resetLimiter: new DbAttemptLimiter(db, 'reset', loginLimit.maxFailures, loginLimit.windowMs, now),
    // A test moves every service's clock at once by assigning ctx.now (lib/clock.ts).
    get now() {
      return clock.read;
    },
    set now(read: () => number) {
      clock.read = read;
    },
    telemetry,
    ingestCounts,
    sessionEvents,
    sessions: new UserSessions({
      db,
      now,
      sessionEvents,
      lifetimes: config.sessions,
      log: (error) => log.error({ err: error }, 'session record: write failed'),
    }),
    stream,
    alarmFeed,
    alarmPublisher,
    collectors: new RunningCollectors(),
    alarmEngine,
    cluster,
    lease,
    reportSchedules: createReportScheduleRunner(
      { db, now, mailer, config },
      (actor, request) => renderScheduledReport(ctx, actor, request),
      options.reportSchedules,
    ),
    metrics,
    deviceNetworks,
    cameraStreams: new CameraStreamHub(),
    cameraProbe: new CameraProbe({ db, now, config, deviceNetworks }, log, options.cameraProbe),
    fileBuilds: new FileBuildPool({
      ...defaultFileBuildLimits(),
      ...(config.fileBuilds.threads ? { threads: config.fileBuilds.threads } : {}),
      perUser: config.fileBuilds.perUser,
      nice: config.fileBuilds.nice,
    }),
    uploadReadingSlots: createUploadReadingSlots(
      cluster.redis,
      config.database.dialect === 'postgres' ? config.database.schema : 'sqlite',
      (error) => log.warn({ err: error }, 'upload reading slots: redis failed; this node counts its own'),
    ),
    dataQualityThread: new DetectionRunner(detectionSourceOf(config.database, handle.sqlite)),
    performanceAnalyses: new KeptAnalyses(),
  };
  return ctx;
}

/**
 * What this node hears from the others on the cluster bus: saved settings and rules are read again from
 * the database, and after the bus was away (its connection dropped) everything the other nodes' messages
 * would have told is, since what they published meanwhile is lost.
 */
function relayClusterEvents(
  cluster: AppContext['cluster'],
  to: Pick<AppContext, 'settings' | 'stream' | 'alarmEngine'>,
  log: FastifyBaseLogger,
): void {
  const failed = (what: string) => (error: unknown) => log.error({ err: error }, `cluster: ${what} failed`);
  const reloadSettings = () => void to.settings.load().catch(failed('settings reload'));
  // A stopped engine (not the lease holder) ignores the reload.
  const reloadRules = () => void to.alarmEngine.reloadRulesFromPeer().catch(failed('rule reload'));
  to.settings.onSaved(() => cluster.publish('settings', null));
  cluster.on('settings', reloadSettings);
  cluster.on('rules', reloadRules);
  cluster.onResync(() => {
    void to.stream.resync().catch(failed('stream resync'));
    reloadSettings();
    reloadRules();
  });
}
