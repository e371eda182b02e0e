import { createRequire } from 'node:module';
import { translate } from '@solar/i18n';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { chartSvg, LOCALE_TAGS, rotatesLabels } from './report-chart';
import { headerOf } from './report-csv';
import {
  aboveExpectation,
  shownDecimals,
  type CellValue,
  type Column,
  type ReportDocument,
  type Table,
  type Tile,
} from './report-document';

const require = createRequire(import.meta.url);
/** DejaVu Sans covers Latin (Turkish ğ ı ş İ, German ß ä ö ü) and Cyrillic (Macedonian ѓ ќ ѕ џ љ њ). */
const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
const REGULAR = 'DejaVuSans';
const BOLD = 'DejaVuSans-Bold';

const MARGIN_PT = 36;
/**
 * Most columns of a printed table part, its first included: wider tables continue below with the first
 * column repeated. Eleven left 62 pt a column on A4 landscape, too narrow for Macedonian loss headers.
 */
const MAX_COLUMNS = 10;
const ROW_PT = 13;
/** Table header text size, and the least it shrinks to for a word wider than its column. */
const HEADER_PT = 7;
const MIN_HEADER_PT = 5.5;
const BLUE = '#1677ff';
/** Ant Design's warning text colour, dark enough to read in print. */
const WARNING_COLOUR = '#ad6800';
/** The page number's text size. */
const FOOTER_PT = 8;

/** One formatter per language and decimals: making one per cell cost much of a large table's time. */
const NUMBER_FORMATS = new Map<string, Intl.NumberFormat>();

/** Formats numbers the way the report's language writes them (`1.234,5` in Turkish, `1,234.5` in English). */
export function pdfNumber(lang: ReportDocument['lang'], value: number, decimals: number): string {
  const key = `${lang} ${decimals}`;
  let format = NUMBER_FORMATS.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE_TAGS[lang], {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    NUMBER_FORMATS.set(key, format);
  }
  return format.format(value);
}

function cellText(
  doc: ReportDocument,
  v: CellValue,
  c: { kind: Column['kind']; decimals?: number; loss?: boolean },
): string {
  if (v === null) return '–';
  if (typeof v === 'string') return v;
  if (c.kind === 'ratio') return `${pdfNumber(doc.lang, v * 100, shownDecimals(c))} %`;
  if (c.kind === 'integer') return String(v);
  if (c.loss && v < 0) {
    // Energy above the model's expectation, in words as in the XLSX and the fleet loss view.
    const shown = pdfNumber(doc.lang, -v, shownDecimals(c));
    if (/[1-9]/.test(shown)) return aboveExpectation(doc.lang, shown);
  }
  return pdfNumber(doc.lang, v, shownDecimals(c));
}

/**
 * When the report was made, in its zone and named: "28.11.2026 23:14 (Europe/Istanbul)" in Turkish. The
 * zone is always named, since the reader's own may differ.
 */
export function generatedAtText(lang: ReportDocument['lang'], iso: string, timeZone: string): string {
  const stamp = new Intl.DateTimeFormat(LOCALE_TAGS[lang], {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
  return `${stamp} (${timeZone})`;
}

/**
 * Splits a wide table into as few parts of at most MAX_COLUMNS as it needs, each starting with the first
 * column, the others shared evenly: filled in order, a 19-column table left a last part of one column.
 */
function parts(table: Table): number[][] {
  const rest = table.columns.map((_, i) => i).slice(1);
  if (!rest.length) return [[0]];
  const count = Math.ceil(rest.length / (MAX_COLUMNS - 1));
  const size = Math.ceil(rest.length / count);
  const out: number[][] = [];
  for (let i = 0; i < rest.length; i += size) out.push([0, ...rest.slice(i, i + size)]);
  return out;
}

/** What pdfkit keeps of a font that this writer reaches into (pdfkit's EmbeddedFont). */
interface EmbeddedFont {
  id: string;
  ascender: number;
  /** The glyphs of `text` as hex glyph ids of the embedded subset (which then includes them). */
  encode(text: string): [string[], unknown[]];
  ref(): PDFKit.PDFKitReference;
  /** Every word run the font has laid out, kept for the whole document unless cleared. */
  layoutCache?: Record<string, unknown>;
}
interface PdfInternals {
  _font: EmbeddedFont;
  _fontFamilies: Record<string, EmbeddedFont>;
  page: { xobjects: Record<string, PDFKit.PDFKitReference> };
}

/**
 * A report as a PDF, written page by page: heading, warnings, KPI tiles and server-rendered charts
 * (`start`), then each table as it comes (`table`), then the page numbers (`end`). Nothing of a page stays
 * once the next begins, so a year of 218 plants, whose tables run to thousands of pages, needs the memory
 * of one plant's table, not of the whole document: with every page buffered until the end (for its "page i
 * of n"), each drawing operation of every page was held as its own small buffer, a few hundred MiB per
 * twenty plants, and the build thread ran out of heap.
 *
 * "Page i of n" needs n, known only at the end: each page shows a form XObject of its own whose content (the
 * footer's text) is written at the end, the page itself having been written long before (ISO 32000-1,
 * 8.10 "Form XObjects": a page refers to the form by name; its stream may follow anywhere in the file).
 */
export class ReportPdfWriter {
  private readonly doc: PDFKit.PDFDocument;
  private readonly width: number;
  private readonly footers: PDFKit.PDFKitReference[] = [];
  private readonly done: Promise<void>;
  /** The regular font, which the footers are written in. */
  private readonly regular: EmbeddedFont;

  private constructor(
    private readonly report: ReportDocument,
    write: (chunk: Buffer) => void,
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: MARGIN_PT,
      info: { Title: `${report.title} ${report.period}`, Author: report.companies.join(', ') },
      lang: LOCALE_TAGS[report.lang],
    });
    const doc = this.doc;
    doc.registerFont(REGULAR, FONT_REGULAR);
    doc.registerFont(BOLD, FONT_BOLD);
    doc.on('data', write);
    this.done = new Promise<void>((resolve, reject) => {
      doc.on('end', resolve);
      doc.on('error', reject);
    });
    this.width = doc.page.width - 2 * MARGIN_PT;
    this.regular = (doc.font(REGULAR) as unknown as PdfInternals)._font;
    this.footer();
    doc.on('pageAdded', () => this.footer());
  }

  /** A writer with the report's heading, warnings, tiles and charts drawn; its tables follow with `table`. */
  static async start(report: ReportDocument, write: (chunk: Buffer) => void): Promise<ReportPdfWriter> {
    const writer = new ReportPdfWriter(report, write);
    await writer.head();
    return writer;
  }

  private ensure = (heightPt: number) => {
    const doc = this.doc;
    if (doc.y + heightPt > doc.page.height - MARGIN_PT - 20) doc.addPage();
  };

  private async head() {
    const { doc, width } = this;
    const report = this.report;
    const t = (key: string, vars?: Record<string, string | number>) => translate(report.lang, key, vars);
    doc.font(BOLD).fontSize(18).fillColor('#000').text(report.title, MARGIN_PT, MARGIN_PT);
    doc.font(REGULAR).fontSize(10).fillColor('#333');
    doc.text(`${t('reportFile.company')}: ${report.companies.join(', ') || '–'}`);
    doc.text(`${t('reportFile.period')}: ${report.period}`);
    doc.text(
      `${t('reportFile.generatedAt')}: ${generatedAtText(report.lang, report.generatedAt, report.timeZone)}`,
    );
    doc.moveDown(0.8);
    // Before the tiles: a figure read without its warning is read wrong.
    if (report.warnings.length) {
      doc.font(BOLD).fontSize(9).fillColor(WARNING_COLOUR);
      for (const w of report.warnings) doc.text(`⚠ ${w}`, MARGIN_PT, doc.y, { width });
      doc.fillColor('#000').moveDown(0.6);
    }

    drawTiles(
      doc,
      report,
      report.tiles.filter((tile) => !tile.budget || tile.value !== null),
      width,
    );

    for (const shown of report.charts) {
      const chart = {
        ...shown,
        series: shown.series.filter((x) => !x.budget || x.values.some((v) => v !== null)),
      };
      const heightPt = rotatesLabels(chart) ? 260 : 210;
      this.ensure(heightPt);
      const svg = await chartSvg(
        chart,
        report.lang,
        Math.round(width),
        heightPt,
        'DejaVu Sans',
        (text, size, bold) =>
          doc
            .font(bold ? BOLD : REGULAR)
            .fontSize(size)
            .widthOfString(text),
      );
      const y = doc.y;
      SVGtoPDF(doc, svg, MARGIN_PT, y, {
        width,
        height: heightPt,
        // The SVG is laid out in points; read as CSS pixels it shrank to 3/4 of the page's width.
        assumePt: true,
        fontCallback: (_family, bold) => (bold ? BOLD : REGULAR),
      });
      doc.y = y + heightPt + 10;
    }
  }

  /** Draws one table (its budget columns left out where no row has a budget); its pages are written. */
  table(table: Table) {
    drawTable(this.doc, this.report, withoutEmptyBudgetColumns(table), this.width, this.ensure);
    // The font's cache of laid-out words holds every distinct number of the document: let it go.
    for (const font of Object.values((this.doc as unknown as PdfInternals)._fontFamilies))
      if (font.layoutCache) font.layoutCache = Object.create(null) as Record<string, unknown>;
  }

  /** Writes the page numbers and ends the file; resolves once its last byte is written. */
  async end(): Promise<void> {
    const { doc, width } = this;
    const pages = this.footers.length;
    const font = this.regular;
    doc.font(REGULAR).fontSize(FOOTER_PT);
    this.footers.forEach((footer, i) => {
      const text = translate(this.report.lang, 'reportFile.pageOf', { page: i + 1, pages });
      const x = MARGIN_PT + width - doc.widthOfString(text);
      // pdfkit's own placement of a line whose top is `top`: its baseline one ascender lower.
      const top = doc.page.height - MARGIN_PT + 8;
      const baseline = doc.page.height - top - (font.ascender / 1000) * FOOTER_PT;
      const [glyphs] = font.encode(text);
      footer.end(
        `BT /${font.id} ${FOOTER_PT} Tf 0.4 0.4 0.4 rg 1 0 0 1 ${x.toFixed(2)} ${baseline.toFixed(2)} Tm <${glyphs.join('')}> Tj ET`,
      );
    });
    doc.end();
    await this.done;
  }

  /** The current page's footer: a form XObject drawn now, its text written by `end`. */
  private footer() {
    const doc = this.doc;
    const internals = doc as unknown as PdfInternals;
    // Not doc.font(): a page begun inside a table's text must not change the font that text is drawn in.
    const font = this.regular;
    const { width: w, height: h } = doc.page;
    const name = `Pg${this.footers.length + 1}`;
    const footer = doc.ref({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, w, h],
      Resources: { Font: { [font.id]: font.ref() } },
    });
    internals.page.xobjects[name] = footer;
    // pdfkit's pages draw top-down (a flipped y); the form is drawn in the PDF's own space, y up.
    doc.addContent(`q 1 0 0 -1 0 ${h} cm /${name} Do Q`);
    this.footers.push(footer);
  }
}

/** A report in its language as a PDF: heading, KPI tiles, server-rendered charts, tables, page numbers. */
export async function toReportPdf(document: ReportDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const writer = await ReportPdfWriter.start(document, (c) => chunks.push(c));
  for (const table of document.tables) writer.table(table);
  await writer.end();
  return Buffer.concat(chunks);
}

/**
 * One table cell on one line: placed by measured width instead of pdfkit's line wrapper, which costs
 * most of a large table's time; text longer than the cell is cut with an ellipsis.
 */
function fastCell(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  width: number,
  right: boolean,
) {
  const room = width - 4;
  let s = text;
  let w = doc.widthOfString(s);
  if (w > room) {
    while (s.length > 1 && doc.widthOfString(`${s}…`) > room) s = s.slice(0, -1);
    s = `${s}…`;
    w = doc.widthOfString(s);
  }
  doc.text(s, right ? x + width - 2 - w : x + 2, y + 3, { lineBreak: false });
}

function drawTiles(doc: PDFKit.PDFDocument, report: ReportDocument, tiles: readonly Tile[], width: number) {
  if (!tiles.length) return;
  const gap = 8;
  const w = (width - gap * (tiles.length - 1)) / tiles.length;
  const h = 52;
  const y = doc.y;
  tiles.forEach((tile, i) => {
    const x = MARGIN_PT + i * (w + gap);
    doc.roundedRect(x, y, w, h, 4).lineWidth(0.8).strokeColor('#d9d9d9').stroke();
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor('#666')
      .text(tile.label, x + 8, y + 6, { width: w - 16, lineBreak: false, ellipsis: true });
    const value = cellText(report, tile.value, tile);
    const unit = tile.kind === 'ratio' || !tile.unit || tile.value === null ? '' : ` ${tile.unit}`;
    doc
      .font(BOLD)
      .fontSize(15)
      .fillColor(BLUE)
      .text(`${value}${unit}`, x + 8, y + 22, { width: w - 16, lineBreak: false, ellipsis: true });
  });
  doc.x = MARGIN_PT;
  doc.y = y + h + 12;
}

/** The cell's lines: text that does not fit its column wraps (names are never cut), numbers stay on one. */
function cellLines(doc: PDFKit.PDFDocument, text: string, widthPt: number, wraps: boolean): number {
  if (!wraps || doc.widthOfString(text) <= widthPt - 4) return 1;
  return Math.max(1, Math.round(doc.heightOfString(text, { width: widthPt - 4 }) / doc.currentLineHeight()));
}

function drawTable(
  doc: PDFKit.PDFDocument,
  report: ReportDocument,
  table: Table,
  width: number,
  ensure: (heightPt: number) => void,
) {
  for (const columns of parts(table)) {
    const first = 150;
    const other = columns.length > 1 ? (width - first) / (columns.length - 1) : 0;
    const xs = columns.map((_, i) => MARGIN_PT + (i === 0 ? 0 : first + (i - 1) * other));
    const ws = columns.map((_, i) => (i === 0 ? first : other));
    // Text (names) wraps and, as the first column, is left-aligned; numbers stay on one line, right-aligned,
    // but for a loss written in words (above expectation), which wraps right-aligned.
    const wraps = columns.map((c) => table.columns[c]!.kind === 'text' || table.columns[c]!.loss === true);
    const left = columns.map((_, i) => i === 0 || table.columns[columns[i]!]!.kind === 'text');
    // A header wraps between words and after hyphens; one whose longest word is wider than its column ("underperformance"
    // in a narrow column) gets a smaller size rather than a break inside the word.
    const headerSizes = columns.map((c, i) => {
      doc.font(BOLD).fontSize(HEADER_PT);
      const longest = Math.max(
        ...headerOf(table.columns[c]!)
          .split(/\s+|(?<=-)/)
          .map((w) => doc.widthOfString(w)),
      );
      const room = ws[i]! - 4;
      // pdfkit wraps a hair before the measured width: a little room to spare.
      return longest > room ? Math.max(MIN_HEADER_PT, (HEADER_PT * room * 0.95) / longest) : HEADER_PT;
    });
    const headerHeight = () =>
      Math.max(
        ...columns.map((c, i) =>
          doc
            .font(BOLD)
            .fontSize(headerSizes[i]!)
            .heightOfString(headerOf(table.columns[c]!), { width: ws[i]! - 4 }),
        ),
      ) + 6;
    const header = () => {
      const h = headerHeight();
      const y = doc.y;
      doc.rect(MARGIN_PT, y, width, h).fill('#f0f5ff');
      doc.fillColor('#000');
      columns.forEach((c, i) =>
        doc
          .font(BOLD)
          .fontSize(headerSizes[i]!)
          .text(headerOf(table.columns[c]!), xs[i]! + 2, y + 3, {
            width: ws[i]! - 4,
            align: left[i] ? 'left' : 'right',
          }),
      );
      doc.y = y + h;
    };
    const texts = (cells: CellValue[]) =>
      columns.map((c) => cellText(report, cells[c] ?? null, table.columns[c]!));
    const rowHeight = (cells: string[], bold: boolean) => {
      doc.font(bold ? BOLD : REGULAR).fontSize(7);
      const lines = Math.max(...cells.map((text, i) => cellLines(doc, text, ws[i]!, wraps[i]!)));
      return ROW_PT + (lines - 1) * doc.currentLineHeight();
    };
    const all = [
      ...table.rows.map((r) => ({ r, bold: false })),
      ...(table.totals ? [{ r: table.totals, bold: true }] : []),
    ];
    // The heading stays with its column header and first rows: never alone at the foot of a page.
    doc.font(BOLD).fontSize(11);
    const headingHeight = 6 + doc.heightOfString(table.name, { width }) + doc.currentLineHeight() * 0.3;
    const firstRows = all.slice(0, 2).reduce((a, x) => a + rowHeight(texts(x.r), x.bold), 0);
    ensure(headingHeight + headerHeight() + firstRows);
    doc
      .font(BOLD)
      .fontSize(11)
      .fillColor('#000')
      .text(table.name, MARGIN_PT, doc.y + 6, { width });
    doc.moveDown(0.3);
    header();
    const row = (cells: string[], bold: boolean) => {
      const h = rowHeight(cells, bold);
      if (doc.y + h > doc.page.height - MARGIN_PT - 20) {
        doc.addPage();
        header();
      }
      const y = doc.y;
      doc
        .font(bold ? BOLD : REGULAR)
        .fontSize(7)
        .fillColor('#000');
      cells.forEach((text, i) => {
        if (wraps[i] && cellLines(doc, text, ws[i]!, true) > 1)
          doc.text(text, xs[i]! + 2, y + 3, { width: ws[i]! - 4, align: left[i] ? 'left' : 'right' });
        else fastCell(doc, text, xs[i]!, y, ws[i]!, !left[i]);
      });
      doc
        .moveTo(MARGIN_PT, y + h)
        .lineTo(MARGIN_PT + width, y + h)
        .lineWidth(0.3)
        .strokeColor('#e8e8e8')
        .stroke();
      doc.y = y + h;
    };
    for (const x of all) row(texts(x.r), x.bold);
    doc.x = MARGIN_PT;
    doc.y += 8;
  }
}

/**
 * A table without its budget columns where no row of it has a budget (a column of "–" only fills the page).
 * The tiles and charts likewise leave out their budget figures without a value (ReportPdfWriter).
 */
export function withoutEmptyBudgetColumns(table: Table): Table {
  const keep = table.columns.map(
    (c, i) => !c.budget || [...table.rows, ...(table.totals ? [table.totals] : [])].some((r) => r[i] != null),
  );
  if (keep.every(Boolean)) return table;
  const pick = <V>(cells: V[]) => cells.filter((_, i) => keep[i]);
  return {
    ...table,
    columns: pick(table.columns),
    rows: table.rows.map(pick),
    ...(table.totals ? { totals: pick(table.totals) } : {}),
  };
}
