import type { Generated } from 'kysely';

/**
 * Tables as Kysely sees them. Conventions that hold in both dialects: timestamps are epoch milliseconds
 * (bigint), flags are integers 0/1, JSON is stored as text.
 */
export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  is_admin: number;
  created_at: number;
  updated_at: number;
}

export interface RolePermissionsTable {
  role_id: number;
  page: string;
  method: string;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  surname: string;
  username: string;
  telephone: string;
  email: string;
  password_hash: string;
  language_id: number;
  is_active: number;
  role_id: number;
  /** The user's company; null only for the admin, who sees all companies. */
  company_id: number | null;
  /** Tokens issued (iat, seconds) before this are refused: set when the password changes. */
  tokens_valid_after: number;
  created_at: number;
  updated_at: number;
}

export interface UserUnitsTable {
  user_id: number;
  unit_type: string;
  unit_id: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the guid sent by mail; the guid itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UserDashboardsTable {
  user_id: number;
  data: string;
  updated_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  user_id: number | null;
  action: string;
  entity: string;
  entity_id: number | null;
  before: string | null;
  after: string | null;
  ip: string | null;
}

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  tax_number: string | null;
  tax_office: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  is_active: number;
  created_at: number;
  updated_at: number;
}

export interface FieldsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  city: string | null;
  district: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  is_active: number;
  created_at: number;
  updated_at: number;
}

export interface PlantsTable {
  id: Generated<number>;
  field_id: number;
  name: string;
  dc_capacity_kwp: number | null;
  ac_capacity_kw: number | null;
  latitude: number | null;
  longitude: number | null;
  /** IANA time zone, e.g. Europe/Istanbul. */
  time_zone: string;
  /** YYYY-MM-DD */
  commissioning_date: string | null;
  /** JSON array of strings. */
  subscriber_numbers: string;
  tilt_deg: number | null;
  azimuth_deg: number | null;
  is_active: number;
  created_at: number;
  updated_at: number;
}

export interface DevicesTable {
  id: Generated<number>;
  plant_id: number;
  parent_device_id: number | null;
  name: string;
  type: string;
  brand: string | null;
  model: string | null;
  serial_number: string | null;
  rated_power_kw: number | null;
  protocol: string;
  ip: string | null;
  port: number | null;
  slave_id: number | null;
  baud_rate: number | null;
  mqtt_topic: string | null;
  poll_interval_s: number;
  snapshot_url: string | null;
  stream_url: string | null;
  is_active: number;
  created_at: number;
  updated_at: number;
}

export interface SignalsTable {
  id: Generated<number>;
  device_id: number;
  key: string;
  name: string;
  unit: string | null;
  data_type: string;
  register_type: string | null;
  address: number | null;
  word_order: string | null;
  scale: number;
  is_counter: number;
  is_active: number;
  created_at: number;
  updated_at: number;
  /** SunSpec: address of the sunssf register whose sf scales the value (raw × 10^sf × scale); null: none. */
  scale_factor_address: number | null;
  /** SunSpec: the standard's point type (acc32, enum16…), for its not-implemented values; null: plain Modbus. */
  sunspec_type: string | null;
}

/** Communication state of a polled device (migration 0005); the alarms raise communication loss from it. */
export interface DeviceStatusTable {
  device_id: number;
  comm_state: 'online' | 'lost' | 'unknown';
  /** Polls missed in a row; 3 make the device `lost`. */
  missed_polls: number;
  last_ok_at: number | null;
  last_error: string | null;
  /** When comm_state last changed. */
  changed_at: number;
  updated_at: number;
}

/** Raw points; (signal_id, ts) is the primary key, so a repeated point is stored once. */
export interface TelemetryRawTable {
  signal_id: number;
  ts: number;
  value: number;
}

/** telemetry_5m, telemetry_1h, telemetry_1d: one row per signal and bucket start (1d: local midnight). */
export interface TelemetryRollupTable {
  signal_id: number;
  bucket: number;
  min: number;
  max: number;
  sum: number;
  count: number;
  first: number;
  first_ts: number;
  last: number;
  last_ts: number;
  /** Counter signals: increase over the bucket; null otherwise. */
  delta: number | null;
}

export interface TelemetryLatestTable {
  signal_id: number;
  ts: number;
  value: number;
}

export interface IngestKeysTable {
  id: Generated<number>;
  /** Exactly one of device_id and plant_id is set. */
  device_id: number | null;
  plant_id: number | null;
  /** SHA-256 hex of the key. */
  key_hash: string;
  prefix: string;
  created_at: number;
  created_by: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface Database {
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  users: UsersTable;
  user_units: UserUnitsTable;
  password_resets: PasswordResetsTable;
  user_dashboards: UserDashboardsTable;
  audit_log: AuditLogTable;
  companies: CompaniesTable;
  fields: FieldsTable;
  plants: PlantsTable;
  devices: DevicesTable;
  signals: SignalsTable;
  device_status: DeviceStatusTable;
  telemetry_raw: TelemetryRawTable;
  telemetry_5m: TelemetryRollupTable;
  telemetry_1h: TelemetryRollupTable;
  telemetry_1d: TelemetryRollupTable;
  telemetry_latest: TelemetryLatestTable;
  ingest_keys: IngestKeysTable;
}
