import type { AppConfig } from './config';
import type { ClusterBus } from './cluster/cluster-bus';
import type { Lease } from './cluster/lease';
import type { RunningCollectors } from './collectors/collector-status';
import type { Db, Dialect } from './db/database';
import type { FileBuildPool } from './file-builds/file-build-pool';
import type { AttemptLimiter } from './lib/attempt-limiter';
import type { DeviceNetworks } from './lib/device-networks';
import type { Mailer } from './lib/mailer';
import type { Metrics } from './lib/metrics';
import type { SessionEvents } from './lib/session-events';
import type { UserSessions } from './modules/auth';
import type { TokenService } from './lib/tokens';
import type { CameraProbe, CameraStreamHub } from './modules/cameras';
import type { AlarmEngine, AlarmFeed, AlarmPublisher } from './modules/alarms';
import type { SettingsService } from './modules/settings';
import type { ReportScheduleRunner } from './modules/report-schedules';
import type { StreamHub } from './modules/stream';
import type { UploadReadingSlots } from './modules/budgets';
import type { DetectionRunner } from './modules/data-quality';
import type { PerformanceAnalyses } from './modules/performance';
import type { IngestCounts } from './telemetry-store/ingest-counts';
import type { TelemetryHub } from './telemetry-store/telemetry-hub';

/** What feature modules are given: the database and the shared services, no Fastify. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  dialect: Dialect;
  ping(): Promise<void>;
  /** The admin panel's system settings, in memory; read them here, never from the environment directly. */
  settings: SettingsService;
  tokens: TokenService;
  mailer: Mailer;
  /** Login failures per IP and per email; reset requests per IP and per email. */
  loginLimiter: AttemptLimiter;
  resetLimiter: AttemptLimiter;
  now(): number;
  /** The one door telemetry goes in through, and the feed of what was stored. */
  telemetry: TelemetryHub;
  /** Per-device counts of refused and duplicate points, kept in memory and flushed every few seconds. */
  ingestCounts: IngestCounts;
  /** Changes to users' and roles' reach; the stream ends affected connections (lib/session-events.ts). */
  sessionEvents: SessionEvents;
  /** The record of signed-in sessions (user_sessions): written at sign-in, listed and revoked by the admin. */
  sessions: UserSessions;
  /** Live push to the browsers' Server-Sent Event streams (latest values, alarms), scoped per connection. */
  stream: StreamHub;
  /** Committed alarm changes, in process (the mail digest listens). */
  alarmFeed: AlarmFeed;
  /** Sends committed alarm events to live clients and to the feed. */
  alarmPublisher: AlarmPublisher;
  /** The collectors running on this node (MQTT, Modbus), which attach themselves as they start, for their health. */
  collectors: RunningCollectors;
  /** The one alarm engine; background.ts starts it, the alarm routes ask it to reload rules. */
  alarmEngine: AlarmEngine;
  /** The other server nodes (PostgreSQL LISTEN/NOTIFY, Redis pub/sub, or none on a single node). */
  cluster: ClusterBus;
  /**
   * The cluster's jobs lease: the node that holds it runs the alarm engine, scheduled reports, retention,
   * the KPI refresh and the camera probe (docs/operations.md, "Several nodes"). On SQLite the one process
   * holds it.
   */
  lease: Lease;
  /** Delivers the scheduled reports by mail; started once the server is ready. */
  reportSchedules: ReportScheduleRunner;
  /**
   * The Prometheus figures served at /metrics. Features report through it; a lease service registers its
   * leases with `metrics.registerLease(name, () => held)`.
   */
  metrics: Metrics;
  /**
   * Where devices and cameras may be (the admin's setting, DEVICE_NETWORKS_ALLOW, this server's own ports):
   * checked when an address is saved and again, after DNS, before every connection.
   */
  deviceNetworks: DeviceNetworks;
  /** One upstream connection per camera stream, fanned out to every viewer at a capped frame rate. */
  cameraStreams: CameraStreamHub;
  /**
   * Asks every camera for an image on the lease holder and records when each last answered with one: a
   * camera's link for the status rule, since it sends no telemetry (modules/cameras/camera-probe.ts).
   */
  cameraProbe: CameraProbe;
  /** The threads that build report and export files, with each user's limit (file-builds/file-build-pool.ts). */
  fileBuilds: FileBuildPool;
  /**
   * Upload reading slots: uploaded files (budget and history imports) being read at once, in all and per
   * user, shared by both imports: by every node on Redis, else this
   * process's (modules/budgets/upload-reading-slots.ts).
   */
  uploadReadingSlots: UploadReadingSlots;
  /**
   * The data-quality thread: the scheduled job's and the recheck's detectors (and SQLite reads) run there,
   * off the event loop (modules/data-quality/engine/detection-runner.ts).
   */
  dataQualityThread: DetectionRunner;
  /**
   * The plants' performance analyses kept under the stamp of their stored days, so a KPI call reads three
   * small rows instead of years of days while nothing changed (modules/performance/kept-analyses.ts).
   */
  performanceAnalyses: PerformanceAnalyses;
}
