import { z } from 'zod';
import { timeZoneField } from './common';
import { V } from './validation';

/**
 * History import from other systems (FusionSolar, Sunny Portal, data loggers): a CSV or XLSX file with a
 * time column and one column per quantity is uploaded, its shape detected, its columns mapped to a plant's
 * signals, previewed with a quality report, then stored in the background (docs/history-import.md).
 */

export const HISTORY_IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type HistoryImportFormat = (typeof HISTORY_IMPORT_FORMATS)[number];

/** The largest file accepted, in bytes: a year of 5-minute data of 20 inverters is about 20 MB as CSV. */
export const HISTORY_IMPORT_MAX_BYTES = 48 * 1024 * 1024;
/** Its base64 text in the JSON body. */
export const HISTORY_IMPORT_MAX_BASE64 = Math.ceil(HISTORY_IMPORT_MAX_BYTES / 3) * 4;
/** Data rows of all sheets together: a year of 1-minute data is 525,600. */
export const HISTORY_IMPORT_MAX_ROWS = 600_000;
/** Columns mapped in one import. */
export const HISTORY_IMPORT_MAX_COLUMNS = 500;

/** Error keys of the import (problem `detail`), translated in every locale. */
export const HISTORY_IMPORT_ERRORS = {
  /** The file cannot be read, or a cell is malformed: `errors` keyed `line N: C` (sheet-prefixed in XLSX). */
  invalid: 'errors.historyImportInvalid',
  /** The import has already run or is running: its mapping cannot change. */
  notEditable: 'errors.historyImportNotEditable',
  /** The background import stopped on a fault of the server's (the job's `errors`). */
  failed: 'errors.historyImportFailed',
  /**
   * The server stopped during the import and, on its start, could not take it up again: the mapping no
   * longer fits the plant (a signal removed) or the file no longer reads. Run again after a new mapping.
   */
  interrupted: 'errors.historyImportInterrupted',
} as const;

/** How the time column is written. `excel` is a spreadsheet's date serial (or a date-formatted cell). */
export const HISTORY_TIME_FORMATS = ['iso', 'dmy', 'mdy', 'epoch_s', 'epoch_ms', 'excel'] as const;
export type HistoryTimeFormat = (typeof HISTORY_TIME_FORMATS)[number];

export const HISTORY_DELIMITERS = [';', ',', '\t'] as const;
export const HISTORY_DECIMAL_MARKS = ['.', ','] as const;

/** Units a column may be in; `as_is` takes the values in the signal's own unit. */
export const HISTORY_COLUMN_UNITS = ['as_is', 'W', 'kW', 'MW', 'Wh', 'kWh', 'MWh'] as const;
export type HistoryColumnUnit = (typeof HISTORY_COLUMN_UNITS)[number];

/** An energy column holds a cumulative counter, or the energy of each interval. */
export const HISTORY_ENERGY_KINDS = ['counter', 'interval'] as const;

export const HISTORY_IMPORT_STATES = ['uploaded', 'queued', 'running', 'done', 'failed'] as const;
export type HistoryImportState = (typeof HISTORY_IMPORT_STATES)[number];

/** POST plants/{id}/history-imports: the file, base64 in JSON (as the budget import). */
export const historyImportUploadBody = z.object({
  file_name: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(200, { error: V.tooLong }),
  format: z.enum(HISTORY_IMPORT_FORMATS, { error: V.invalidValue }),
  content_base64: z
    .string({ error: V.required })
    .min(1, { error: V.required })
    .max(HISTORY_IMPORT_MAX_BASE64, { error: V.fileTooLarge })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: V.invalidValue }),
});
export type HistoryImportUploadBody = z.input<typeof historyImportUploadBody>;

/** One column of a sheet as detected: its 0-based index, spreadsheet letter, header text, and whether it holds figures. */
export const historyFileColumn = z.object({
  index: z.number().int(),
  letter: z.string(),
  name: z.string(),
  numeric: z.boolean(),
});
export type HistoryFileColumn = z.infer<typeof historyFileColumn>;

/** One table of the file (a CSV file has one; an XLSX workbook one per sheet, often one per device). */
export const historyFileSheet = z.object({
  name: z.string(),
  /** 1-based line of the header row (rows above it are titles, as portals write them). */
  header_line: z.number().int(),
  time_column: z.number().int(),
  columns: z.array(historyFileColumn),
  rows: z.number().int(),
  /** The first data rows as read (texts; empty cells ''), for the mapping form. */
  sample: z.array(z.array(z.string())),
});
export type HistoryFileSheet = z.infer<typeof historyFileSheet>;

/** What the upload found out about the file. */
export const historyFileDetection = z.object({
  /** CSV only. */
  delimiter: z.string().nullable(),
  decimal_mark: z.enum(HISTORY_DECIMAL_MARKS),
  time_format: z.enum(HISTORY_TIME_FORMATS),
  /** Whether the timestamps carry their own offset (`Z`, `+03:00`): the time zone is then ignored. */
  time_has_offset: z.boolean(),
  sheets: z.array(historyFileSheet),
});
export type HistoryFileDetection = z.infer<typeof historyFileDetection>;

export const historyColumnMapping = z.object({
  sheet: z.string().max(200),
  column: z.number().int().min(0).max(16_383),
  signal_id: z.number({ error: V.required }).int().positive({ error: V.required }),
  unit: z.enum(HISTORY_COLUMN_UNITS, { error: V.invalidValue }).default('as_is'),
  /** For energy columns: what the column holds; absent for other quantities. */
  energy: z.enum(HISTORY_ENERGY_KINDS, { error: V.invalidValue }).nullable().default(null),
});
export type HistoryColumnMapping = z.infer<typeof historyColumnMapping>;

/** POST history-imports/{id}/preview and …/run: how the file's columns become signals' points. */
export const historyImportMapping = z.object({
  /** The zone of the file's wall-clock timestamps; the plant's by default. */
  time_zone: timeZoneField().optional(),
  /** Overrides of what was detected. */
  time_format: z.enum(HISTORY_TIME_FORMATS, { error: V.invalidValue }).optional(),
  decimal_mark: z.enum(HISTORY_DECIMAL_MARKS, { error: V.invalidValue }).optional(),
  columns: z
    .array(historyColumnMapping)
    .min(1, { error: V.required })
    .max(HISTORY_IMPORT_MAX_COLUMNS, { error: V.tooMany }),
});
export type HistoryImportMapping = z.input<typeof historyImportMapping>;

/** Counts of one kind of problem found in the preview. */
export const historyQualityCount = z.object({
  /** A data-quality reason (gap, stale, spike, …) or one the import finds itself (duplicate, out_of_range, counter_backwards). */
  reason: z.string(),
  /** Flagged stretches. */
  flags: z.number().int(),
  /** Readings they cover (for gaps: readings missing). */
  readings: z.number().int(),
});

export const historyPreviewSignal = z.object({
  signal_id: z.number().int(),
  device_id: z.number().int(),
  device_name: z.string(),
  signal_key: z.string(),
  unit: z.string().nullable(),
  points: z.number().int(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  quality: z.array(historyQualityCount),
});

/** What an import would store, before anything is stored. */
export const historyImportPreview = z.object({
  rows: z.number().int(),
  points: z.number().int(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  time_zone: z.string(),
  /** Points older than the raw retention: stored as 5-minute, hourly and daily rollups only. */
  points_rollup_only: z.number().int(),
  signals: z.array(historyPreviewSignal),
  /** Every signal's problems summed. */
  quality: z.array(historyQualityCount),
});
export type HistoryImportPreview = z.infer<typeof historyImportPreview>;

/** An import and its progress (GET history-imports/{id}, polled while it runs). */
export const historyImportJob = z.object({
  id: z.number().int(),
  plant_id: z.number().int(),
  file_name: z.string(),
  format: z.enum(HISTORY_IMPORT_FORMATS),
  state: z.enum(HISTORY_IMPORT_STATES),
  detection: historyFileDetection,
  points_total: z.number().int(),
  points_done: z.number().int(),
  /** Points stored for the first time (raw, or rollup buckets' points when older than the retention). */
  points_new: z.number().int(),
  /** Points already stored: a second import of the same file has only these. */
  points_existing: z.number().int(),
  /** Message keys of what went wrong (state `failed`). */
  errors: z.array(z.string()),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type HistoryImportJob = z.infer<typeof historyImportJob>;

/** A plant's latest imports, newest first, with the plant's zone: their times are read on its clock. */
export const historyImportList = z.object({
  time_zone: z.string(),
  items: z.array(historyImportJob.omit({ detection: true })),
});
export type HistoryImportList = z.infer<typeof historyImportList>;
