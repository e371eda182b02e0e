import { BUDGET_IMPORT_MAX_ROWS } from '@solar/shared';

const MiB = 1024 * 1024;

/**
 * What one budget file may hold, enforced while it is read (docs/security.md, "Uploads"). A real budget
 * file is small: 12,000 rows of five figures are about 280 KB as XLSX, 1.6 MB inflated. The limits leave
 * room for formatting and a few extra columns and refuse anything that would take long or much memory.
 */
export const BUDGET_FILE_LIMITS: BudgetFileLimits = {
  /** Rows with a figure in the first five columns: the 12,001st ends the reading and refuses the file. */
  maxDataRows: BUDGET_IMPORT_MAX_ROWS,
  /** Row elements of the sheet, empty ones (formatting only) included. */
  maxSheetRows: 4 * BUDGET_IMPORT_MAX_ROWS,
  /** Cells of the sheet, or fields of a CSV file, in every column. */
  maxCells: 20 * BUDGET_IMPORT_MAX_ROWS,
  /** Inflated bytes of the sheet read. */
  maxSheetBytes: 32 * MiB,
  /** Inflated bytes of the shared strings (the texts the sheet's cells point to). */
  maxSharedStringsBytes: 8 * MiB,
  /** Inflated bytes of each other part read: workbook, its relations, styles. */
  maxPartBytes: 1 * MiB,
  /** Bytes of XML without a tag boundary: bounds what the XML parser holds for one text or tag. */
  maxTokenBytes: 1 * MiB,
  /** Entries of the zip's central directory. */
  maxZipEntries: 1000,
};

/** The limits one file is read within (the tests read with smaller ones). */
export interface BudgetFileLimits {
  maxDataRows: number;
  maxSheetRows: number;
  maxCells: number;
  maxSheetBytes: number;
  maxSharedStringsBytes: number;
  maxPartBytes: number;
  maxTokenBytes: number;
  maxZipEntries: number;
}

/** The thread that reads a file: its heap, and how long it may take before it is ended. */
export const BUDGET_READER_THREAD = {
  maxOldGenerationSizeMb: 96,
  maxYoungGenerationSizeMb: 16,
  timeoutMs: 10_000,
} as const;

/**
 * Imports read at once: each is a thread of up to ~130 MB, and this machine class has two cores. One per
 * user keeps one account from taking both slots with retries.
 */
export const BUDGET_IMPORT_CONCURRENCY = { total: 2, perUser: 1, retryAfterS: 5 } as const;
