import { z } from 'zod';
import { refFilter, refId } from './common';
import { anyInstantField, calendarDateField, inOrder, instantField } from './dates';
import { DEVICE_TYPES } from './devices';
import { ENERGY_SOURCES } from './kpi';
import { V } from './validation';

/** Most points one POST /api/telemetry may carry. */
export const TELEMETRY_MAX_POINTS = 10_000;
/** A point stamped further ahead than this is refused: a device clock that runs ahead must not write the future. */
export const TELEMETRY_FUTURE_TOLERANCE_MS = 5 * 60_000;
/** Raw points are kept this many days unless TELEMETRY_RAW_RETENTION_DAYS says otherwise; rollups forever. */
export const TELEMETRY_RAW_RETENTION_DAYS_DEFAULT = 90;
/** `auto` picks the coarsest resolution that still gives at least this many points over the range. */
export const TELEMETRY_AUTO_MIN_POINTS = 300;
/** Most signals one query or one live subscription may name. */
export const TELEMETRY_MAX_SIGNALS = 200;

export const RESOLUTIONS = ['auto', 'raw', '5m', '1h', '1d'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
/** Stored rollup resolutions; `1d` buckets are calendar days in the plant's time zone. */
export const ROLLUP_RESOLUTIONS = ['5m', '1h', '1d'] as const;
export type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];
/** Fixed bucket widths; `1d` is absent on purpose (a local day is 23, 24 or 25 hours). */
export const FIXED_BUCKET_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

/** `sum` of a counter signal is its energy delta over the bucket; of any other signal, the sum of values. */
export const AGGREGATES = ['avg', 'min', 'max', 'last', 'sum'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/** Why one point of an otherwise well-formed batch was not stored. */
export const POINT_REJECTIONS = [
  /** No such signal in the sender's reach: one that does not exist and another company's answer alike. */
  'unknown_signal',
  /**
   * No longer answered (it told another company's signals from missing ones); kept so that counts stored
   * before still read.
   */
  'out_of_scope',
  'non_finite',
  'future',
  'inactive_signal',
  /** Older than the raw retention (TELEMETRY_RAW_RETENTION_DAYS): its rollup buckets are final. */
  'too_old',
  /**
   * A timestamp below TELEMETRY_EPOCH_SECONDS_BELOW_MS: epoch seconds sent where milliseconds belong
   * (1795453394 would otherwise be 1970-01-21). Refused, never guessed: a device that sends seconds must
   * be fixed, and a guess would be wrong for the rare real millisecond value.
   */
  'epoch_seconds',
  /** Outside the signal's validity bounds (its min_value/max_value, else its unit's default). */
  'out_of_range',
] as const;
export type PointRejection = (typeof POINT_REJECTIONS)[number];

/**
 * Timestamps below this many epoch milliseconds (1973-03-03) are taken for epoch seconds: as seconds it is
 * the year 5138, so no real seconds value reaches it, and no plant sent data in 1973.
 */
export const TELEMETRY_EPOCH_SECONDS_BELOW_MS = 1e11;

/** Duplicates of a stored point (same signal and timestamp), counted apart from refusals. */
export const DUPLICATE_KINDS = [
  /** Same value again (a retry, a broker redelivery): harmless. */
  'duplicate_identical',
  /** A different value for a stored (signal, timestamp): the stored value is kept, the new one dropped. */
  'duplicate_conflicting',
] as const;
export type DuplicateKind = (typeof DUPLICATE_KINDS)[number];

/** What the per-device ingest counters count: each refusal reason and each kind of duplicate. */
export const INGEST_COUNT_REASONS = [...POINT_REJECTIONS, ...DUPLICATE_KINDS] as const;
export type IngestCountReason = (typeof INGEST_COUNT_REASONS)[number];

/** GET /api/devices/{id}/ingest-counts: points of the device refused or duplicated, per reason, since ever. */
export const ingestCountsAnswer = z.object({
  device_id: z.number().int(),
  /** Reasons that happened at least once, in INGEST_COUNT_REASONS order. */
  items: z.array(
    z.object({
      reason: z.enum(INGEST_COUNT_REASONS),
      count: z.number().int(),
      /** When it last happened (ISO 8601, UTC). */
      last_at: z.string(),
    }),
  ),
});
export type IngestCountsAnswer = z.infer<typeof ingestCountsAnswer>;

/**
 * One point. `value` is any JSON number or null here: a null or an overflowing number (1e999 parses as
 * Infinity) is a per-point refusal (`non_finite`), not a malformed request.
 */
export const telemetryPointInput = z.object({
  signal_id: refId(),
  /** Any instant: a point outside the accepted range is refused on its own (`too_old`, `future`). */
  ts: anyInstantField(),
  value: z.custom<number | null>((v) => v === null || typeof v === 'number', { error: V.invalidNumber }),
});
export type TelemetryPointInput = z.input<typeof telemetryPointInput>;

/** POST /api/telemetry. A malformed body stores nothing (400). */
export const telemetryIngestBody = z.object({
  points: z
    .array(telemetryPointInput, { error: V.required })
    .min(1, { error: V.required })
    .max(TELEMETRY_MAX_POINTS, { error: V.tooMany }),
});
export type TelemetryIngestBody = z.input<typeof telemetryIngestBody>;

export const telemetryIngestAnswer = z.object({
  /** Points now stored, new or already there (a repeated point is stored once and counted here). */
  stored: z.number().int(),
  /** Of `stored`, how many were already there. */
  duplicates: z.number().int(),
  /**
   * Of `duplicates`, how many came with a different value than the stored one (the stored value is kept);
   * the rest repeated it exactly.
   */
  conflicting_duplicates: z.number().int(),
  rejected: z.array(
    z.object({
      /** Position in `points`. */
      index: z.number().int(),
      signal_id: z.number().int(),
      reason: z.enum(POINT_REJECTIONS),
    }),
  ),
});
export type TelemetryIngestAnswer = z.infer<typeof telemetryIngestAnswer>;

/** `1,2,3` in a query string → [1, 2, 3]. */
export const idListParam = (max: number) =>
  z
    .string({ error: V.required })
    .min(1, { error: V.required })
    // Canonical decimals only, like every other id (no spaces, no leading zeros).
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, { error: V.invalidValue })
    .transform((v) => [...new Set(v.split(',').map(Number))])
    .refine((ids) => ids.length <= max, { error: V.tooMany })
    .refine((ids) => ids.every((id) => id >= 1 && id <= 2_147_483_647), { error: V.invalidValue });

const telemetryQueryFields = {
  signal_ids: idListParam(TELEMETRY_MAX_SIGNALS),
  from: instantField(),
  to: instantField(),
  resolution: z.enum(RESOLUTIONS, { error: V.invalidValue }).default('auto'),
  agg: z.enum(AGGREGATES, { error: V.invalidValue }).default('avg'),
};

/**
 * GET /api/telemetry. `raw` over more than one day answers 400 (errors.rawRangeTooLong); `auto` never
 * picks raw for more than a day.
 */
export const telemetryQuery = z
  .object(telemetryQueryFields)
  .refine((q) => inOrder(q.from, q.to, true), { error: V.rangeOrder, path: ['to'] });
export type TelemetryQuery = z.input<typeof telemetryQuery>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
/** GET /api/telemetry/export: the query of GET /api/telemetry as a table file. */
export const telemetryExportQuery = z
  .object({
    ...telemetryQueryFields,
    format: z.enum(EXPORT_FORMATS, { error: V.invalidValue }).default('csv'),
    /** CSV only: `semicolon` and `tab` write a decimal comma (Turkish and German Excel). */
    delimiter: z.enum(['comma', 'semicolon', 'tab'], { error: V.invalidValue }).default('comma'),
  })
  .refine((q) => inOrder(q.from, q.to, true), { error: V.rangeOrder, path: ['to'] });
export type TelemetryExportQuery = z.input<typeof telemetryExportQuery>;

/**
 * A series is compact on purpose: `[epoch ms, value]` pairs (a year of 5-minute data is 105,000 pairs).
 * ISO strings here would double the payload for no reader's benefit; the chart wants numbers.
 */
export const telemetrySeries = z.object({
  signal_id: z.number().int(),
  device_id: z.number().int(),
  device_name: z.string(),
  key: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  is_counter: z.boolean(),
  points: z.array(z.tuple([z.number(), z.number().nullable()])),
});
export type TelemetrySeries = z.infer<typeof telemetrySeries>;

export const telemetryAnswer = z.object({
  /** The resolution used (never `auto`). */
  resolution: z.enum(['raw', ...ROLLUP_RESOLUTIONS]),
  agg: z.enum(AGGREGATES),
  from: z.string(),
  to: z.string(),
  series: z.array(telemetrySeries),
});
export type TelemetryAnswer = z.infer<typeof telemetryAnswer>;

/** GET /api/telemetry/latest?device_id=… or ?plant_id=… (exactly one). */
export const latestQuery = z
  .object({ device_id: refFilter(), plant_id: refFilter() })
  .refine((q) => (q.device_id === undefined) !== (q.plant_id === undefined), {
    error: V.oneOfRequired,
    path: ['device_id'],
  });

export const latestValue = z.object({
  signal_id: z.number().int(),
  device_id: z.number().int(),
  key: z.string(),
  unit: z.string().nullable(),
  ts: z.string(),
  value: z.number(),
});
export type LatestValue = z.infer<typeof latestValue>;
export const latestAnswer = z.object({ items: z.array(latestValue) });

export const ENERGY_PERIODS = ['day', 'month', 'year'] as const;
export type EnergyPeriod = (typeof ENERGY_PERIODS)[number];

/**
 * GET /api/telemetry/energy: energy per local day, month or year of a plant or a device. A plant's is
 * the figure of its KPIs (meter first, else the inverters' sum) with its source, and the inverters' sum
 * beside it; a device's is its own counter's deltas. `from` and `to` are calendar dates in the plant's time
 * zone, both included.
 */
export const energyQuery = z
  .object({
    plant_id: refFilter(),
    device_id: refFilter(),
    period: z.enum(ENERGY_PERIODS, { error: V.invalidValue }).default('day'),
    from: calendarDateField(),
    to: calendarDateField(),
  })
  .refine((q) => (q.device_id === undefined) !== (q.plant_id === undefined), {
    error: V.oneOfRequired,
    path: ['plant_id'],
  })
  .refine((q) => inOrder(q.from, q.to, false), { error: V.rangeOrder, path: ['to'] });

/**
 * Where an energy item's figure comes from: a plant's is the KPI engine's (`meter`, `inverters` or `none`,
 * as GET plants/{id}/kpis names it); a device's is its own counter (`device`).
 */
export const ENERGY_ITEM_SOURCES = [...ENERGY_SOURCES, 'device'] as const;
export type EnergyItemSource = (typeof ENERGY_ITEM_SOURCES)[number];

export const energyItem = z.object({
  /** The period's start as YYYY-MM-DD (month: YYYY-MM-01, year: YYYY-01-01). */
  period: z.string(),
  /** kWh; null when nothing was counted in the period (missing data is not zero). */
  energy_kwh: z.number().nullable(),
  source: z.enum(ENERGY_ITEM_SOURCES),
  /**
   * A plant's only: the sum of its inverters' counters over the period, kWh (null without any). Beside a
   * meter's figure the difference is cable, transformer and own-use loss.
   */
  inverter_sum_kwh: z.number().nullable().optional(),
});
export type EnergyItem = z.infer<typeof energyItem>;

export const energyAnswer = z.object({
  time_zone: z.string(),
  period: z.enum(ENERGY_PERIODS),
  items: z.array(energyItem),
});
export type EnergyAnswer = z.infer<typeof energyAnswer>;

/**
 * GET /api/telemetry/catalog: what the data page offers to choose, for anyone with dashboard view (the
 * management lists need their own pages' permissions). Without `plant_id` the reachable active plants;
 * with it also that plant's active devices and their active signals.
 */
export const telemetryCatalogQuery = z.object({ plant_id: refFilter() });
export type TelemetryCatalogQuery = z.input<typeof telemetryCatalogQuery>;

export const catalogPlant = z.object({
  id: z.number().int(),
  name: z.string(),
  field_name: z.string(),
  time_zone: z.string(),
});
export type CatalogPlant = z.infer<typeof catalogPlant>;

export const catalogSignal = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  is_counter: z.boolean(),
});
export type CatalogSignal = z.infer<typeof catalogSignal>;

export const catalogDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(DEVICE_TYPES),
  parent_device_id: z.number().int().nullable(),
  /** Active signals by name. */
  signals: z.array(catalogSignal),
});
export type CatalogDevice = z.infer<typeof catalogDevice>;

export const telemetryCatalogAnswer = z.object({
  /** Active plants the caller reaches, by name. */
  plants: z.array(catalogPlant),
  /** With `plant_id`: the plant's active devices by name; absent otherwise. */
  devices: z.array(catalogDevice).optional(),
});
export type TelemetryCatalogAnswer = z.infer<typeof telemetryCatalogAnswer>;

/** POST devices/{id}/ingest-key and plants/{id}/ingest-key: the key is shown once, then only its prefix. */
export const ingestKeyAnswer = z.object({ key: z.string(), prefix: z.string(), created_at: z.string() });
export const ingestKeyInfo = z.object({ prefix: z.string().nullable(), created_at: z.string().nullable() });

/**
 * Events on GET /api/stream (Server-Sent Events). `resync`: the server node may have missed events (its
 * link to the other nodes dropped and came back); the client re-reads what it keeps from `alarm` events,
 * and the watched signals' latest values follow as `latest`.
 */
export const STREAM_EVENTS = ['hello', 'latest', 'alarm', 'resync'] as const;
/** `latest` event data: new values of subscribed signals, `[signal_id, epoch ms, value]`. */
export type StreamLatestEvent = [number, number, number][];
