import { CSV_DELIMITER_CHARS, type CsvDelimiter } from '@solar/shared';
import { csvField, csvNumber, csvSafeText } from '../../lib/spreadsheet-safety';
import type { CellValue, Column, ReportDocument } from './report-document';

/** `Energy (kWh)`: the header with its unit. */
export const headerOf = (c: Column) => (c.unit ? `${c.header} (${c.unit})` : c.header);

/**
 * The document's CSV table: UTF-8 with BOM (Excel then reads Turkish and Cyrillic), CRLF, the chosen
 * delimiter; with `;` or tab numbers use a decimal comma as Turkish and German Excel expect. Ratios are
 * written as percent, as their header says. Text a spreadsheet would run as a formula is prefixed with '.
 */
export function toReportCsv(doc: ReportDocument, delimiter: CsvDelimiter): string {
  const sep = CSV_DELIMITER_CHARS[delimiter];
  const decimalComma = delimiter !== 'comma';
  const cell = (v: CellValue, c: Column): string => {
    if (v === null) return '';
    if (typeof v === 'number') return csvNumber(c.kind === 'ratio' ? v * 100 : v, decimalComma);
    return csvField(csvSafeText(v), sep);
  };
  const { columns, rows } = doc.csv;
  const lines = [columns.map((c) => csvField(csvSafeText(headerOf(c)), sep)).join(sep)];
  for (const row of rows) lines.push(row.map((v, i) => cell(v, columns[i]!)).join(sep));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
