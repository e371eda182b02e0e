import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  isCidr,
  REPORT_SCHEDULES_PER_COMPANY_DEFAULT,
  REPORT_SCHEDULES_PER_USER_DEFAULT,
} from '@solar/shared';
import type { MailDailyLimits } from './lib/mailer';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\//,
      'must start with postgres:// (leave it unset for the embedded SQLite database)',
    )
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default('public'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: z.url('must be an absolute URL such as https://console.example.com').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Solar Console <no-reply@localhost>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO: z.enum(['true', 'false']).optional(),
  WEB_DIST: z.string().optional(),
  REPORT_SCHEDULES_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(REPORT_SCHEDULES_PER_USER_DEFAULT),
  REPORT_SCHEDULES_PER_COMPANY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(REPORT_SCHEDULES_PER_COMPANY_DEFAULT),
  MAIL_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  MAIL_ALARM_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(100),
  MAIL_SECURITY_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  EDGE_SILENCE_SECONDS: z.coerce.number().int().min(60).max(86_400).default(210),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(15),
  SESSION_ABSOLUTE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(31_536_000)
    .default(30 * 86_400),
  SESSION_REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
  COOKIE_SECURE: z.enum(['true', 'false']).optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[\d.:/a-f, ]+)$/i,
      'must be true, false or a comma-separated list of proxy addresses',
    )
    .optional(),
  TELEMETRY_RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?|tcp):\/\//, 'must start with mqtt://, mqtts://, ws:// or wss://')
    .optional(),
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,23}$/, 'must be 1-23 letters, digits, - or _')
    .optional(),
  MQTT_CONNECTIONS: z.coerce.number().int().min(1).max(256).default(16),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, - or _')
    .default('solar'),
  MODBUS_POLLER: z.enum(['true', 'false']).default('true'),
  SQLITE_WRITER_THREAD: z.enum(['true', 'false']).default('true'),
  FILE_BUILD_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  FILE_BUILDS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  FILE_BUILD_NICE: z.coerce.number().int().min(0).max(19).default(0),
  SIMULATOR: z.enum(['true', 'false']).optional(),
  SIMULATOR_BACKFILL_DAYS: z.coerce.number().int().min(0).max(366).default(30),
  SIMULATOR_LONG_HISTORY_DAYS: z.coerce.number().int().min(0).max(1_830).default(1_460),
  MAP_TILE_URL: z
    .string()
    .regex(
      /^https?:\/\/[^/\s]+\/\S*\{z\}\S*\{x\}\S*\{y\}\S*$/,
      'must be an http(s) tile URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    )
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_TILE_ATTRIBUTION: z.string().min(1).max(300).default('© OpenStreetMap contributors'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be 1-100 letters, digits, _ . : or -')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  DEVICE_NETWORKS_ALLOW: z
    .string()
    .refine(
      (v) => commaList(v).every(isCidr),
      'must be a comma-separated list of networks in CIDR notation, e.g. 127.0.0.0/8,::1/128',
    )
    .optional(),
  SERIAL_PORTS_ALLOW: z
    .string()
    .refine(
      (v) => commaList(v).every((prefix) => prefix.startsWith('/')),
      'must be a comma-separated list of absolute path prefixes, e.g. /dev/ttyUSB,/dev/ttyS',
    )
    .optional(),
});

/** A comma-separated list: its trimmed, non-empty items (networks, path prefixes). */
const commaList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; schema: string };
  jwtSecret: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  outboxDir: string;
  logLevel: string;
  /** Seed the demo organisation and accounts on an empty database. */
  demo: boolean;
  /** Built web app to serve; undefined serves the API only. */
  webDist: string | undefined;
  loginLimit: { maxFailures: number; windowMs: number };
  /** An edge agent silent for longer raises its plant's communication loss (docs/edge.md); default 210 s. */
  edgeSilenceMs?: number;
  /** Report subscriptions one user, and one company's users together, may hold (docs/security.md). */
  reportScheduleLimits: { perUser: number; perCompany: number };
  /**
   * Mails one address may receive per UTC day, per budget (lib/mail-budget.ts, docs/security.md): security
   * mails (reset links, lockout notices) have their own, so report or alarm mails cannot use it up.
   */
  mailLimits: MailDailyLimits;
  /** log2 of scrypt's N; 15 = 32 MiB and about 80 ms per hash on this class of machine. */
  scryptLogN: number;
  /**
   * Sign-ins end `absoluteLifetimeMs` after they start, however often their token is refreshed; a refresh
   * retires the token it replaces, which other tabs may still use for `refreshGraceMs` (docs/security.md).
   */
  sessions: { absoluteLifetimeMs: number; refreshGraceMs: number };
  cookieSecure: boolean;
  /** Fastify's trustProxy: the client address comes from X-Forwarded-For only behind these proxies. */
  trustProxy: boolean | string;
  version: string;
  telemetry: {
    /** Raw points older than this are deleted; rollups are kept forever. */
    rawRetentionDays: number;
  };
  /**
   * Broker the MQTT collector subscribes to; undefined: no MQTT collector. It opens `connections`
   * connections in the shared-subscription group `shareGroup` (every server node uses the same group).
   */
  mqtt: { url: string; clientId: string; connections: number; shareGroup: string } | undefined;
  /** Poll active modbus_tcp and modbus_rtu devices (docs/modbus-rtu.md). */
  modbusPoller: boolean;
  /** SQLite file database: write telemetry batches on a thread of their own (telemetry-store/batch-writer.ts). */
  sqliteWriterThread: boolean;
  /**
   * Report and export files: threads building at once (default one per core beyond the first, at most
   * two), builds one user may have running or queued, and the threads' nice value (0: the process's own
   * priority) (file-builds/file-build-pool.ts).
   */
  fileBuilds: { threads: number | undefined; perUser: number; nice: number };
  /**
   * Run the plant simulator in-process (the demo), back-filling this many days of history on first start;
   * one plant's history reaches `longHistoryDays` back (not before its commissioning), the days before the
   * raw ones as hourly rollups of the coarse model (docs/simulator.md; 0 or absent: none).
   */
  simulator: { enabled: boolean; backfillDays: number; longHistoryDays?: number };
  /** The map's base layer: a Leaflet tile URL template and the attribution its licence asks for. */
  map: { tileUrl: string; tileAttribution: string };
  /** Bearer token that opens GET /metrics; undefined: /metrics answers 404. */
  metricsToken: string | undefined;
  /**
   * Several nodes (docs/operations.md): this node's name in leases and logs (NODE_ID, else host name and
   * pid), and Redis for the cluster bus when REDIS_URL is set (else PostgreSQL LISTEN/NOTIFY; alone on
   * SQLite).
   */
  cluster: { nodeId: string; redisUrl: string | undefined };
  /**
   * Where the server may connect to devices and cameras (lib/device-networks.ts, docs/security.md "Device
   * networks"). `extraAllowed` (DEVICE_NETWORKS_ALLOW) is allowed besides the admin's setting, even inside
   * the ranges refused by default: the demo and the tests name loopback there. Every failed connection is
   * answered when its deadline has passed since the request began, so that failures cannot be told apart.
   * `serialPorts` (SERIAL_PORTS_ALLOW): the path prefixes a Modbus RTU device's serial port may resolve to;
   * unset, SERIAL_PORTS_DEFAULT.
   */
  deviceNetworks: {
    extraAllowed: string[];
    cameraDeadlineMs: number;
    modbusDeadlineMs: number;
    serialPorts?: string[];
  };
}

/** Camera proxy: how long a camera may take to answer, and when every failure is answered. */
export const CAMERA_DEADLINE_MS = 5_000;
/** SunSpec discovery: how long a device may take to answer first, and when every failure is answered. */
export const MODBUS_DISCOVERY_DEADLINE_MS = 3_000;
/**
 * Allowed when DEVICE_NETWORKS_ALLOW is unset and the in-process simulator runs, whose devices and demo
 * cameras listen on loopback (apps/server/src/simulator). The simulator is off in production unless
 * SIMULATOR or DEMO turns it on, so production refuses loopback.
 */
const DEMO_LOOPBACK = ['127.0.0.0/8', '::1/128'];
/**
 * The serial ports a Modbus RTU device may use when SERIAL_PORTS_ALLOW is unset: the usual UART, USB and
 * board serial devices (/dev/serial/by-id/… links resolve to them). Anything else the server would open
 * read-write on a user's word: a watchdog device arms on open, another session's terminal takes input.
 */
export const SERIAL_PORTS_DEFAULT = [
  '/dev/ttyS',
  '/dev/ttyUSB',
  '/dev/ttyACM',
  '/dev/ttyAMA',
  '/dev/ttymxc',
  '/dev/ttyXRUSB',
];

export class ConfigError extends Error {}

/** The node's name in leases and logs: NODE_ID, else host name and process id. */
export function defaultNodeId(host: string, pid: number): string {
  return `${host}:${pid}`;
}

/** Reads and validates the environment; every bad value is named with what it must be. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const nodeId = e.NODE_ID ?? defaultNodeId(hostname(), process.pid);
  const simulatorEnabled = e.SIMULATOR
    ? e.SIMULATOR === 'true'
    : e.DEMO
      ? e.DEMO === 'true'
      : e.NODE_ENV !== 'production';
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    database: e.DATABASE_URL
      ? { dialect: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
      : { dialect: 'sqlite', file: path.join(dataDir, 'solar.db') },
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    publicUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    outboxDir: path.join(dataDir, 'outbox'),
    logLevel: e.LOG_LEVEL,
    demo: e.DEMO ? e.DEMO === 'true' : e.NODE_ENV !== 'production',
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    loginLimit: { maxFailures: e.LOGIN_MAX_FAILURES, windowMs: e.LOGIN_WINDOW_MINUTES * 60_000 },
    edgeSilenceMs: e.EDGE_SILENCE_SECONDS * 1000,
    reportScheduleLimits: {
      perUser: e.REPORT_SCHEDULES_PER_USER,
      perCompany: e.REPORT_SCHEDULES_PER_COMPANY,
    },
    mailLimits: {
      general: e.MAIL_DAILY_LIMIT,
      alarm: e.MAIL_ALARM_DAILY_LIMIT,
      security: e.MAIL_SECURITY_DAILY_LIMIT,
    },
    scryptLogN: e.SCRYPT_LOG_N,
    sessions: {
      absoluteLifetimeMs: e.SESSION_ABSOLUTE_SECONDS * 1000,
      refreshGraceMs: e.SESSION_REFRESH_GRACE_SECONDS * 1000,
    },
    cookieSecure: e.COOKIE_SECURE ? e.COOKIE_SECURE === 'true' : publicUrl.startsWith('https://'),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    version: process.env.npm_package_version ?? '0.1.0',
    telemetry: { rawRetentionDays: e.TELEMETRY_RAW_RETENTION_DAYS },
    mqtt: e.MQTT_URL
      ? {
          url: e.MQTT_URL,
          // Sessions are persistent: the id must stay the same across restarts, so it comes from NODE_ID
          // (stable, set on every node of a cluster), never from the host name and pid.
          clientId: e.MQTT_CLIENT_ID ?? (e.NODE_ID ? mqttClientIdOf(e.NODE_ID) : 'solar-console'),
          connections: e.MQTT_CONNECTIONS,
          shareGroup: e.MQTT_SHARE_GROUP,
        }
      : undefined,
    modbusPoller: e.MODBUS_POLLER === 'true',
    sqliteWriterThread: e.SQLITE_WRITER_THREAD === 'true',
    fileBuilds: { threads: e.FILE_BUILD_THREADS, perUser: e.FILE_BUILDS_PER_USER, nice: e.FILE_BUILD_NICE },
    // On by default exactly when the demo is: a fresh `npm start` shows live plants.
    simulator: {
      enabled: simulatorEnabled,
      backfillDays: e.SIMULATOR_BACKFILL_DAYS,
      longHistoryDays: e.SIMULATOR_LONG_HISTORY_DAYS,
    },
    map: { tileUrl: e.MAP_TILE_URL, tileAttribution: e.MAP_TILE_ATTRIBUTION },
    metricsToken: e.METRICS_TOKEN,
    cluster: { nodeId, redisUrl: e.REDIS_URL },
    deviceNetworks: {
      extraAllowed:
        e.DEVICE_NETWORKS_ALLOW !== undefined
          ? commaList(e.DEVICE_NETWORKS_ALLOW)
          : simulatorEnabled
            ? [...DEMO_LOOPBACK]
            : [],
      cameraDeadlineMs: CAMERA_DEADLINE_MS,
      modbusDeadlineMs: MODBUS_DISCOVERY_DEADLINE_MS,
      serialPorts:
        e.SERIAL_PORTS_ALLOW !== undefined ? commaList(e.SERIAL_PORTS_ALLOW) : [...SERIAL_PORTS_DEFAULT],
    },
    ...overrides,
  };
}

/**
 * The MQTT client id of a node: one per node, since a broker ends the older of two connections with the same
 * id (two nodes would take each other's sessions over and over). 14 characters, room for `-{i}`.
 */
export function mqttClientIdOf(nodeId: string): string {
  return `solar-${createHash('sha1').update(nodeId).digest('hex').slice(0, 8)}`;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}

/** A secret generated on first start and kept in the data directory, so tokens survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
