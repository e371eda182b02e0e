import {
  BUDGET_ENERGY_MAX_KWH,
  BUDGET_IMPORT_COLUMNS,
  BUDGET_IMPORT_MAX_ROWS,
  BUDGET_IRRADIATION_MAX_KWH_M2,
  BUDGET_YEAR_MAX,
  BUDGET_YEAR_MIN,
  V,
} from '@solar/shared';
import type { Cell, FileRow } from './budget-file-reader';
import type { BudgetRow } from './budgets.repository';

export interface RowProblem {
  line: number;
  column: string;
  message: string;
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
