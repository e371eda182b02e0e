import { z } from 'zod';
import { INGEST_COUNT_REASONS } from './telemetry';
import { auditListFields, auditRangeInOrder } from './audit';
import { YEAR_MAX, YEAR_MIN, yearField } from './dates';
import { LOCALES } from './locales';
import { COMMUNICATION_STATES } from './device-status';
import { edgeAgentHealthItem } from './edge';
import { EMAIL_PATTERN, V, hasNoNul, isIpv4, isIpv6, optionalText } from './validation';

/**
 * The admin panel (/admin-panel, page `admin_panel`): system settings stored in the database,
 * the data collection health of the fleet, its ingest keys, and backup with the migration state.
 */

/**
 * A Leaflet tile URL template: http(s), a host, and {z}, {x}, {y}. Stricter than MAP_TILE_URL's check on
 * the host: it becomes a CSP source, where `;`, `,` or a quote would break the header of every answer.
 */
export const TILE_URL_PATTERN = /^https?:\/\/[A-Za-z0-9.:{}-]+\/\S*\{z\}\S*\{x\}\S*\{y\}\S*$/;

/** An integer in [min, max]; out of range answers `validation.outOfRange`. */
const boundedInt = (min: number, max: number) =>
  z
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(min, { error: V.outOfRange })
    .max(max, { error: V.outOfRange });

/**
 * Bounds of the numeric settings, shared by the server's check and the form's inputs. The low ends keep a
 * slip of the hand from hurting the plant (a 0-day retention deletes every raw point; a 1-second digest
 * mails on every alarm); the high ends are where a bigger value stops meaning anything.
 */
export const SETTING_BOUNDS = {
  raw_retention_days: [1, 36_500],
  alarm_digest_interval_s: [10, 86_400],
  session_lifetime_h: [1, 168],
  remember_lifetime_days: [1, 365],
  irradiance_threshold_wm2: [10, 1500],
  no_production_delay_min: [1, 1440],
  performance_threshold_pct: [1, 90],
  performance_delay_min: [1, 1440],
  smtp_port: [1, 65_535],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * The networks devices and cameras may live in, by default: the private ranges plant networks use
 * (RFC 1918, RFC 4193). Loopback, link-local, unspecified and multicast addresses and the server's own
 * ports stay refused whatever the list says (docs/security.md, "Device networks").
 */
export const DEFAULT_DEVICE_NETWORKS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];
/** More networks than this is a sign of a paste gone wrong, not of a plant. */
export const DEVICE_NETWORKS_MAX = 64;

/** A network in CIDR notation: an IPv4 address with /0…/32, or an IPv6 address with /0…/128. */
export function isCidr(value: string): boolean {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!match) return false;
  const prefix = Number(match[2]);
  if (isIpv4(match[1]!)) return prefix <= 32;
  return isIpv6(match[1]!) && !match[1]!.includes('.') && prefix <= 128;
}

const cidrField = z
  .string({ error: V.invalidCidr })
  .max(50, { error: V.invalidCidr })
  .refine(isCidr, { error: V.invalidCidr });

const bounded = (key: keyof typeof SETTING_BOUNDS) =>
  boundedInt(SETTING_BOUNDS[key][0], SETTING_BOUNDS[key][1]);

/** The settings every node applies without a restart, as the admin edits them (POST admin/settings). */
export const systemSettingsFields = {
  /** Shown in the header and the browser tab; null: the translated product name. */
  site_name: optionalText(80).transform((v) => (v ? v : null)),
  /** The interface language of a browser that has not chosen one. */
  default_language: z.enum(LOCALES, { error: V.invalidValue }),
  /** The map's base layer; the Content-Security-Policy admits its host for images. */
  map_tile_url: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(500, { error: V.tooLong })
    .regex(TILE_URL_PATTERN, { error: V.invalidUrl }),
  map_tile_attribution: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(300, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue }),
  /** Raw points older than this are deleted hourly; rollups are kept. */
  raw_retention_days: bounded('raw_retention_days'),
  /** High alarms are collected this long before one digest mail per recipient. */
  alarm_digest_interval_s: bounded('alarm_digest_interval_s'),
  /** Lifetime of a session token, and of one signed in with "remember me". */
  session_lifetime_h: bounded('session_lifetime_h'),
  remember_lifetime_days: bounded('remember_lifetime_days'),
  /** The alarm engine's plant conditions (no production in daylight, underperformance against peers). */
  irradiance_threshold_wm2: bounded('irradiance_threshold_wm2'),
  no_production_delay_min: bounded('no_production_delay_min'),
  performance_threshold_pct: bounded('performance_threshold_pct'),
  performance_delay_min: bounded('performance_delay_min'),
  /** SMTP server; null: SMTP_URL from the environment, or the outbox directory without it. */
  smtp_host: z
    .string({ error: V.invalidValue })
    .trim()
    .max(253, { error: V.tooLong })
    .regex(/^[A-Za-z0-9.-]*$/, { error: V.invalidValue })
    .nullish()
    .transform((v) => (v ? v : null)),
  smtp_port: bounded('smtp_port'),
  /** Implicit TLS (port 465); false: STARTTLS when the server offers it. */
  smtp_secure: z.boolean({ error: V.invalidValue }),
  smtp_user: optionalText(200).transform((v) => (v ? v : null)),
  mail_from: z
    .string({ error: V.required })
    .trim()
    .min(3, { error: V.required })
    .max(200, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue }),
  /** Where devices and cameras may be: the server connects to no address outside these (CIDRs). */
  device_networks: z
    .array(cidrField, { error: V.invalidValue })
    .max(DEVICE_NETWORKS_MAX, { error: V.tooMany }),
};

/**
 * POST admin/settings: every setting. `smtp_password` is write-only: absent or null keeps the stored one,
 * an empty string removes it.
 */
export const systemSettingsBody = z
  .object({
    ...systemSettingsFields,
    smtp_password: z
      .string({ error: V.invalidValue })
      .max(200, { error: V.tooLong })
      .refine(hasNoNul, { error: V.invalidValue })
      .nullish(),
    // Absent keeps the stored list, so that a client that predates the setting cannot clear it.
    device_networks: systemSettingsFields.device_networks.optional(),
  })
  .strict();
export type SystemSettingsBody = z.input<typeof systemSettingsBody>;
export type SystemSettingsInput = z.output<typeof systemSettingsBody>;

/** GET admin/settings: the settings in force (stored, else the environment's or the built-in default). */
export const systemSettingsAnswer = z.object({
  site_name: z.string().nullable(),
  default_language: z.enum(LOCALES),
  map_tile_url: z.string(),
  map_tile_attribution: z.string(),
  raw_retention_days: z.number().int(),
  alarm_digest_interval_s: z.number().int(),
  session_lifetime_h: z.number().int(),
  remember_lifetime_days: z.number().int(),
  irradiance_threshold_wm2: z.number().int(),
  no_production_delay_min: z.number().int(),
  performance_threshold_pct: z.number().int(),
  performance_delay_min: z.number().int(),
  smtp_host: z.string().nullable(),
  smtp_port: z.number().int(),
  smtp_secure: z.boolean(),
  smtp_user: z.string().nullable(),
  /** Whether a password is stored; the password itself is never answered. */
  smtp_password_set: z.boolean(),
  mail_from: z.string(),
  device_networks: z.array(z.string()),
  /** When the admin last saved them; null: never (all defaults). */
  updated_at: z.string().nullable(),
});
export type SystemSettings = z.infer<typeof systemSettingsAnswer>;

/** GET settings/public (no sign-in): what the console shows before and after sign-in. */
export const publicSettingsAnswer = z.object({
  site_name: z.string().nullable(),
  default_language: z.enum(LOCALES),
  /**
   * The admin's logo (GET settings/logo, versioned by its ETag so that a new logo is fetched at once and an
   * unchanged one is cached); null: the built-in mark.
   */
  logo_url: z.string().nullable(),
});
export type PublicSettings = z.infer<typeof publicSettingsAnswer>;

/** POST admin/settings/test-mail: sends a test message to `to` (default: the admin's own address). */
export const testMailBody = z
  .object({
    to: z
      .string({ error: V.invalidEmail })
      .trim()
      .max(254, { error: V.tooLong })
      .regex(EMAIL_PATTERN, { error: V.invalidEmail })
      .nullish(),
  })
  .strict();
export type TestMailBody = z.input<typeof testMailBody>;
export const testMailAnswer = z.object({
  sent_to: z.string(),
  /** `smtp` (stored settings or SMTP_URL) or `outbox` (written to DATA_DIR/outbox). */
  transport: z.enum(['smtp', 'outbox']),
});
export type TestMailAnswer = z.infer<typeof testMailAnswer>;

/** GET admin/collection-health: one row per device, problems first. */
export const collectionHealthItem = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  device_type: z.string(),
  protocol: z.string(),
  is_active: z.boolean(),
  plant_id: z.number().int(),
  plant_name: z.string(),
  /** Newest stored sample (ISO 8601, UTC); null: never. */
  last_seen_at: z.string().nullable(),
  points_last_hour: z.number().int(),
  communication: z.enum(COMMUNICATION_STATES),
  /** Refused and duplicated points since ever, by reason (reasons that happened only). */
  rejected: z.array(
    z.object({ reason: z.enum(INGEST_COUNT_REASONS), count: z.number().int(), last_at: z.string() }),
  ),
  /** Refused points in total (duplicates not included). */
  rejected_total: z.number().int(),
  /** Lost communication, or refused points: what the list puts first. */
  has_problem: z.boolean(),
});
export type CollectionHealthItem = z.infer<typeof collectionHealthItem>;
export const collectionHealthAnswer = z.object({
  generated_at: z.string(),
  items: z.array(collectionHealthItem),
  /** The plants' edge agents (docs/edge.md), problems (stale, clock offset) first. */
  agents: z.array(edgeAgentHealthItem),
  // The collectors' own states (MQTT connections, broker drops, Modbus poll timings): GET health/collectors.
});
export type CollectionHealthAnswer = z.infer<typeof collectionHealthAnswer>;

/** GET admin/ingest-keys: the live ingest keys of the fleet (never the key, only its prefix). */
export const adminIngestKey = z.object({
  id: z.number().int(),
  prefix: z.string(),
  owner: z.enum(['device', 'plant']),
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  plant_id: z.number().int().nullable(),
  plant_name: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type AdminIngestKey = z.infer<typeof adminIngestKey>;
export const adminIngestKeyList = z.object({ items: z.array(adminIngestKey) });
export type AdminIngestKeyList = z.infer<typeof adminIngestKeyList>;

/** GET admin/system: version, database and migration state, and how to back up. */
export const systemInfoAnswer = z.object({
  version: z.string(),
  dialect: z.enum(['sqlite', 'postgres']),
  migrations: z.array(z.object({ name: z.string(), applied_at: z.string().nullable() })),
  /** Migrations this build knows that the database has not run (none after a normal start). */
  pending: z.array(z.string()),
  backup: z.discriminatedUnion('kind', [
    /** GET admin/backup downloads an online copy of the SQLite database. */
    z.object({ kind: z.literal('sqlite_download'), database_bytes: z.number().int() }),
    /** PostgreSQL: the pg_dump command to run (credentials from the environment, never shown). */
    z.object({ kind: z.literal('pg_dump'), command: z.string() }),
  ]),
});
export type SystemInfo = z.infer<typeof systemInfoAnswer>;

/** GET admin/audit/export: the audit log's filters, without paging (the newest AUDIT_EXPORT_MAX_ROWS rows). */
export const auditExportQuery = auditListFields
  .omit({ page: true, pageSize: true })
  .superRefine(auditRangeInOrder);
export type AuditExportQuery = z.input<typeof auditExportQuery>;
/** Rows in one audit CSV at most: a filter narrows a bigger log. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

/** Problem details of the admin panel's calls (i18n keys under errors.). */
export const ADMIN_ERRORS = {
  /** The logo is not a PNG, JPEG or WebP image by its bytes (whatever its name or declared type; 400). */
  logoType: 'errors.logoType',
  /** The logo is larger than LOGO_MAX_BYTES (400). */
  logoTooLarge: 'errors.logoTooLarge',
  /** The SMTP server refused the test mail or could not be reached (502). */
  mailFailed: 'errors.mailFailed',
  /** A SQLite backup asked of a PostgreSQL server, whose backup is pg_dump (409). */
  backupPgDump: 'errors.backupPgDump',
} as const;

/** GET admin/sessions: one signed-in session (a login, kept alive by its token's refreshes). */
export const adminSession = z.object({
  id: z.string(),
  user_id: z.number().int(),
  user_name: z.string(),
  email: z.string(),
  created_at: z.string(),
  /** Updated at most once a minute while the session is used. */
  last_seen_at: z.string(),
  expires_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The session of the caller's own token. */
  current: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSession>;
/** The active sessions (not expired, not ended by a password change or a revocation), newest use first. */
export const adminSessionList = z.object({ items: z.array(adminSession) });
export type AdminSessionList = z.infer<typeof adminSessionList>;
/** POST admin/users/{id}/revoke-sessions: every token of the user ends, and their live streams with them. */
export const revokeSessionsAnswer = z.object({ user_id: z.number().int(), revoked: z.number().int() });
export type RevokeSessionsAnswer = z.infer<typeof revokeSessionsAnswer>;

/** Largest site logo in bytes: a header mark, not a photo; it is kept in the database and sent often. */
export const LOGO_MAX_BYTES = 512 * 1024;
/**
 * Image types a logo may be, recognised by their bytes. SVG is refused: it can carry script, and a raster
 * logo needs no sanitiser.
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** POST admin/settings/logo: the image as base64 in JSON (no multipart parser needed, as budget imports). */
export const logoBody = z
  .object({
    content_base64: z
      .string({ error: V.required })
      .min(1, { error: V.required })
      // Base64 of LOGO_MAX_BYTES and its padding; the decoded size is checked again on the server.
      .max(Math.ceil(LOGO_MAX_BYTES / 3) * 4, { error: V.fileTooLarge })
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: V.invalidValue }),
  })
  .strict();
export type LogoBody = z.input<typeof logoBody>;

/** The stored logo (POST admin/settings/logo answers it). */
export const logoAnswer = z.object({
  logo_url: z.string(),
  content_type: z.enum(LOGO_TYPES),
  size_bytes: z.number().int(),
  updated_at: z.string(),
});
export type LogoAnswer = z.infer<typeof logoAnswer>;

/** A grid emission factor's country: ISO 3166-1 alpha-2, or DEFAULT for countries without one. */
export const CO2_DEFAULT_COUNTRY = 'DEFAULT';
export const CO2_COUNTRY_PATTERN = /^(?:[A-Z]{2}|DEFAULT)$/;
/**
 * Bounds of a factor in kg CO₂/kWh: 0 (an all-hydro or nuclear grid rounds to it) to 2, twice the most
 * carbon-intensive grids (lignite, oil); above that a slip of the hand (g instead of kg) is likelier.
 */
export const CO2_FACTOR_BOUNDS = [0, 2] as const;
/** The year a factor was published for: any year the API accepts (dates.ts). */
export const CO2_YEAR_BOUNDS = [YEAR_MIN, YEAR_MAX] as const;

export const co2CountryParam = z.object({
  country: z.string().trim().toUpperCase().regex(CO2_COUNTRY_PATTERN, { error: V.invalidValue }),
});

/** POST admin/co2-factors/{country}: the admin's factor for a country, with where it comes from. */
export const co2FactorBody = z
  .object({
    kg_per_kwh: z
      .number({ error: V.invalidNumber })
      .min(CO2_FACTOR_BOUNDS[0], { error: V.outOfRange })
      .max(CO2_FACTOR_BOUNDS[1], { error: V.outOfRange }),
    year: yearField(),
    source: z
      .string({ error: V.required })
      .trim()
      .min(1, { error: V.required })
      .max(300, { error: V.tooLong })
      .refine(hasNoNul, { error: V.invalidValue }),
  })
  .strict();
export type Co2FactorBody = z.input<typeof co2FactorBody>;

const co2Factor = z.object({ kg_per_kwh: z.number(), year: z.number().int(), source: z.string() });

/** One country's factor in force: the admin's override, else the built-in table's. */
export const co2FactorItem = co2Factor.extend({
  country: z.string(),
  origin: z.enum(['built_in', 'override']),
  /** The built-in factor, also when overridden; null: a country the table does not have. */
  built_in: co2Factor.nullable(),
  /** When the admin saved the override; null for a built-in factor. */
  updated_at: z.string().nullable(),
});
export type Co2FactorItem = z.infer<typeof co2FactorItem>;
/** GET admin/co2-factors: every country of the table and every override, DEFAULT last. */
export const co2FactorList = z.object({ items: z.array(co2FactorItem) });
export type Co2FactorList = z.infer<typeof co2FactorList>;
