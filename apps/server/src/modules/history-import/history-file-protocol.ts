import type { HistoryFileDetection, HistoryTimeFormat } from '@solar/shared';
import type { CellProblem } from './history-file';
import type { ColumnPlan, MappedSignal } from './history-points';

/** What the reading thread is sent, once: the file, the mapping form's overrides and, to build, the plans. */
export interface FileRequest {
  format: 'csv' | 'xlsx';
  /** The file's bytes in a buffer of their own, moved to the thread without a copy. */
  data: Uint8Array;
  overrides: { time_format?: HistoryTimeFormat; decimal_mark?: '.' | ',' };
  /** The columns to read into points, and the zone of the file's wall times; none at the upload. */
  build?: { plans: ColumnPlan[]; timeZone: string };
}

/** One signal's points as the thread answers them: times and values side by side, moved without a copy. */
export interface SignalColumns {
  signal: MappedSignal;
  ts: Float64Array;
  values: Float64Array;
  duplicates: number;
}

/** What the thread answers, once. */
export type FileAnswer =
  | {
      ok: true;
      detection: HistoryFileDetection;
      /** With `build`: the data rows of the sheets read, and each mapped signal's points. */
      rows: number;
      bySignal: Map<number, SignalColumns>;
    }
  | { ok: false; problems: CellProblem[] }
  | { ok: false; fault: string };
