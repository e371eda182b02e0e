import ExcelJS from 'exceljs';
import { CSV_DELIMITER_CHARS, type CsvDelimiter } from '@solar/shared';
import {
  csvField,
  csvNumber,
  csvSafeText,
  looksLikeFormula,
  XLSX_TEXT_FORMAT,
} from '../../lib/spreadsheet-safety';
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

function* rowsOf(series: readonly SeriesWithZone[]) {
  for (const s of series) {
    for (const [ts, value] of s.points) {
      yield {
        plant: s.plant_name,
        signalId: s.signal_id,
        device: s.device_name,
        signal: s.key,
        unit: s.unit ?? '',
        ts,
        local: localTime(ts, s.time_zone),
        timeZone: s.time_zone,
        value,
      };
    }
  }
}

/**
 * CSV (RFC 4180, CRLF, UTF-8 with BOM so spreadsheets read Turkish and Cyrillic names) with a header row.
 * `semicolon` and `tab` write values with a decimal comma, as Turkish and German Excel read them. Text a
 * spreadsheet would run as a formula is prefixed with ' (OWASP CSV injection).
 */
export function toCsv(series: readonly SeriesWithZone[], delimiter: CsvDelimiter = 'comma'): string {
  const sep = CSV_DELIMITER_CHARS[delimiter];
  const text = (v: string) => csvField(csvSafeText(v), sep);
  const lines = [HEADER.join(sep)];
  for (const r of rowsOf(series)) {
    lines.push(
      [
        text(r.plant),
        String(r.signalId),
        text(r.device),
        text(r.signal),
        text(r.unit),
        new Date(r.ts).toISOString(),
        r.local,
        r.timeZone,
        r.value === null ? '' : csvNumber(r.value, delimiter !== 'comma'),
      ].join(sep),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** A local wall-clock time as an Excel date (Excel dates have no zone: the cell shows exactly this). */
const wallClock = (local: string) => new Date(`${local.replace(' ', 'T')}Z`);

/**
 * The same table as an XLSX workbook, one sheet: timestamps are real date cells (UTC and the plant's local
 * time), values number cells, texts string cells shown as they are; a text that looks like a formula gets
 * the Text format so that editing it in Excel does not run it.
 */
export async function toXlsx(series: readonly SeriesWithZone[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
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
  for (const r of rowsOf(series)) {
    const row = sheet.addRow([
      r.plant,
      r.signalId,
      r.device,
      r.signal,
      r.unit,
      new Date(r.ts),
      wallClock(r.local),
      r.timeZone,
      r.value,
    ]);
    for (const i of [1, 3, 4, 5]) {
      const cell = row.getCell(i);
      if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) cell.numFmt = XLSX_TEXT_FORMAT;
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
