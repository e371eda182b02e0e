import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { translate } from '@solar/i18n';
import { looksLikeFormula, XLSX_TEXT_FORMAT } from '../../lib/spreadsheet-safety';
import { sheetCaughtUp } from '../../lib/xlsx-stream';
import { headerOf } from './report-csv';
import {
  aboveExpectation,
  shownDecimals,
  type CellValue,
  type Column,
  type ReportDocument,
  type Table,
} from './report-document';

const NUMBER_FORMATS = {
  number: (d: number) => (d > 0 ? `#,##0.${'0'.repeat(d)}` : '#,##0'),
  integer: () => '0',
  ratio: (d: number) => (d > 0 ? `0.${'0'.repeat(d)}%` : '0%'),
  date: () => 'yyyy-mm-dd',
  month: () => 'yyyy-mm',
};

/**
 * A loss column's number format: the number as it is, a negative one (energy above the model's
 * expectation) in words through the format's negative section, so the cell stays a signed number that
 * sums and charts correctly while it reads "12.3 above expectation".
 */
export function lossNumberFormat(lang: ReportDocument['lang'], decimals: number): string {
  const number = NUMBER_FORMATS.number(decimals);
  const [before = '', after = ''] = aboveExpectation(lang, '\u0000').split('\u0000');
  // Literal text of a number format is quoted; a quote cannot stand inside it.
  const literal = (text: string) => (text ? `"${text.replaceAll('"', '')}"` : '');
  return `${number};${literal(before)}${number}${literal(after)}`;
}

/** An Excel sheet name: at most 31 characters, none of []:*?/\, unique in the workbook. */
export function sheetName(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet';
  let out = base;
  for (let n = 2; taken.has(out.toLowerCase()); n++) out = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
  taken.add(out.toLowerCase());
  return out;
}

/** A day (YYYY-MM-DD) or month (YYYY-MM) as a real date: midnight UTC, as exceljs writes dates. */
const dateOf = (key: string) => new Date(`${key.length === 7 ? `${key}-01` : key}T00:00:00Z`);
const DATE_KEY = /^\d{4}-\d{2}(-\d{2})?$/;

/**
 * A cell's value. Only a date key becomes a date: the totals row's label ("Toplam") stands in the date
 * column too, and as a date it was an invalid one, written as NaN that strict readers refuse.
 */
function valueOf(v: CellValue, c: Column): ExcelJS.CellValue {
  if (v === null) return null;
  if ((c.kind === 'date' || c.kind === 'month') && typeof v === 'string' && DATE_KEY.test(v))
    return dateOf(v);
  return v;
}

async function addTable(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  table: Table,
  taken: Set<string>,
  lang: ReportDocument['lang'],
) {
  const sheet = workbook.addWorksheet(sheetName(table.name, taken), {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }],
  });
  const headers = table.columns.map(headerOf);
  sheet.columns = table.columns.map((c, i) => {
    const longest = Math.max(
      headers[i]!.length,
      ...table.rows.slice(0, 200).map((r) => {
        const v = r[i];
        return typeof v === 'string' ? v.length : 10;
      }),
    );
    const numFmt =
      c.kind === 'text'
        ? undefined
        : c.loss
          ? lossNumberFormat(lang, shownDecimals(c))
          : NUMBER_FORMATS[c.kind](shownDecimals(c));
    return {
      key: `c${i}`,
      width: Math.min(Math.max(longest + 2, 10), 48),
      ...(numFmt ? { style: { numFmt } } : {}),
    };
  });
  const header = sheet.getRow(1);
  header.values = headers;
  header.font = { bold: true };
  header.alignment = { wrapText: true, vertical: 'top' };
  header.commit();
  const write = (cells: CellValue[], bold = false) => {
    const row = sheet.addRow(cells.map((v, i) => valueOf(v, table.columns[i]!)));
    row.eachCell((cell) => {
      if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) cell.numFmt = XLSX_TEXT_FORMAT;
    });
    if (bold) row.font = { bold: true };
    row.commit();
  };
  for (const r of table.rows) write(r);
  if (table.totals) write(table.totals, true);
  sheet.commit();
  // The zip compresses one sheet after the other: the next waits until this one is compressed.
  await sheetCaughtUp(sheet, 0);
}

/**
 * A report's workbook written to `stream` one sheet after the other as its tables come (`add`), the
 * warnings' sheet last (`end`): a production report's plants are added as their slices come, so the thread
 * holds one plant's table, not the year of every plant. Numbers stay numbers. ExcelJS's streaming writer
 * lets each committed sheet leave memory; strings are inline, since shared strings would be held until the
 * end.
 */
export function reportXlsxWriter(
  doc: Pick<ReportDocument, 'lang' | 'generatedAt' | 'title' | 'period'>,
  stream: Writable,
) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Solar console';
  workbook.created = new Date(doc.generatedAt);
  workbook.title = `${doc.title} ${doc.period}`;
  const taken = new Set<string>();
  return {
    add: (table: Table) => addTable(workbook, table, taken, doc.lang),
    async end(warnings: readonly string[]) {
      if (warnings.length)
        await addTable(
          workbook,
          {
            name: translate(doc.lang, 'reportFile.warnings'),
            columns: [{ header: translate(doc.lang, 'reportFile.warnings'), kind: 'text' }],
            rows: warnings.map((w) => [w]),
          },
          taken,
          doc.lang,
        );
      await workbook.commit();
    },
  };
}

/** The document as a workbook written to `stream`: the summary sheet first, then one sheet per plant. */
export async function toReportXlsx(doc: ReportDocument, stream: Writable): Promise<void> {
  const writer = reportXlsxWriter(doc, stream);
  for (const table of doc.tables) await writer.add(table);
  await writer.end(doc.warnings);
}
