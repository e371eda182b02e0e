/**
 * Reads history exports of other systems (FusionSolar, Sunny Portal, data loggers) and finds out their
 * shape: a time column and one column per quantity, title rows above the header, `;` or `,` or tab, a
 * decimal point or comma, one sheet per device in a workbook. Pure functions over the file's cells, so that
 * the shapes are proven by unit tests; the XLSX reader is ExcelJS's streaming one (rows as they inflate).
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  HISTORY_IMPORT_MAX_ROWS,
  V,
  type HistoryFileColumn,
  type HistoryFileDetection,
  type HistoryFileSheet,
  type HistoryTimeFormat,
} from '@solar/shared';

/** A cell as read: a number, a text, a date (XLSX date cells: the wall time as if UTC), or empty. */
export type Cell = number | string | Date | null;

export interface FileRow {
  /** 1-based line of the file (CSV) or row number of the sheet (XLSX). */
  line: number;
  cells: Cell[];
}

export interface FileTable {
  name: string;
  rows: FileRow[];
}

/** One malformed cell: where, and the message key. */
export interface CellProblem {
  sheet: string | null;
  line: number;
  column: string;
  message: string;
}

/** A file refused: the cells at fault (at most MAX_PROBLEMS), or one problem for the file as a whole. */
export class HistoryFileRefused extends Error {
  constructor(readonly problems: CellProblem[]) {
    super('history file refused');
  }
}

const MAX_PROBLEMS = 20;
/** Rows looked at to find the header and the formats. */
const SCAN_ROWS = 200;

/** The spreadsheet letter of a 0-based column (0 → A, 27 → AB). */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ CSV

/** Splits one line on the delimiter, honouring "quoted" fields (RFC 4180 §2, without line breaks inside). */
export function splitCsvLine(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
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

/**
 * The delimiter the file's first lines use most consistently: for each candidate, the number of lines
 * (of the first 50 non-blank) that split into the most common field count above one.
 */
export function detectDelimiter(lines: readonly string[]): ';' | ',' | '\t' {
  let best: ';' | ',' | '\t' = ',';
  let bestScore = -1;
  for (const d of [';', '\t', ','] as const) {
    const counts = new Map<number, number>();
    for (const l of lines.slice(0, 50)) {
      const n = splitCsvLine(l, d).length;
      if (n > 1) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    const score = Math.max(0, ...counts.values());
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** The rows of a CSV text, blank lines skipped, each with its 1-based line; cells are trimmed texts or null. */
export function readCsv(text: string): { delimiter: ';' | ',' | '\t'; table: FileTable } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n');
  const nonBlank: string[] = [];
  for (const l of lines) {
    if (l.trim() !== '') nonBlank.push(l);
    if (nonBlank.length >= 50) break;
  }
  const delimiter = detectDelimiter(nonBlank);
  const rows: FileRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i]!;
    if (l.endsWith('\r')) l = l.slice(0, -1);
    if (l.trim() === '') continue;
    const cells = splitCsvLine(l, delimiter).map((c) => {
      const t = c.trim();
      return t === '' ? null : t;
    });
    rows.push({ line: i + 1, cells });
    if (rows.length > HISTORY_IMPORT_MAX_ROWS + 50)
      throw new HistoryFileRefused([{ sheet: null, line: i + 1, column: 'A', message: V.tooMany }]);
  }
  return { delimiter, table: { name: 'csv', rows } };
}

// ------------------------------------------------------------------------------------------------ XLSX

/** A cell of ExcelJS as a plain value: formulas by their result, rich text by its text. */
function plainCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (value instanceof Date) return value;
  if (typeof value === 'boolean') return null;
  if (typeof value === 'object') {
    if ('result' in value) return plainCell(value.result);
    if ('richText' in value)
      return (
        value.richText
          .map((r) => r.text)
          .join('')
          .trim() || null
      );
    if ('text' in value) return String(value.text);
  }
  return null;
}

/** Every sheet of a workbook, read as a stream (ExcelJS's WorkbookReader: rows as the zip inflates). */
export async function readXlsx(data: Buffer): Promise<FileTable[]> {
  const tables: FileTable[] = [];
  let total = 0;
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
    });
    for await (const sheet of reader) {
      const ws = sheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
      const rows: FileRow[] = [];
      for await (const row of ws) {
        const values = row.values as ExcelJS.CellValue[];
        // ExcelJS's row values are 1-based.
        const cells = values.slice(1).map(plainCell);
        for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = null;
        if (cells.every((c) => c === null)) continue;
        rows.push({ line: row.number, cells });
        if (++total > HISTORY_IMPORT_MAX_ROWS + 50)
          throw new HistoryFileRefused([
            { sheet: ws.name, line: row.number, column: 'A', message: V.tooMany },
          ]);
      }
      tables.push({ name: ws.name, rows });
    }
  } catch (error) {
    if (error instanceof HistoryFileRefused) throw error;
    throw new HistoryFileRefused([{ sheet: null, line: 1, column: 'A', message: V.invalidValue }]);
  }
  return tables;
}

// ------------------------------------------------------------------------------------------------ values

const PLACEHOLDERS = new Set(['-', '--', 'n/a', 'na', 'nan', 'null', 'none', '#n/a']);

/** Texts portals write for "no value": read as an empty cell. */
export function isBlank(cell: Cell): boolean {
  return cell === null || (typeof cell === 'string' && PLACEHOLDERS.has(cell.toLowerCase()));
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A figure from a cell with the given decimal mark; thousands separators (the other mark, or a space) are
 * accepted only in groups of three. Undefined when the cell is not a figure.
 */
export function numberOf(cell: Cell, decimal: '.' | ','): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  if (typeof cell !== 'string') return undefined;
  let s = cell.replace(/[\s\u00a0\u202f]/g, '');
  const thousands = decimal === ',' ? '.' : ',';
  if (s.includes(thousands)) {
    const grouped = decimal === ',' ? /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/ : /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
    if (!grouped.test(s)) return undefined;
    s = s.split(thousands).join('');
  }
  if (decimal === ',') s = s.replace(',', '.');
  if (!PLAIN_NUMBER.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** A time as read: milliseconds, either an instant (the text had an offset) or a wall time read as UTC. */
export interface ReadTime {
  ms: number;
  absolute: boolean;
}

const ISO =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const DAY_FIRST =
  /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?:[T ,]\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
/** Days from 1899-12-30 (the spreadsheet epoch, Lotus's leap-year bug included) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;
const DAY_MS = 86_400_000;

function wall(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return undefined;
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  // 31 April and the like roll over: refused.
  return new Date(t).getUTCDate() === d || h === 24 ? t : undefined;
}

function offsetOf(zone: string | undefined): number {
  if (!zone || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** Reads a time cell in the format; undefined when it is not one. */
export function timeOf(cell: Cell, format: HistoryTimeFormat): ReadTime | undefined {
  if (cell instanceof Date)
    return Number.isNaN(cell.getTime()) ? undefined : { ms: cell.getTime(), absolute: false };
  if (cell === null) return undefined;
  const asNumber = typeof cell === 'number' ? cell : /^\d+(\.\d+)?$/.test(cell) ? Number(cell) : undefined;
  switch (format) {
    case 'epoch_s':
      return asNumber === undefined ? undefined : { ms: Math.round(asNumber * 1000), absolute: true };
    case 'epoch_ms':
      return asNumber === undefined ? undefined : { ms: Math.round(asNumber), absolute: true };
    case 'excel':
      return asNumber === undefined
        ? undefined
        : { ms: Math.round((asNumber - EXCEL_EPOCH_DAYS) * DAY_MS), absolute: false };
    case 'iso': {
      if (typeof cell !== 'string') return undefined;
      const m = ISO.exec(cell);
      if (!m) return undefined;
      const t = wall(
        +m[1]!,
        +m[2]!,
        +m[3]!,
        +(m[4] ?? 0),
        +(m[5] ?? 0),
        +(m[6] ?? 0),
        +(m[7] ?? '0').padEnd(3, '0'),
      );
      if (t === undefined) return undefined;
      return m[8] ? { ms: t - offsetOf(m[8]), absolute: true } : { ms: t, absolute: false };
    }
    case 'dmy':
    case 'mdy': {
      if (typeof cell !== 'string') return undefined;
      const m = DAY_FIRST.exec(cell);
      if (!m) return undefined;
      const [a, b] = [+m[1]!, +m[2]!];
      const [d, mo] = format === 'dmy' ? [a, b] : [b, a];
      const t = wall(+m[3]!, mo, d, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
      if (t === undefined) return undefined;
      return m[7] ? { ms: t - offsetOf(m[7]), absolute: true } : { ms: t, absolute: false };
    }
  }
}

/** The format a time cell looks written in, before day/month order is settled; undefined when none. */
function formatGuess(cell: Cell): HistoryTimeFormat | undefined {
  if (cell instanceof Date) return 'excel';
  if (typeof cell === 'number' || (typeof cell === 'string' && /^\d+(\.\d+)?$/.test(cell))) {
    const n = Number(cell);
    if (n > 1e11 && n < 1e14) return 'epoch_ms';
    if (n > 1e8 && n < 1e11) return 'epoch_s';
    if (n > 20_000 && n < 80_000) return 'excel';
    return undefined;
  }
  if (cell === null) return undefined;
  if (ISO.test(cell)) return 'iso';
  if (DAY_FIRST.test(cell)) return 'dmy';
  return undefined;
}

/**
 * The time format of a column's values: day/month order from the values themselves (a first part above 12
 * is a day, a second part above 12 makes it month-first), day first when nothing tells (Europe's habit).
 */
export function detectTimeFormat(cells: readonly Cell[]): HistoryTimeFormat | undefined {
  const guesses = cells.map(formatGuess).filter((g) => g !== undefined);
  if (!guesses.length) return undefined;
  const format = guesses[0]!;
  if (format !== 'dmy') return format;
  for (const c of cells) {
    const m = typeof c === 'string' ? DAY_FIRST.exec(c) : null;
    if (!m) continue;
    if (+m[1]! > 12) return 'dmy';
    if (+m[2]! > 12) return 'mdy';
  }
  return 'dmy';
}

// ------------------------------------------------------------------------------------------------ shape

/** A table's shape: where the header and data start, which column is the time, which hold figures. */
export interface TableShape {
  sheet: HistoryFileSheet;
  /** Index in the table's rows of the first data row. */
  firstDataRow: number;
}

/**
 * The decimal mark the figures use: a comma when the delimiter is not one and some figure is written
 * `12,5` (a decimal comma); else a point.
 */
export function detectDecimalMark(tables: readonly FileTable[], delimiter: string | null): '.' | ',' {
  if (delimiter === ',') return '.';
  for (const t of tables)
    for (const r of t.rows.slice(0, SCAN_ROWS))
      for (const c of r.cells) if (typeof c === 'string' && /^[+-]?\d+,\d+$/.test(c)) return ',';
  return '.';
}

/** Finds the header row, the time column and the figure columns of one table; undefined without data rows. */
export function shapeOf(
  table: FileTable,
  decimal: '.' | ',',
): { shape: TableShape; format: HistoryTimeFormat } | undefined {
  const scan = table.rows.slice(0, SCAN_ROWS);
  // The first row with a time and at least one figure is the first data row.
  let first = -1;
  let timeColumn = -1;
  for (let i = 0; i < scan.length && first < 0; i++) {
    const cells = scan[i]!.cells;
    // A date cell or a date text first; a number that could be a time (epoch, serial) only without one.
    const dated = cells.findIndex(
      (c) => c instanceof Date || (typeof c === 'string' && /[-/.:]/.test(c) && formatGuess(c) !== undefined),
    );
    const t = dated >= 0 ? dated : cells.findIndex((c) => formatGuess(c) !== undefined);
    if (t < 0) continue;
    if (cells.some((c, j) => j !== t && numberOf(c, decimal) !== undefined)) {
      first = i;
      timeColumn = t;
    }
  }
  if (first < 0) return undefined;
  const dataRows = table.rows.slice(first, first + SCAN_ROWS);
  const format = detectTimeFormat(dataRows.map((r) => r.cells[timeColumn] ?? null));
  if (!format) return undefined;
  // The header: the nearest row above with texts in most of its cells.
  const header = first > 0 ? scan[first - 1]! : undefined;
  const width = Math.max(...dataRows.map((r) => r.cells.length), header?.cells.length ?? 0);
  const columns: HistoryFileColumn[] = [];
  for (let j = 0; j < width; j++) {
    const values = dataRows.map((r) => r.cells[j] ?? null).filter((c) => !isBlank(c));
    const figures = values.filter((c) => numberOf(c, decimal) !== undefined).length;
    const name = header?.cells[j];
    columns.push({
      index: j,
      letter: columnLetter(j),
      name: name === null || name === undefined ? columnLetter(j) : String(name),
      numeric: j !== timeColumn && values.length > 0 && figures * 2 > values.length,
    });
  }
  return {
    format,
    shape: {
      firstDataRow: first,
      sheet: {
        name: table.name,
        header_line: header?.line ?? 0,
        time_column: timeColumn,
        columns,
        rows: table.rows.length - first,
        sample: dataRows.slice(0, 5).map((r) =>
          Array.from({ length: width }, (_, j) => {
            const c = r.cells[j] ?? null;
            if (c instanceof Date) return c.toISOString().slice(0, 19).replace('T', ' ');
            return c === null ? '' : String(c);
          }),
        ),
      },
    },
  };
}

/** What the upload learns of a file: its shape, and the tables ready to be read with it. */
export interface ReadFile {
  detection: HistoryFileDetection;
  tables: Map<string, { table: FileTable; shape: TableShape }>;
}

/**
 * Reads and shapes a file, then checks every cell the import could read: each data row's time, and each
 * figure column's cells. A malformed cell refuses the file with its line and column (HistoryFileRefused).
 * `overrides` replace what was detected (the mapping form's choices).
 */
export async function readHistoryFile(
  format: 'csv' | 'xlsx',
  data: Buffer,
  overrides: { time_format?: HistoryTimeFormat; decimal_mark?: '.' | ',' } = {},
): Promise<ReadFile> {
  let tables: FileTable[];
  let delimiter: ';' | ',' | '\t' | null = null;
  if (format === 'csv') {
    const csv = readCsv(data.toString('utf8'));
    delimiter = csv.delimiter;
    tables = [csv.table];
  } else tables = await readXlsx(data);
  const decimal = overrides.decimal_mark ?? detectDecimalMark(tables, delimiter);
  const shaped = new Map<string, { table: FileTable; shape: TableShape }>();
  let timeFormat: HistoryTimeFormat | undefined;
  for (const table of tables) {
    const found = shapeOf(table, decimal);
    if (!found) continue;
    timeFormat ??= found.format;
    shaped.set(table.name, { table, shape: found.shape });
  }
  if (!shaped.size || !timeFormat)
    throw new HistoryFileRefused([{ sheet: null, line: 1, column: 'A', message: V.invalidDate }]);
  const time = overrides.time_format ?? timeFormat;
  const problems: CellProblem[] = [];
  let hasOffset = false;
  for (const { table, shape } of shaped.values()) {
    const sheetName = format === 'xlsx' ? table.name : null;
    const figureColumns = shape.sheet.columns.filter((c) => c.numeric);
    for (let i = shape.firstDataRow; i < table.rows.length && problems.length < MAX_PROBLEMS; i++) {
      const { line, cells } = table.rows[i]!;
      const t = timeOf(cells[shape.sheet.time_column] ?? null, time);
      if (!t)
        problems.push({
          sheet: sheetName,
          line,
          column: columnLetter(shape.sheet.time_column),
          message: V.invalidDate,
        });
      else if (t.absolute) hasOffset = true;
      for (const c of figureColumns) {
        const cell = cells[c.index] ?? null;
        if (!isBlank(cell) && numberOf(cell, decimal) === undefined)
          problems.push({ sheet: sheetName, line, column: c.letter, message: V.invalidNumber });
      }
    }
  }
  if (problems.length) throw new HistoryFileRefused(problems.slice(0, MAX_PROBLEMS));
  return {
    detection: {
      delimiter,
      decimal_mark: decimal,
      time_format: time,
      time_has_offset: hasOffset,
      sheets: [...shaped.values()].map((s) => s.shape.sheet),
    },
    tables: shaped,
  };
}

/** The problems as a 400's `errors`: keyed `line N: C`, prefixed with the sheet's name in a workbook. */
export function problemsAsErrors(problems: readonly CellProblem[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const p of problems) {
    const key = `${p.sheet === null ? '' : `${p.sheet} / `}line ${p.line}: ${p.column}`;
    (errors[key] ??= []).push(p.message);
  }
  return errors;
}
