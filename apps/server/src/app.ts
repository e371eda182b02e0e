import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { ensureSchema, openDatabase, type OpenOptions } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DbAttemptLimiter } from './lib/attempt-limiter';
import { DeviceNetworks } from './lib/device-networks';
import { createMailer } from './lib/mailer';
import { createBudgetedMailer, DbMailBudget } from './lib/mail-budget';
import { EventLoopWatch } from './lib/event-loop-watch';
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
import { CameraStreamHub } from './modules/cameras';
import {
  createAlarmEngine,
  type AlarmEngineOptions,
  createAlarmFeed,
  createAlarmPublisher,
} from './modules/alarms';
import { startKpiRefresh } from './modules/kpi';
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

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** What runs beside the HTTP server, once the app is ready (tests drive the demo simulator through it). */
  background: () => BackgroundWork | undefined;
  /** The SQLite file database's telemetry writer thread (telemetry-store/batch-writer.ts); else undefined. */
  telemetryWriter?: BatchWriterThread;
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
}

/** The port the server listens on, once it does. */
function boundPortOf(app: FastifyInstance | undefined): number[] {
  const address = app?.server.address();
  return address && typeof address === 'object' ? [address.port] : [];
}

/** Builds the whole server except listen(): tests build it and talk to it with inject or a real port. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BuiltApp> {
  const handle = openDatabase(config.database, { onQuery: options.onQuery });
  const schema = config.database.dialect === 'postgres' ? config.database.schema : undefined;
  if (schema) await ensureSchema(handle, schema);
  await migrateToLatest(handle, schema);
  // Before everything that reads a setting (token signing, the engine, the CSP, the mailer).
  const settings = new SettingsService({ db: handle.db, now: () => ctx.now() }, defaultSettings(config));
  await settings.load();

  // Reads the clock through ctx, so that a test that sets ctx.now moves the counters' clock too.
  const ingestCounts = new IngestCounts({ db: handle.db, now: () => ctx.now() });
  // SQLite file databases: batches' transactions on a thread of their own (batch-writer.ts).
  const writer =
    handle.sqlite && config.sqliteWriterThread
      ? startBatchWriter(
          handle.sqlite,
          handle.sqliteWriterGate!,
          handle.walCheckpointer,
          (details, message) =>
            handle.log ? handle.log.warn(details, message) : process.emitWarning(message),
        )
      : undefined;
  const telemetry = new TelemetryStore({
    db: handle.db,
    dialect: handle.dialect,
    sqlite: handle.sqlite,
    counts: ingestCounts,
    ...(writer ? { writer } : {}),
  });
  const metrics = new Metrics();
  metrics.setPool(handle.poolStats);
  metrics.setWal(handle.walCheckpoints);
  ingestCounts.onCount = (reason, n) => metrics.countRejected(reason, n);
  telemetry.onStored((points) => metrics.countStored(points.length));
  // Several nodes (issue 13): what other nodes must hear travels on the cluster bus; the singleton jobs run
  // on the node that holds the lease. On SQLite the bus is local and the lease is this process's.
  // The bus and the lease log through the server's logger once it exists.
  const logger: { current?: FastifyBaseLogger } = {};
  const log = () => logger.current ?? silentLog;
  // Built here, started with the app: a task that holds the loop is logged and shown in /metrics.
  const eventLoop = new EventLoopWatch(log);
  metrics.setEventLoop(() => eventLoop.takeFigures());
  const cluster = createClusterBus(config, handle.db, log);
  const lease = createLease({
    db: handle.db,
    dialect: handle.dialect,
    name: JOBS_LEASE,
    nodeId: config.cluster.nodeId,
    log,
  });
  // Stored telemetry of every node: the live stream and the engine judge points whichever node stored them.
  const liveTelemetry = clusterTelemetry(cluster, telemetry);
  const publishToPlant = clusterPlantEvents(cluster, (plantId, event, data, opts) =>
    ctx.stream.publishToPlant(plantId, event, data, opts),
  );
  const alarmFeed = createAlarmFeed();
  const alarmPublisher = createAlarmPublisher({
    db: handle.db,
    feed: alarmFeed,
    pushToPlant: publishToPlant,
  });
  const { loginLimit } = config;
  const sessionEvents = clusterSessionEvents(cluster, createSessionEvents());
  settings.onSaved(() => cluster.publish('settings', null));
  cluster.on('settings', () => {
    settings.load().catch((error: unknown) => log().error({ err: error }, 'cluster: settings reload failed'));
  });
  const engine = createAlarmEngine(
    {
      db: handle.db,
      now: () => ctx.now(),
      telemetry: liveTelemetry,
      publisher: alarmPublisher,
      conditions: () => settings.alarmConditions(),
      onEvaluated: (kind, seconds) => metrics.observeEvaluation(kind, seconds),
    },
    options.alarmEngine,
  );
  // A rule saved on any node reaches the engine on the lease holder (a stopped engine ignores the reload).
  cluster.on('rules', () => {
    engine
      .reloadRules()
      .catch((error: unknown) => log().error({ err: error }, 'cluster: rule reload failed'));
  });
  // The bus was away (its connection dropped): what other nodes published meanwhile is lost, so what this
  // node keeps from their messages is read again from the database.
  cluster.onResync(() => {
    ctx.stream
      .resync()
      .catch((error: unknown) => log().error({ err: error }, 'cluster: stream resync failed'));
    settings.load().catch((error: unknown) => log().error({ err: error }, 'cluster: settings reload failed'));
    engine
      .reloadRules()
      .catch((error: unknown) => log().error({ err: error }, 'cluster: rule reload failed'));
  });
  const now = () => ctx.now();
  const ctx: AppContext = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    ping: handle.ping,
    settings,
    tokens: new TokenService(config.jwtSecret, () => settings.tokenLifetimesS()),
    // Every mail first takes its place in its recipients' daily budget, counted in the database
    // (docs/security.md, "Mail and schedules").
    mailer: createBudgetedMailer(
      createSettingsMailer(
        settings,
        createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir }),
      ),
      new DbMailBudget(handle.db, config.mailLimits, now),
      (budget, recipients) => {
        metrics.countMailHeld(budget);
        // The domains only: the log must not become a list of addresses.
        const domains = recipients.map((r) => r.slice(r.lastIndexOf('@') + 1));
        log().warn({ budget, domains }, "mail held back: the recipient's daily budget is used up");
      },
    ),
    // In the database, so that the limits hold across parallel requests and several nodes (issue 13).
    loginLimiter: new DbAttemptLimiter(handle.db, 'login', loginLimit.maxFailures, loginLimit.windowMs, now),
    resetLimiter: new DbAttemptLimiter(handle.db, 'reset', loginLimit.maxFailures, loginLimit.windowMs, now),
    now: options.now ?? Date.now,
    telemetry,
    ingestCounts,
    // Reads the clock through ctx, so that a test that sets ctx.now moves the hub's clock too.
    sessionEvents,
    sessions: new UserSessions({
      db: handle.db,
      now: () => ctx.now(),
      sessionEvents,
      lifetimes: config.sessions,
      log: (error) => app.log.error({ err: error }, 'session record: write failed'),
    }),
    stream: createStreamHub({
      db: handle.db,
      dialect: handle.dialect,
      telemetry: liveTelemetry,
      now: () => ctx.now(),
      sessionEvents,
    }),
    alarmFeed,
    alarmPublisher,
    collectors: {},
    alarmEngine: {
      ...engine,
      async reloadRules() {
        await engine.reloadRules();
        cluster.publish('rules', null);
      },
    },
    cluster,
    lease,
    reportSchedules: createReportScheduleRunner(
      { db: handle.db, now: () => ctx.now(), mailer: { send: (mail) => ctx.mailer.send(mail) }, config },
      (actor, request) => renderScheduledReport(ctx, actor, request),
      options.reportSchedules,
    ),
    metrics,
    deviceNetworks: new DeviceNetworks({
      allowed: () => settings.deviceNetworks(),
      extraAllowed: config.deviceNetworks.extraAllowed,
      // The configured port, and the one actually bound (tests and PORT=0 listen on a port chosen then).
      ownPorts: () => [config.port, ...boundPortOf(app)],
    }),
    cameraStreams: new CameraStreamHub(),
    fileBuilds: new FileBuildPool({
      ...defaultFileBuildLimits(),
      ...(config.fileBuilds.threads ? { threads: config.fileBuilds.threads } : {}),
      perUser: config.fileBuilds.perUser,
    }),
  };
  metrics.setSseClients(() => ctx.stream.size);
  metrics.registerLease(lease.name, () => lease.isHeld());
  if (config.demo) await seedDemo(ctx);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
      ],
    },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    trustProxy: config.trustProxy,
    bodyLimit: 8 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  logger.current = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics, token: config.metricsToken });
  await app.register(securityPlugin, {
    tileUrl: () => settings.current().map_tile_url,
    https: /^https:\/\//i.test(config.publicUrl),
  });
  await app.register(cookie);
  await app.register(xsrfPlugin, { secure: config.cookieSecure });
  handle.log = app.log;
  telemetry.log = app.log;
  ingestCounts.log = app.log;
  ingestCounts.start();
  alarmPublisher.log = app.log;
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
  const leader = () => lease.isHeld();
  const retention = startRetention(ctx, app.log, { leader });
  settings.start();
  // Subscribed before the collectors start, so that no stored point escapes its day's dirty mark.
  const kpiRefresh = startKpiRefresh(ctx, app.log, { leader });
  // Collectors and the demo simulator start once the server is ready and stop before the database closes.
  let background: BackgroundWork | undefined;
  let reports: { stop(): Promise<void> } | undefined;
  app.addHook('onReady', async () => {
    eventLoop.start();
    // Batches go to the writer thread from the first one (until then they are written in process).
    await writer?.ready;
    await cluster.ready();
    await lease.start();
    background = await startBackground(ctx, app.log);
    // On the lease holder; its first pass sends the runs missed while no node ran them.
    reports = await runWhileLeader(lease, app.log, 'report schedules', {
      start: () => Promise.resolve(ctx.reportSchedules.start(app.log)),
      stop: () => ctx.reportSchedules.stop(),
    });
  });
  app.addHook('onClose', async () => {
    eventLoop.stop();
    await background?.stop();
    // After the collectors, so that what they counted last is written.
    await ingestCounts.stop();
    await retention.stop();
    await kpiRefresh.stop();
    settings.stop();
    await reports?.stop();
    await ctx.reportSchedules.stop();
    await ctx.fileBuilds.close();
    // Released last: another node takes the jobs over at once.
    await lease.stop();
    await cluster.stop();
    // After everything that stores telemetry, before the connections it shares the file with.
    await writer?.stop();
    await handle.close();
  });
  return { app, ctx, background: () => background, ...(writer ? { telemetryWriter: writer } : {}) };
}
