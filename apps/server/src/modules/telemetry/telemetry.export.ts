import ExcelJS from 'exceljs';
import type { SeriesWithZone } from './telemetry.service';

const HEADER = ['signal_id', 'device', 'signal', 'unit', 'timestamp_utc', 'local_time', 'time_zone', 'value'];

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

/** Text a spreadsheet would run as a formula (=, +, -, @, tab, CR) is prefixed with ' (OWASP CSV injection). */
function safeText(v: string): string {
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

function csvCell(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  const text = safeText(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function* rowsOf(series: readonly SeriesWithZone[]) {
  for (const s of series) {
    for (const [ts, value] of s.points) {
      yield [
        s.signal_id,
        s.device_name,
        s.key,
        s.unit ?? '',
        new Date(ts).toISOString(),
        localTime(ts, s.time_zone),
        s.time_zone,
        value,
      ] as const;
    }
  }
}

/** CSV (RFC 4180, CRLF, UTF-8 with BOM so spreadsheets read Turkish and Cyrillic names) with a header row. */
export function toCsv(series: readonly SeriesWithZone[]): string {
  const lines = [HEADER.join(',')];
  for (const row of rowsOf(series)) lines.push(row.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The same table as an XLSX workbook, one sheet. */
export async function toXlsx(series: readonly SeriesWithZone[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('telemetry');
  sheet.addRow(HEADER).font = { bold: true };
  for (const row of rowsOf(series)) {
    sheet.addRow([row[0], safeText(row[1]), safeText(row[2]), row[3], row[4], row[5], row[6], row[7]]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
