import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { CSV_DELIMITER_CHARS, type CsvDelimiter } from '@solar/shared';
import {
  csvField,
  csvNumber,
  csvSafeText,
  looksLikeFormula,
  XLSX_TEXT_FORMAT,
} from '../../lib/spreadsheet-safety';
import { sheetCaughtUp } from '../../lib/xlsx-stream';
import type { SeriesWithZone } from './telemetry.service';

const HEADER = [
  'plant',
  'signal_id',
  'device',
  'signal',
  'unit',
  'timestamp_utc',
  'local_time',
  'time_zone',
  'value',
];

const localFormats = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD HH:mm:ss` in the plant's zone (sv-SE writes exactly that). */
function localTime(ms: number, timeZone: string): string {
  let f = localFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    localFormats.set(timeZone, f);
  }
  return f.format(ms);
}

/**
 * One part of an export as the build thread receives it: some signals' points as two columns (values NaN
 * where the bucket has none), moved to the thread without copying (file-builds/).
 */
export interface ExportSeriesPart {
  plant: string;
  signalId: number;
  device: string;
  signal: string;
  unit: string;
  timeZone: string;
  ts: Float64Array;
  value: Float64Array;
}

/** A series' points as an export part (null values become NaN, read back as null). */
export function exportPartOf(s: SeriesWithZone): ExportSeriesPart {
  const ts = new Float64Array(s.points.length);
  const value = new Float64Array(s.points.length);
  s.points.forEach(([t, v], i) => {
    ts[i] = t;
    value[i] = v ?? NaN;
  });
  return {
    plant: s.plant_name,
    signalId: s.signal_id,
    device: s.device_name,
    signal: s.key,
    unit: s.unit ?? '',
    timeZone: s.time_zone,
    ts,
    value,
  };
}

const valueAt = (part: ExportSeriesPart, i: number) => (Number.isNaN(part.value[i]!) ? null : part.value[i]!);

/** The CSV's first line: the header row, after the BOM that lets spreadsheets read Turkish and Cyrillic names. */
export const csvHead = (delimiter: CsvDelimiter = 'comma') =>
  `\uFEFF${HEADER.join(CSV_DELIMITER_CHARS[delimiter])}\r\n`;

/**
 * The CSV lines of one part (RFC 4180, CRLF) with a header row written once by csvHead. `semicolon` and
 * `tab` write values with a decimal comma, as Turkish and German Excel read them. Text a spreadsheet would
 * run as a formula is prefixed with ' (OWASP CSV injection).
 */
export function csvLines(part: ExportSeriesPart, delimiter: CsvDelimiter = 'comma'): string {
  const sep = CSV_DELIMITER_CHARS[delimiter];
  const text = (v: string) => csvField(csvSafeText(v), sep);
  const fixed = [
    text(part.plant),
    String(part.signalId),
    text(part.device),
    text(part.signal),
    text(part.unit),
  ].join(sep);
  let out = '';
  for (let i = 0; i < part.ts.length; i++) {
    const ts = part.ts[i]!;
    const value = valueAt(part, i);
    out += `${[
      fixed,
      new Date(ts).toISOString(),
      localTime(ts, part.timeZone),
      part.timeZone,
      value === null ? '' : csvNumber(value, delimiter !== 'comma'),
    ].join(sep)}\r\n`;
  }
  return out;
}

/** Uncompressed XML a sheet may hold ahead of the zip, bytes. */
const XLSX_BACKLOG_BYTES = 4 * 2 ** 20;

/** A local wall-clock time as an Excel date (Excel dates have no zone: the cell shows exactly this). */
const wallClock = (local: string) => new Date(`${local.replace(' ', 'T')}Z`);

/**
 * The same table as an XLSX workbook, one sheet, written row by row to `stream` (ExcelJS's streaming
 * writer: a committed row leaves memory, so the workbook never is whole in memory): timestamps are real
 * date cells (UTC and the plant's local time), values number cells, texts string cells shown as they are
 * (inline, not shared strings, which the writer would hold until the end); a text that looks like a formula
 * gets the Text format so that editing it in Excel does not run it. Feed it parts with `add`, then `end`.
 */
export function xlsxExportWriter(stream: Writable) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('telemetry', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { key: 'plant', width: 28 },
    { key: 'signal_id', width: 10 },
    { key: 'device', width: 24 },
    { key: 'signal', width: 22 },
    { key: 'unit', width: 8 },
    { key: 'timestamp_utc', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
    { key: 'local_time', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
    { key: 'time_zone', width: 18 },
    { key: 'value', width: 14 },
  ];
  const header = sheet.getRow(1);
  header.values = HEADER;
  header.font = { bold: true };
  header.commit();
  return {
    /** Writes a part's rows, then waits for the zip to compress them: memory holds about a part. */
    async add(part: ExportSeriesPart) {
      for (let i = 0; i < part.ts.length; i++) {
        const ts = part.ts[i]!;
        const row = sheet.addRow([
          part.plant,
          part.signalId,
          part.device,
          part.signal,
          part.unit,
          new Date(ts),
          wallClock(localTime(ts, part.timeZone)),
          part.timeZone,
          valueAt(part, i),
        ]);
        for (const c of [1, 3, 4, 5]) {
          const cell = row.getCell(c);
          if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) cell.numFmt = XLSX_TEXT_FORMAT;
        }
        row.commit();
      }
      await sheetCaughtUp(sheet, XLSX_BACKLOG_BYTES);
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
