import { CSV_DELIMITER_CHARS, type CsvDelimiter } from '@solar/shared';
import { csvField, csvSafeText } from '../../lib/spreadsheet-safety';
import {
  aboveExpectation,
  shownDecimals,
  type CellValue,
  type Column,
  type ReportDocument,
} from './report-document';

/** `Energy (kWh)`: the header with its unit. */
export const headerOf = (c: Column) => (c.unit ? `${c.header} (${c.unit})` : c.header);

/**
 * A number as the XLSX displays it: rounded to the column's decimals, trailing zeros kept, no thousands
 * separator (a spreadsheet would read it as a decimal point), never "-0".
 */
export function csvShownNumber(value: number, c: Column, decimalComma: boolean): string {
  const decimals = shownDecimals(c);
  const scaled = c.kind === 'ratio' ? value * 100 : value;
  const text = (Math.abs(scaled) < 0.5 * 10 ** -decimals ? 0 : scaled).toFixed(decimals);
  return decimalComma ? text.replace('.', ',') : text;
}

/**
 * A report's CSV written as its rows come: `head` (the BOM and the header line), then `lines` of rows in as
 * many calls as the rows come in (a production report's plants, one slice after the other), the totals row
 * last. Each answers text ending in CRLF. UTF-8 with BOM (Excel then reads Turkish and Cyrillic), the chosen
 * delimiter; with `;` or tab numbers use a decimal comma as Turkish and German Excel expect. Ratios are
 * written as percent, as their header says; numbers are rounded as the XLSX displays them, a negative loss
 * in the words the XLSX shows it with ("12.3 above expectation"); the totals row closes the table as in the
 * XLSX. Text a spreadsheet would run as a formula is prefixed with '.
 */
export function reportCsvWriter(
  lang: ReportDocument['lang'],
  columns: readonly Column[],
  delimiter: CsvDelimiter,
) {
  const sep = CSV_DELIMITER_CHARS[delimiter];
  const decimalComma = delimiter !== 'comma';
  const cell = (v: CellValue, c: Column): string => {
    if (v === null) return '';
    if (typeof v === 'number') {
      const shown = csvShownNumber(Math.abs(v), c, decimalComma);
      // A negative loss that the XLSX shows in words: the same words, never "-12.3" as a loss.
      if (c.loss && v < 0 && Number(shown.replace(',', '.')) !== 0)
        return csvField(csvSafeText(aboveExpectation(lang, shown)), sep);
      return csvShownNumber(v, c, decimalComma);
    }
    return csvField(csvSafeText(v), sep);
  };
  return {
    head: () => `\uFEFF${columns.map((c) => csvField(csvSafeText(headerOf(c)), sep)).join(sep)}\r\n`,
    lines: (rows: readonly (readonly CellValue[])[]) => {
      let out = '';
      for (const row of rows) out += `${row.map((v, i) => cell(v, columns[i]!)).join(sep)}\r\n`;
      return out;
    },
  };
}

/** The document's CSV table in one string (reportCsvWriter): its header, rows and totals. */
export function toReportCsv(doc: ReportDocument, delimiter: CsvDelimiter): string {
  const { columns, rows, totals } = doc.csv;
  const writer = reportCsvWriter(doc.lang, columns, delimiter);
  return writer.head() + writer.lines(rows) + writer.lines(totals ? [totals] : []);
}
