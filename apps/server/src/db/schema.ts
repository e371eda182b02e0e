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
  /** Version stamped into session tokens; raising it ends every token issued before (migration 0013). */
  token_version: Generated<number>;
  /** When the email was proven to reach the user (epoch ms); null: unconfirmed (migration 0025). */
  email_confirmed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Attempts per limiter key (`login:ip:…`, `login:email:…`, `reset:…`) in the window that started at. */
export interface AttemptCountsTable {
  key: string;
  count: number;
  window_started_at: number;
}

/** Mails sent per budget, recipient and the recipient's local day (days since 1970-01-01; lib/mail-budget.ts). */
export interface MailCountsTable {
  budget: string;
  recipient: string;
  day: number;
  count: number;
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
  /** Power temperature coefficient γ per kelvin (migration 0008); PVWatts' −0.0037 by default. */
  temperature_coefficient_per_k: Generated<number>;
  /** Lumped system losses as a fraction (migration 0008); 0.14 by default. */
  system_loss_fraction: Generated<number>;
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
  /** modbus_rtu on a serial port: its path (ip and port are an RTU-over-TCP gateway's otherwise). */
  serial_path: string | null;
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
  /** Validity bounds in `unit` (migration 0011); null: the unit's default (shared signal-bounds.ts). */
  min_value: number | null;
  max_value: number | null;
  /**
   * JSON object: a vendor's state value → the console's (migration 0126; a register template's
   * `value_map`), applied by the Modbus poller; null: stored as read.
   */
  value_map: string | null;
}

/** Points of a device refused or duplicated at ingest, per reason (migration 0011). */
export interface DeviceIngestCountsTable {
  device_id: number;
  /** One of INGEST_COUNT_REASONS (packages/shared telemetry.ts). */
  reason: string;
  count: number;
  /** Epoch ms of the last one counted. */
  last_at: number;
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

/**
 * Raw points; (signal_id, ts) is the primary key, so a repeated point is stored once. On PostgreSQL the table
 * is partitioned by UTC month of ts (migration 0016: telemetry_raw_pYYYYMM and telemetry_raw_default).
 */
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
  /** Counter signals: increase the counter claimed beyond its device's bound (a jump), not in delta; null otherwise or before migration 0102. */
  rejected_delta: number | null;
}

export interface TelemetryLatestTable {
  signal_id: number;
  ts: number;
  value: number;
}

/** Each device's newest stored sample time (the fleet overview's communication state). */
export interface DeviceLastDataTable {
  device_id: number;
  ts: number;
}

/** What the camera probe last learnt of a camera (migration 0029); no row: never probed. */
export interface CameraProbesTable {
  device_id: number;
  /** Epoch ms of the last probe answered with an image; null while none was. */
  last_image_at: number | null;
  /** Epoch ms of the last probe. */
  probed_at: number;
  last_error: string | null;
}

/** The latest health report of a plant's edge agent (modules/edge). Times are epoch ms. */
export interface EdgeAgentsTable {
  plant_id: number;
  agent_id: string;
  version: string;
  /** The console's clock when the report arrived. */
  last_report_at: number;
  /** The agent's clock minus the console's. */
  clock_offset_ms: number;
  queue_depth: number;
  oldest_unsent_at: number | null;
  last_sent_at: number | null;
  dropped_total: number;
  poll_failures: number;
  uptime_s: number;
  /** Start of the current stretch of an offset beyond the bound; null within it. */
  clock_flag_from: number | null;
}

/** A stretch of a plant's data the data-quality engine does not believe (modules/data-quality). */
export interface DataQualityFlagsTable {
  id: Generated<number>;
  plant_id: number;
  device_id: number | null;
  signal_id: number | null;
  /** A DataQualityReason. */
  reason: string;
  /** The plant's local date (YYYY-MM-DD). */
  local_day: string;
  /** Signal, reason and start: one flag of its plant and day, kept across reruns when accepted. */
  flag_key: string;
  /** Epoch ms, [from_ts, to_ts). */
  from_ts: number;
  to_ts: number;
  readings: number;
  /** The detector's figures, JSON. */
  detail: Generated<string>;
  detected_at: number;
  accepted_at: number | null;
  accepted_by: number | null;
  accept_note: string | null;
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

/** Faults (migration 0007): one per alarm at most (alarm_id unique), or made by hand. */
export interface FaultsTable {
  id: Generated<number>;
  alarm_id: number | null;
  plant_id: number;
  device_id: number | null;
  tag_id: number | null;
  title: string;
  /** The alarm's message key (`alarms.msg.*`) the title was written from; null once a person edits it. */
  title_code: string | null;
  /** JSON object: the message's parameters. */
  title_params: string | null;
  description: string | null;
  /** 1 low, 2 medium, 3 high, 4 high and dangerous. */
  priority_id: number;
  status: 'open' | 'in_progress' | 'resolved' | 'closed';
  assignee_user_id: number | null;
  root_cause: string | null;
  resolution: string | null;
  created_by: number | null;
  /** When the problem began: the alarm's started_at, or created_at for a fault made by hand. */
  detected_at: number;
  created_at: number;
  /** First move out of `open` or first assignment. */
  acknowledged_at: number | null;
  resolved_at: number | null;
  closed_at: number | null;
  updated_at: number;
}

export interface FaultCommentsTable {
  id: Generated<number>;
  fault_id: number;
  user_id: number | null;
  body: string;
  created_at: number;
}

export interface FaultStatusHistoryTable {
  id: Generated<number>;
  fault_id: number;
  user_id: number | null;
  /** Null on the row written when the fault was created. */
  from_status: string | null;
  to_status: string;
  at: number;
}

/** Custom alarm rules (migration 0006). */
export interface CustomAlarmsTable {
  id: Generated<number>;
  tag_id: number;
  name: string;
  description: string | null;
  priority_id: number;
  operant: string;
  value: number;
  /** Epoch ms; null: open-ended. */
  started_at: number | null;
  end_at: number | null;
  is_active: number;
  on_delay_s: number;
  off_delay_s: number;
  hysteresis: number;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** Alarms (migration 0006); `active_key` is the condition key while the condition holds, unique. */
export interface AlarmsTable {
  id: Generated<number>;
  plant_id: number;
  device_id: number | null;
  tag_id: number | null;
  source: string;
  rule_id: number | null;
  condition_key: string;
  active_key: string | null;
  priority_id: number;
  /** i18n key under alarms.msg. */
  message: string;
  /** JSON object of the message's parameters. */
  message_params: string;
  status_id: number;
  started_at: number;
  cleared_at: number | null;
  approved_at: number | null;
  approved_by: number | null;
  rejected_at: number | null;
  rejected_by: number | null;
  fault_id: number | null;
  /**
   * The alarm of the same event this one followed (migration 0029): active on the same device or one above
   * it when this one was raised, within ALARM_GROUP_WINDOW_MS. Null: the alarm is its own cause.
   */
  cause_alarm_id: number | null;
}

/** Append-only alarm change log; id is the `alarms/listen` cursor. */
export interface AlarmEventsTable {
  id: Generated<number>;
  alarm_id: number;
  kind: string;
  at: number;
}

/** A finished local day of a plant: the KPI engine's additive DailyKpiSums (migration 0008). */
export interface KpiDailyTable {
  plant_id: number;
  /** Local date in the plant's time zone, YYYY-MM-DD. */
  date: string;
  energy_kwh: number | null;
  energy_source: string;
  irradiation_kwh_m2: number;
  irradiance_source: string;
  expected_energy_kwh: number;
  loss_downtime_kwh: number;
  loss_communication_gap_kwh: number;
  loss_clipping_kwh: number;
  loss_grid_curtailment_kwh: number;
  loss_underperformance_kwh: number;
  pr_energy_kwh: number;
  pr_irradiation_kwh_m2: number;
  pr_corrected_reference_kwh: number;
  available_rated_kw_intervals: number;
  assessed_rated_kw_intervals: number;
  co2_avoided_kg: number | null;
  /** Data completeness, additive: Σ expected and Σ received (capped) samples over the plant's devices. */
  expected_samples: number;
  received_samples: number;
  /**
   * Energy the day excluded (docs/kpi.md): counter jumps, a day's energy above what the plant can make, and
   * replayed devices' energy (migration 0111).
   */
  excluded_counter_jump_kwh: number;
  excluded_day_energy_impossible_kwh: number;
  excluded_replayed_day_kwh: number;
  /** The model parameters used; a row whose key differs from the plant's current one is recomputed. */
  params_key: string;
  computed_at: number;
}

/** (plant, local date) pairs whose telemetry changed after their kpi_daily row was computed. */
export interface KpiDirtyDaysTable {
  plant_id: number;
  date: string;
  marked_at: number;
}

/** Per plant, moved on by a trigger at every write of its kpi_daily rows (migration 0138). */
export interface KpiDayVersionsTable {
  plant_id: number;
  version: number;
}

/** A dragged node of a plant's single-line diagram (node ids as in packages/shared/src/topology.ts). */
export interface SingleLinePositionsTable {
  plant_id: number;
  node_id: string;
  x_px: number;
  y_px: number;
  updated_by: number | null;
  updated_at: number;
}

/** Admin-panel settings (migration 0020): one row per setting, its value as JSON. */
export interface SystemSettingsTable {
  key: string;
  value: string;
  updated_by: number | null;
  updated_at: number;
}

/** The site's logo (migration 0024): one row (id 1) at most; `etag` hashes the bytes. */
export interface SiteLogoTable {
  id: number;
  content_type: string;
  data: Buffer;
  size_bytes: number;
  etag: string;
  updated_by: number | null;
  updated_at: number;
}

/** The admin's grid emission factors by country (migration 0024); they win over the built-in table. */
export interface Co2FactorOverridesTable {
  country: string;
  kg_per_kwh: number;
  year: number;
  source: string;
  updated_by: number | null;
  updated_at: number;
}

/** One sign-in and the tokens refreshed from it (migration 0022); times in epoch ms. */
export interface UserSessionsTable {
  id: string;
  user_id: number;
  /** The user's token_version at sign-in: a raised version ends the session. */
  token_version: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
  /** The end of the sign-in: no refresh moves it (migration 0025). */
  absolute_expires_at: number;
  /** The generation of the session's current token; a refresh raises it. */
  token_generation: Generated<number>;
  /** The replaced generation (current - 1) is accepted until this (epoch ms); null: not at all. */
  previous_valid_until: number | null;
}

/** A pending change of a user's email, confirmed by a single-use link sent to it (migration 0025). */
export interface EmailChangesTable {
  id: Generated<number>;
  user_id: number;
  new_email: string;
  /** SHA-256 of the link's token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A user's subscription to a report by mail (migration 0019). */
export interface ReportSchedulesTable {
  id: Generated<number>;
  user_id: number;
  report_type: string;
  /** JSON array of plant ids. */
  plant_ids: string;
  /** JSON array of formats (pdf, xlsx). */
  formats: string;
  frequency: string;
  /** HH:MM local time. */
  local_time: string;
  /** ISO weekday 1…7 (weekly only). */
  weekday: number;
  time_zone: string;
  is_paused: Generated<number>;
  /** The occurrence being delivered (epoch ms): it fixes the report's period. */
  next_run_at: number;
  /** When the runner next tries it (epoch ms): later than next_run_at while a retry waits. */
  due_at: number;
  failed_attempts: Generated<number>;
  last_status: string | null;
  last_error: string | null;
  last_sent_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  users: UsersTable;
  user_units: UserUnitsTable;
  password_resets: PasswordResetsTable;
  attempt_counts: AttemptCountsTable;
  mail_counts: MailCountsTable;
  user_dashboards: UserDashboardsTable;
  audit_log: AuditLogTable;
  companies: CompaniesTable;
  fields: FieldsTable;
  plants: PlantsTable;
  devices: DevicesTable;
  signals: SignalsTable;
  device_status: DeviceStatusTable;
  device_ingest_counts: DeviceIngestCountsTable;
  telemetry_raw: TelemetryRawTable;
  telemetry_5m: TelemetryRollupTable;
  telemetry_1h: TelemetryRollupTable;
  telemetry_1d: TelemetryRollupTable;
  telemetry_latest: TelemetryLatestTable;
  device_last_data: DeviceLastDataTable;
  camera_probes: CameraProbesTable;
  edge_agents: EdgeAgentsTable;
  data_quality_flags: DataQualityFlagsTable;
  ingest_keys: IngestKeysTable;
  custom_alarms: CustomAlarmsTable;
  alarms: AlarmsTable;
  alarm_events: AlarmEventsTable;
  faults: FaultsTable;
  fault_comments: FaultCommentsTable;
  fault_status_history: FaultStatusHistoryTable;
  kpi_daily: KpiDailyTable;
  kpi_dirty_days: KpiDirtyDaysTable;
  kpi_day_versions: KpiDayVersionsTable;
  single_line_positions: SingleLinePositionsTable;
  system_settings: SystemSettingsTable;
  site_logo: SiteLogoTable;
  co2_factor_overrides: Co2FactorOverridesTable;
  user_sessions: UserSessionsTable;
  email_changes: EmailChangesTable;
  plant_budgets: PlantBudgetsTable;
  report_schedules: ReportSchedulesTable;
  cluster_leases: ClusterLeasesTable;
  plant_model_parameters: PlantModelParametersTable;
  history_imports: HistoryImportsTable;
  register_templates: RegisterTemplatesTable;
}

/** A company's own register-map templates (migration 0124). */
export interface RegisterTemplatesTable {
  id: Generated<number>;
  company_id: number;
  /** The template's `id`, unique in the company. */
  slug: string;
  vendor: string;
  label: string;
  device_type: string;
  /** JSON (registerTemplateSchema). */
  template: string;
  created_by: number | null;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
}

/** Files of history from other systems and their import jobs (migration 0105). */
export interface HistoryImportsTable {
  id: Generated<number>;
  plant_id: number;
  user_id: number | null;
  file_name: string;
  format: string;
  content: Buffer;
  /** JSON (historyFileDetection). */
  detection: string;
  /** JSON (historyImportMapping), once previewed or run. */
  mapping: string | null;
  state: string;
  points_total: number;
  points_done: number;
  points_new: number;
  points_existing: number;
  /** JSON array of message keys. */
  errors: string;
  /** Epoch ms. */
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** Epoch ms: when the node running the import last wrote it (migration 0112); null when none runs it. */
  heartbeat_at: number | null;
}

/** Who runs the cluster's singleton jobs, and until when (migration 0021). */
export interface ClusterLeasesTable {
  name: string;
  holder: string;
  /** Epoch ms; past it any node may take the lease. */
  expires_at: number;
  acquired_at: number;
  /** Grows by one at each change of holder. */
  generation: number;
}

/** A plant's P50 budget of one calendar month (migration 0017). */
export interface PlantBudgetsTable {
  plant_id: number;
  year: number;
  /** 1…12. */
  month: number;
  energy_kwh: number;
  irradiation_kwh_m2: number | null;
  /** Epoch ms. */
  updated_at: number;
}

/** A plant's expected-power parameters from a design or a fit, and its cleaning economics (migration 0104). */
export interface PlantModelParametersTable {
  plant_id: number;
  /** 'design' | 'fitted' ('default' when no row exists). */
  source: string;
  system_loss_fraction: number;
  temperature_coefficient_per_k: number;
  /** Standard errors of a fit. */
  system_loss_fraction_se: number | null;
  temperature_coefficient_per_k_se: number | null;
  /** JSON array of { name, fraction } from the design report. */
  loss_factors: Generated<string>;
  inverter_efficiency: number | null;
  ac_limit_kw: number | null;
  /** Local dates (YYYY-MM-DD) of the fit's window, inclusive. */
  fitted_from: string | null;
  fitted_to: string | null;
  fit_days: number | null;
  fit_rmse_kwh: number | null;
  cleaning_cost: number | null;
  energy_price_per_kwh: number | null;
  currency: string | null;
  updated_by: number | null;
  /** Epoch ms. */
  updated_at: number;
}
