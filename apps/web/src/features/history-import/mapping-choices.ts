import type { HistoryColumnUnit, HistoryImportJob } from '@solar/shared';

/** One figure column of the file and the signal chosen for it. */
export interface ColumnChoice {
  key: string;
  sheet: string;
  column: number;
  letter: string;
  name: string;
  signalId?: number;
  unit: HistoryColumnUnit;
  energy: 'counter' | 'interval' | null;
}

/** The unit a header names (`Pac [kW]`, `Energy (MWh)`), else the signal's own. */
export function unitOfHeader(name: string): HistoryColumnUnit {
  const m = /[[(]\s*(k|M)?W(h)?\s*[\])]/.exec(name);
  if (!m) return 'as_is';
  return `${m[1] ?? ''}W${m[2] ?? ''}` as HistoryColumnUnit;
}

/** The file's figure columns, each with the unit its header names; energy columns read as counters. */
export function choicesOf(job: HistoryImportJob): ColumnChoice[] {
  return job.detection.sheets.flatMap((sheet) =>
    sheet.columns
      .filter((c) => c.numeric)
      .map((c) => {
        const unit = unitOfHeader(c.name);
        return {
          key: `${sheet.name}:${c.index}`,
          sheet: sheet.name,
          column: c.index,
          letter: c.letter,
          name: c.name,
          unit,
          energy: unit.endsWith('h') ? ('counter' as const) : null,
        };
      }),
  );
}
