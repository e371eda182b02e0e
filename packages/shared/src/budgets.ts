import { z } from 'zod';
import { YEAR_MAX, YEAR_MIN, yearField, yearQueryField } from './dates';
import { V } from './validation';

/** A budget's year: the design simulation covers the plant's operating life, within the API's years. */
export const BUDGET_YEAR_MIN = YEAR_MIN;
export const BUDGET_YEAR_MAX = YEAR_MAX;
/** Largest monthly figure we accept (a 1 GWp plant yields ~250 GWh a month at most). */
export const BUDGET_ENERGY_MAX_KWH = 1e9;
export const BUDGET_IRRADIATION_MAX_KWH_M2 = 400;
/** Rows one import may hold (500 plants × 12 months × 2 years). */
export const BUDGET_IMPORT_MAX_ROWS = 12_000;
/** Largest import file, in bytes of its base64 text. */
export const BUDGET_IMPORT_MAX_BASE64 = 8 * 1024 * 1024;

/** One month's P50 energy budget and the irradiation (H_POA) it assumes, where the simulation gives it. */
export const budgetMonthSchema = z.object({
  month: z
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(12, { error: V.outOfRange }),
  energy_kwh: z
    .number({ error: V.invalidNumber })
    .min(0, { error: V.outOfRange })
    .max(BUDGET_ENERGY_MAX_KWH, { error: V.outOfRange }),
  irradiation_kwh_m2: z
    .number({ error: V.invalidNumber })
    .min(0, { error: V.outOfRange })
    .max(BUDGET_IRRADIATION_MAX_KWH_M2, { error: V.outOfRange })
    .nullable(),
});
export type BudgetMonth = z.infer<typeof budgetMonthSchema>;

/** GET plants/{id}/budgets?year= */
export const budgetYearQuery = z.object({ year: yearQueryField() });

/** A plant's budget for one year; months without a budget are absent. */
export const plantBudgetAnswer = z.object({
  plant_id: z.number().int(),
  year: z.number().int(),
  months: z.array(budgetMonthSchema),
});
export type PlantBudgetAnswer = z.infer<typeof plantBudgetAnswer>;

/** POST plants/{id}/budgets: replaces the year's months (an absent month has no budget). */
export const plantBudgetBody = z.object({
  year: yearField(),
  months: z
    .array(budgetMonthSchema)
    .max(12, { error: V.tooMany })
    .refine((ms) => new Set(ms.map((m) => m.month)).size === ms.length, { error: V.duplicate }),
});
export type PlantBudgetBody = z.input<typeof plantBudgetBody>;

export const BUDGET_IMPORT_FORMATS = ['csv', 'xlsx'] as const;

/**
 * POST budgets/import: a CSV or XLSX file, base64 in JSON (no multipart parser needed). Its header row
 * names the columns `plant_id;year;month;energy_kwh;irradiation_kwh_m2` (`,` or `;`, decimal point or
 * comma); a row per plant and month. All rows are checked first; one bad row imports nothing.
 */
export const budgetImportBody = z.object({
  format: z.enum(BUDGET_IMPORT_FORMATS, { error: V.invalidValue }),
  content_base64: z
    .string({ error: V.required })
    .min(1, { error: V.required })
    .max(BUDGET_IMPORT_MAX_BASE64, { error: V.tooLong })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: V.invalidValue }),
});
export type BudgetImportBody = z.input<typeof budgetImportBody>;

/** A refused import's rows: the file's 1-based line (the header is line 1), the column and the message key. */
export const budgetImportRowError = z.object({
  line: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type BudgetImportRowError = z.infer<typeof budgetImportRowError>;

export const budgetImportAnswer = z.object({
  /** Rows stored (plant-months); 0 when refused. */
  imported: z.number().int(),
  plants: z.number().int(),
});
export type BudgetImportAnswer = z.infer<typeof budgetImportAnswer>;

/** Column names of the import file, in order. */
export const BUDGET_IMPORT_COLUMNS = [
  'plant_id',
  'year',
  'month',
  'energy_kwh',
  'irradiation_kwh_m2',
] as const;
