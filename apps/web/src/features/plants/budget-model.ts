import { BUDGET_IMPORT_COLUMNS, type BudgetMonth, type PlantBudgetBody } from '@solar/shared';

/** One month as edited: either figure may be empty (no energy = no budget for that month). */
export interface MonthDraft {
  energy_kwh: number | null;
  irradiation_kwh_m2: number | null;
}

/** The twelve months of a year as the editor shows them. */
export type YearDraft = MonthDraft[];

/** Twelve months without a budget. */
export const emptyYear = (): YearDraft =>
  Array.from({ length: 12 }, () => ({ energy_kwh: null, irradiation_kwh_m2: null }));

/** The stored months of a year as twelve drafts. */
export function draftOf(months: readonly BudgetMonth[]): YearDraft {
  const draft = emptyYear();
  for (const m of months)
    draft[m.month - 1] = { energy_kwh: m.energy_kwh, irradiation_kwh_m2: m.irradiation_kwh_m2 };
  return draft;
}

/** The save body of a year's drafts: months with an energy figure; the others have no budget. */
export function bodyOf(year: number, draft: YearDraft): PlantBudgetBody {
  return {
    year,
    months: draft.flatMap((m, i) =>
      m.energy_kwh === null
        ? []
        : [{ month: i + 1, energy_kwh: m.energy_kwh, irradiation_kwh_m2: m.irradiation_kwh_m2 }],
    ),
  };
}

/** Months (1-12) of a draft with an irradiation but no energy: the schema needs the energy. */
export function monthsMissingEnergy(draft: YearDraft): number[] {
  return draft.flatMap((m, i) => (m.energy_kwh === null && m.irradiation_kwh_m2 !== null ? [i + 1] : []));
}

/** The sum of the given figures of a draft, or null when none is given. */
export function totalOf(draft: YearDraft, key: keyof MonthDraft): number | null {
  const given = draft.map((m) => m[key]).filter((v): v is number => v !== null);
  return given.length ? given.reduce((a, b) => a + b, 0) : null;
}

/**
 * A CSV to fill in for POST budgets/import: the header and a row per month of `year` for each plant,
 * `;`-separated (what Turkish and German Excel split on), with a BOM so that Excel reads UTF-8.
 */
export function templateCsv(plantIds: readonly number[], year: number): string {
  const rows = plantIds.flatMap((id) =>
    Array.from({ length: 12 }, (_, m) => [id, year, m + 1, '', ''].join(';')),
  );
  return `\uFEFF${[BUDGET_IMPORT_COLUMNS.join(';'), ...rows].join('\r\n')}\r\n`;
}

/** One problem of a refused import: the file's line (the header is 1), its column and message keys. */
export interface ImportProblem {
  line: number;
  column: string;
  messages: string[];
}

/**
 * The problems of a refused import, by line. The server keys them `line N: column`; any other key (the
 * file itself could not be read) comes first with line 0.
 */
export function importProblemsOf(errors: Record<string, string[]> | undefined): ImportProblem[] {
  return Object.entries(errors ?? {})
    .map(([key, messages]) => {
      const row = /^line (\d+): (.+)$/.exec(key);
      return row ? { line: Number(row[1]), column: row[2]!, messages } : { line: 0, column: '', messages };
    })
    .sort((a, b) => a.line - b.line || a.column.localeCompare(b.column));
}
