import { z } from 'zod';
import { calendarDateField, inOrder } from './dates';
import { budgetFiguresSchema } from './budget-figures';
import { energySourceSchema, excludedIrradianceSchema, kpiLossesSchema, lossKindSchema } from './kpi';
import { LOCALES } from './locales';
import { degradationResult } from './performance';
import { idListParam } from './telemetry';
import { V } from './validation';

/** The reports GET reports/{type} serves. */
export const REPORT_TYPES = ['production', 'fleet', 'alarms', 'inverters', 'degradation'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const reportTypeSchema = z.enum(REPORT_TYPES, { error: V.invalidValue });

export const REPORT_FORMATS = ['json', 'xlsx', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Rows of a production report: a plant's local days, months or years. */
export const REPORT_GRANULARITIES = ['day', 'month', 'year'] as const;
export type ReportGranularity = (typeof REPORT_GRANULARITIES)[number];

/**
 * CSV column separators. Named, not literal, so a URL needs no escaping; Turkish, German and Macedonian
 * Excel expect `semicolon` with a decimal comma, English Excel `comma` with a decimal point.
 */
export const CSV_DELIMITERS = ['comma', 'semicolon', 'tab'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];
export const CSV_DELIMITER_CHARS: Readonly<Record<CsvDelimiter, string>> = {
  comma: ',',
  semicolon: ';',
  tab: '\t',
};
export const csvDelimiterSchema = z.enum(CSV_DELIMITERS, { error: V.invalidValue });

/** The delimiter a locale's spreadsheet expects: `;` where the decimal separator is a comma. */
export const defaultCsvDelimiter = (lang: string): CsvDelimiter => (lang === 'en_US' ? 'comma' : 'semicolon');

/** Most plants one report may name (the fleet generator's 200 plants fit). */
export const REPORT_MAX_PLANTS = 500;
/** Longest range of a report, in local days (a leap year). */
export const REPORT_MAX_DAYS = 366;
/**
 * Most plant-days one report may read. A yearly report of 200 plants (73,200) is the largest we measured
 * under 10 s (docs/benchmarks.md); more is refused with errors.reportTooLarge instead of timing out.
 */
export const REPORT_MAX_PLANT_DAYS = 80_000;

/**
 * GET reports/{type}. `from` and `to` are local dates of the plants, both inclusive (a month is
 * `from=2026-10-01&to=2026-10-31`). No `plant_ids` means every plant in the caller's scope.
 */
export const reportQuery = z
  .object({
    plant_ids: idListParam(REPORT_MAX_PLANTS).optional(),
    from: calendarDateField(),
    to: calendarDateField(),
    lang: z.enum(LOCALES, { error: V.invalidValue }).default('tr_TR'),
    format: z.enum(REPORT_FORMATS, { error: V.invalidValue }).default('json'),
    /** Production rows; ignored by the other types. */
    granularity: z.enum(REPORT_GRANULARITIES, { error: V.invalidValue }).default('day'),
    /** CSV only; absent means the language's default (defaultCsvDelimiter). */
    delimiter: csvDelimiterSchema.optional(),
  })
  .refine((q) => inOrder(q.from, q.to, false), { error: V.rangeOrder, path: ['to'] });
export type ReportQuery = z.input<typeof reportQuery>;
export type ReportQueryParsed = z.output<typeof reportQuery>;

export const reportTypeParam = z.object({ type: reportTypeSchema });

/** A plant as a report heads it. */
export const reportPlantSchema = z.object({
  plant_id: z.number().int(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  time_zone: z.string(),
  dc_capacity_kwp: z.number().nullable(),
});
export type ReportPlant = z.infer<typeof reportPlantSchema>;

/** One production figure set (a row or a total). */
export const productionFiguresSchema = budgetFiguresSchema.extend({
  /** The plant's energy as its KPIs count it (meter first), with its source (kpi.ts, `energy_source`). */
  energy_kwh: z.number().nullable(),
  energy_source: energySourceSchema,
  specific_yield_kwh_kwp: z.number().nullable(),
  irradiation_kwh_m2: z.number(),
  pr: z.number().nullable(),
  pr_temperature_corrected: z.number().nullable(),
  /** Time-based availability, 0…1. */
  availability: z.number().nullable(),
  expected_energy_kwh: z.number(),
  losses: kpiLossesSchema,
  /** The share of the period that has data (kpi.ts, `coverage`); null when none of it has elapsed. */
  coverage: z.number().nullable(),
  /**
   * Hours of the period whose irradiance the figures left out (kpi.ts `excluded_irradiance_hours.total`;
   * a fleet's or several plants' total adds each plant's hours).
   */
  excluded_irradiance_hours_total: z.number(),
  /** Energy the figures did not count as produced (kpi.ts `excluded_energy_kwh.total`), kWh. */
  excluded_energy_kwh_total: z.number(),
});
export type ProductionFigures = z.infer<typeof productionFiguresSchema>;

const reportHead = {
  from: z.string(),
  to: z.string(),
  lang: z.enum(LOCALES),
  generated_at: z.string(),
};

export const productionReportAnswer = z.object({
  type: z.literal('production'),
  ...reportHead,
  granularity: z.enum(REPORT_GRANULARITIES),
  plants: z.array(
    reportPlantSchema.extend({
      totals: productionFiguresSchema,
      /**
       * The hours of the period whose irradiance the figures left out (doubted by the data-quality engine),
       * per reason and in total: GET plants/{id}/kpis's figure for the same plant and dates.
       */
      excluded_irradiance_hours: excludedIrradianceSchema,
      /** key: YYYY-MM-DD, YYYY-MM or YYYY by granularity. */
      rows: z.array(productionFiguresSchema.extend({ key: z.string() })),
    }),
  ),
  /** Every plant together; ratios recomputed from the sums. */
  totals: productionFiguresSchema,
});
export type ProductionReportAnswer = z.infer<typeof productionReportAnswer>;

/**
 * The fleet report: per plant the period's figures with the fleet loss view's columns (GET plants/losses:
 * expected and actual energy, the loss by kind, availability, PR, coverage and the largest loss), computed by
 * the same service. A negative loss is energy above what the model expected.
 */
export const fleetReportAnswer = z.object({
  type: z.literal('fleet'),
  ...reportHead,
  plants: z.array(
    reportPlantSchema.extend({
      ...productionFiguresSchema.shape,
      /** The kind that lost the most energy; null when none lost any (as GET plants/losses). */
      top_loss: lossKindSchema.nullable(),
      alarm_count: z.number().int(),
      /** The hours whose irradiance the figures left out: GET plants/losses's figure for the plant. */
      excluded_irradiance_hours: excludedIrradianceSchema,
    }),
  ),
  totals: productionFiguresSchema.extend({
    alarm_count: z.number().int(),
    dc_capacity_kwp: z.number(),
    plant_count: z.number().int(),
  }),
});
export type FleetReportAnswer = z.infer<typeof fleetReportAnswer>;

/** Count, mean, median and maximum of durations in minutes; null figures when there were none. */
export const durationStatsSchema = z.object({
  count: z.number().int(),
  mean_minutes: z.number().nullable(),
  median_minutes: z.number().nullable(),
  max_minutes: z.number().nullable(),
});
export type DurationStats = z.infer<typeof durationStatsSchema>;

export const alarmsReportAnswer = z.object({
  type: z.literal('alarms'),
  ...reportHead,
  plants: z.array(reportPlantSchema),
  alarm_count: z.number().int(),
  /** priority_id 1 low … 4 high and dangerous. */
  by_priority: z.array(z.object({ priority_id: z.number().int(), count: z.number().int() })),
  /** device_type null: alarms of the plant itself. */
  by_device_type: z.array(z.object({ device_type: z.string().nullable(), count: z.number().int() })),
  /** Raised → acknowledged (approved or rejected). */
  time_to_acknowledge: durationStatsSchema,
  /** Fault opened → resolved or closed. */
  time_to_repair: durationStatsSchema,
  fault_count: z.number().int(),
  /** Most alarms first, at most 10. */
  top_devices: z.array(
    z.object({
      device_id: z.number().int(),
      device_name: z.string(),
      device_type: z.string(),
      plant_id: z.number().int(),
      plant_name: z.string(),
      alarm_count: z.number().int(),
    }),
  ),
});
export type AlarmsReportAnswer = z.infer<typeof alarmsReportAnswer>;

export const invertersReportAnswer = z.object({
  type: z.literal('inverters'),
  ...reportHead,
  plants: z.array(reportPlantSchema),
  inverters: z.array(
    z.object({
      device_id: z.number().int(),
      name: z.string(),
      plant_id: z.number().int(),
      plant_name: z.string(),
      rated_power_kw: z.number().nullable(),
      /** The plant's P0 shared by rated AC power. */
      dc_capacity_kwp: z.number().nullable(),
      energy_kwh: z.number().nullable(),
      specific_yield_kwh_kwp: z.number().nullable(),
      /** specific yield / the plant's mean specific yield of its inverters; < 1 is below its siblings. */
      relative_to_plant_mean: z.number().nullable(),
    }),
  ),
});
export type InvertersReportAnswer = z.infer<typeof invertersReportAnswer>;

/**
 * The yearly degradation report: per plant and per inverter the year-on-year degradation rate from the
 * history up to the period's last day (GET plants/{id}/performance's method and answer), or what data was
 * found when it is too little, and the period's soiling-corrected normalised energy month by month.
 */
export const degradationReportAnswer = z.object({
  type: z.literal('degradation'),
  ...reportHead,
  plants: z.array(
    reportPlantSchema.extend({
      degradation: degradationResult,
      inverters: z.array(
        z.object({ device_id: z.number().int(), name: z.string(), result: degradationResult }),
      ),
      /** The period's months (YYYY-MM): median normalised energy of the usable days, and how many there were. */
      months: z.array(
        z.object({
          month: z.string(),
          normalized_energy: z.number().nullable(),
          usable_days: z.number().int(),
        }),
      ),
    }),
  ),
});
export type DegradationReportAnswer = z.infer<typeof degradationReportAnswer>;

export const reportAnswer = z.discriminatedUnion('type', [
  productionReportAnswer,
  fleetReportAnswer,
  alarmsReportAnswer,
  invertersReportAnswer,
  degradationReportAnswer,
]);
export type ReportAnswer = z.infer<typeof reportAnswer>;
