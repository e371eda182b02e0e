import ExcelJS from 'exceljs';
import {
  BUDGET_ENERGY_MAX_KWH,
  BUDGET_IMPORT_COLUMNS,
  BUDGET_IMPORT_MAX_ROWS,
  BUDGET_IRRADIATION_MAX_KWH_M2,
  BUDGET_YEAR_MAX,
  BUDGET_YEAR_MIN,
  V,
} from '@solar/shared';
import type { BudgetRow } from './budgets.repository';

/** A cell as read from the file: a number, a text, or empty. */
type Cell = number | string | null;

/** One data row with the file's 1-based line number (the header is line 1). */
export interface FileRow {
  line: number;
  cells: Cell[];
}

export interface RowProblem {
  line: number;
  column: string;
  message: string;
}

/** Splits one CSV line on the delimiter, honouring "quoted" fields (RFC 4180). */
function splitCsvLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

/** The rows of a CSV file: delimiter `;`, tab or `,` as its header line uses; blank lines skipped. */
export function csvRows(text: string): { header: string[]; rows: FileRow[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = lines[0] ?? '';
  const delimiter = head.includes(';') ? ';' : head.includes('\t') ? '\t' : ',';
  const rows: FileRow[] = [];
  lines.slice(1).forEach((l, i) => {
    if (l.trim() === '') return;
    rows.push({
      line: i + 2,
      cells: splitCsvLine(l, delimiter).map((c) => (c.trim() === '' ? null : c.trim())),
    });
  });
  return { header: splitCsvLine(head, delimiter).map((h) => h.trim().toLowerCase()), rows };
}

/** The rows of the first sheet of an XLSX workbook; empty rows skipped. */
export async function xlsxRows(data: Buffer): Promise<{ header: string[]; rows: FileRow[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return { header: [], rows: [] };
  const valueOf = (v: ExcelJS.CellValue): Cell => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number' || typeof v === 'string') return v;
    if (typeof v === 'object' && 'result' in v) return valueOf(v.result);
    if (typeof v === 'object' && 'richText' in v) return v.richText.map((r) => r.text).join('');
    // Dates, hyperlinks and errors are no budget figures: read as empty, so the row is refused.
    return null;
  };
  const header: string[] = [];
  const rows: FileRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells = Array.from({ length: BUDGET_IMPORT_COLUMNS.length }, (_, i) =>
      valueOf(row.getCell(i + 1).value),
    );
    if (line === 1)
      header.push(
        ...cells.map((c) =>
          String(c ?? '')
            .trim()
            .toLowerCase(),
        ),
      );
    else if (cells.some((c) => c !== null)) rows.push({ line, cells });
  });
  return { header, rows };
}

/** A number from a cell: numbers as they are; text with a decimal point or comma, no thousands separator. */
function numberOf(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (cell === null || !/^-?\d+([.,]\d+)?$/.test(cell)) return null;
  return Number(cell.replace(',', '.'));
}

/**
 * Checks every row and answers the budget rows, or every problem found (line, column, message key):
 * nothing is imported unless the whole file is good. `inScope` are the plants the caller may edit.
 */
export function checkRows(
  header: readonly string[],
  rows: readonly FileRow[],
  inScope: ReadonlySet<number>,
): { rows: BudgetRow[]; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const expected = BUDGET_IMPORT_COLUMNS;
  // The irradiation column may be left out; the others are required, in this order.
  const headerOk =
    expected.slice(0, 4).every((c, i) => header[i] === c) &&
    (header[4] === undefined || header[4] === '' || header[4] === expected[4]);
  if (!headerOk) return { rows: [], problems: [{ line: 1, column: 'header', message: V.invalidValue }] };
  if (!rows.length) return { rows: [], problems: [{ line: 2, column: 'plant_id', message: V.required }] };
  if (rows.length > BUDGET_IMPORT_MAX_ROWS)
    return {
      rows: [],
      problems: [{ line: BUDGET_IMPORT_MAX_ROWS + 2, column: 'plant_id', message: V.tooMany }],
    };
  const out: BudgetRow[] = [];
  const seen = new Set<string>();
  for (const { line, cells } of rows) {
    const problem = (column: string, message: string) => problems.push({ line, column, message });
    const int = (i: number, min: number, max: number) => {
      const v = numberOf(cells[i] ?? null);
      if (cells[i] === null || cells[i] === undefined) problem(expected[i]!, V.required);
      else if (v === null || !Number.isInteger(v)) problem(expected[i]!, V.invalidNumber);
      else if (v < min || v > max) problem(expected[i]!, V.outOfRange);
      else return v;
      return null;
    };
    const plantId = int(0, 1, 2_147_483_647);
    const year = int(1, BUDGET_YEAR_MIN, BUDGET_YEAR_MAX);
    const month = int(2, 1, 12);
    const energy = numberOf(cells[3] ?? null);
    if (cells[3] === null || cells[3] === undefined) problem('energy_kwh', V.required);
    else if (energy === null) problem('energy_kwh', V.invalidNumber);
    else if (energy < 0 || energy > BUDGET_ENERGY_MAX_KWH) problem('energy_kwh', V.outOfRange);
    const rawIrr = cells[4] ?? null;
    const irradiation = rawIrr === null ? null : numberOf(rawIrr);
    if (rawIrr !== null && irradiation === null) problem('irradiation_kwh_m2', V.invalidNumber);
    else if (irradiation !== null && (irradiation < 0 || irradiation > BUDGET_IRRADIATION_MAX_KWH_M2))
      problem('irradiation_kwh_m2', V.outOfRange);
    // A plant out of reach reads as unknown: its existence is not revealed.
    if (plantId !== null && !inScope.has(plantId)) problem('plant_id', V.invalidValue);
    const key = `${plantId}|${year}|${month}`;
    if (plantId !== null && year !== null && month !== null) {
      if (seen.has(key)) problem('month', V.duplicate);
      seen.add(key);
    }
    if (plantId !== null && year !== null && month !== null && energy !== null && energy >= 0)
      out.push({ plantId, year, month, energyKwh: energy, irradiationKwhM2: irradiation });
  }
  return { rows: problems.length ? [] : out, problems };
}
