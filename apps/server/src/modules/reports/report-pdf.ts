import { createRequire } from 'node:module';
import { translate } from '@solar/i18n';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { chartSvg } from './report-chart';
import { headerOf } from './report-csv';
import type { CellValue, Column, ReportDocument, Table, Tile } from './report-document';

const require = createRequire(import.meta.url);
/** DejaVu Sans covers Latin (Turkish ğ ı ş İ, German ß ä ö ü) and Cyrillic (Macedonian ѓ ќ ѕ џ љ њ). */
const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
const REGULAR = 'DejaVuSans';
const BOLD = 'DejaVuSans-Bold';

const MARGIN_PT = 36;
/** Columns per printed table part: wider tables continue below with the first column repeated. */
const MAX_COLUMNS = 10;
const ROW_PT = 13;
const BLUE = '#1677ff';
/** Ant Design's warning text colour, dark enough to read in print. */
const WARNING_COLOUR = '#ad6800';

const LOCALE_TAGS = { tr_TR: 'tr-TR', en_US: 'en-US', de_DE: 'de-DE', mk_MK: 'mk-MK' } as const;

/** Formats numbers the way the report's language writes them (`1.234,5` in Turkish, `1,234.5` in English). */
export function pdfNumber(lang: ReportDocument['lang'], value: number, decimals: number): string {
  return new Intl.NumberFormat(LOCALE_TAGS[lang], {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

function cellText(doc: ReportDocument, v: CellValue, c: { kind: Column['kind']; decimals?: number }): string {
  if (v === null) return '–';
  if (typeof v === 'string') return v;
  if (c.kind === 'ratio') return `${pdfNumber(doc.lang, v * 100, c.decimals ?? 1)} %`;
  if (c.kind === 'integer') return String(v);
  return pdfNumber(doc.lang, v, c.decimals ?? 2);
}

/** Splits a wide table into parts of at most MAX_COLUMNS, each starting with the first column. */
function parts(table: Table): number[][] {
  const rest = table.columns.map((_, i) => i).slice(1);
  const out: number[][] = [];
  for (let i = 0; i < rest.length; i += MAX_COLUMNS - 1) out.push([0, ...rest.slice(i, i + MAX_COLUMNS - 1)]);
  return out.length ? out : [[0]];
}

/** A report in its language as a PDF: heading, KPI tiles, server-rendered charts, tables, page numbers. */
export async function toReportPdf(report: ReportDocument): Promise<Buffer> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(report.lang, key, vars);
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN_PT,
    bufferPages: true,
    info: { Title: `${report.title} ${report.period}`, Author: report.companies.join(', ') },
    lang: LOCALE_TAGS[report.lang],
  });
  doc.registerFont(REGULAR, FONT_REGULAR);
  doc.registerFont(BOLD, FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN_PT;
  const bottom = () => doc.page.height - MARGIN_PT - 20;
  const ensure = (heightPt: number) => {
    if (doc.y + heightPt > bottom()) doc.addPage();
  };

  // Heading.
  doc.font(BOLD).fontSize(18).fillColor('#000').text(report.title, MARGIN_PT, MARGIN_PT);
  doc.font(REGULAR).fontSize(10).fillColor('#333');
  doc.text(`${t('reportFile.company')}: ${report.companies.join(', ') || '–'}`);
  doc.text(`${t('reportFile.period')}: ${report.period}`);
  doc.text(`${t('reportFile.generatedAt')}: ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC`);
  doc.moveDown(0.8);
  // Before the tiles: a figure read without its warning is read wrong.
  if (report.warnings.length) {
    doc.font(BOLD).fontSize(9).fillColor(WARNING_COLOUR);
    for (const w of report.warnings) doc.text(`⚠ ${w}`, MARGIN_PT, doc.y, { width });
    doc.fillColor('#000').moveDown(0.6);
  }

  drawTiles(doc, report, report.tiles, width);

  for (const chart of report.charts) {
    const heightPt = 210;
    ensure(heightPt);
    const svg = await chartSvg(chart, Math.round(width), heightPt, 'DejaVu Sans');
    const y = doc.y;
    SVGtoPDF(doc, svg, MARGIN_PT, y, {
      width,
      height: heightPt,
      fontCallback: (_family, bold) => (bold ? BOLD : REGULAR),
    });
    doc.y = y + heightPt + 10;
  }

  for (const table of report.tables) drawTable(doc, report, table, width, ensure);

  // Page numbers on every page, once the page count is known.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor('#666')
      .text(
        t('reportFile.pageOf', { page: i + 1, pages: range.count }),
        MARGIN_PT,
        doc.page.height - MARGIN_PT + 8,
        {
          width,
          align: 'right',
          lineBreak: false,
        },
      );
    doc.page.margins.bottom = keep;
  }
  doc.end();
  return done;
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
    const unit = tile.kind === 'ratio' || !tile.unit ? '' : ` ${tile.unit}`;
    doc
      .font(BOLD)
      .fontSize(15)
      .fillColor(BLUE)
      .text(`${value}${unit}`, x + 8, y + 22, { width: w - 16, lineBreak: false, ellipsis: true });
  });
  doc.x = MARGIN_PT;
  doc.y = y + h + 12;
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
    const header = () => {
      doc.font(BOLD).fontSize(7);
      const heights = columns.map((c, i) =>
        doc.heightOfString(headerOf(table.columns[c]!), { width: ws[i]! - 4 }),
      );
      const h = Math.max(...heights) + 6;
      ensure(h + ROW_PT);
      const y = doc.y;
      doc.rect(MARGIN_PT, y, width, h).fill('#f0f5ff');
      doc.fillColor('#000');
      columns.forEach((c, i) =>
        doc.text(headerOf(table.columns[c]!), xs[i]! + 2, y + 3, {
          width: ws[i]! - 4,
          align: i === 0 ? 'left' : 'right',
        }),
      );
      doc.y = y + h;
    };
    ensure(40);
    doc
      .font(BOLD)
      .fontSize(11)
      .fillColor('#000')
      .text(table.name, MARGIN_PT, doc.y + 6);
    doc.moveDown(0.3);
    header();
    const row = (cells: CellValue[], bold: boolean) => {
      if (doc.y + ROW_PT > doc.page.height - MARGIN_PT - 20) {
        doc.addPage();
        header();
      }
      const y = doc.y;
      doc
        .font(bold ? BOLD : REGULAR)
        .fontSize(7)
        .fillColor('#000');
      columns.forEach((c, i) =>
        fastCell(doc, cellText(report, cells[c] ?? null, table.columns[c]!), xs[i]!, y, ws[i]!, i !== 0),
      );
      doc
        .moveTo(MARGIN_PT, y + ROW_PT)
        .lineTo(MARGIN_PT + width, y + ROW_PT)
        .lineWidth(0.3)
        .strokeColor('#e8e8e8')
        .stroke();
      doc.y = y + ROW_PT;
    };
    for (const r of table.rows) row(r, false);
    if (table.totals) row(table.totals, true);
    doc.x = MARGIN_PT;
    doc.y += 8;
  }
}
