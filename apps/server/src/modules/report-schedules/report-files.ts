import ExcelJS from 'exceljs';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import type { MailAttachment } from '../../lib/mailer';
import type { ReportFileRequest } from './jobs/report-schedule-runner';

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** `production-2026-11-01_2026-11-30.pdf` */
export function reportFileName(request: ReportFileRequest): string {
  const { from, to } = request.period;
  return `${request.type}-${from === to ? from : `${from}_${to}`}.${request.format}`;
}

/** A one-page PDF 1.4 of ASCII lines in Helvetica, with a correct cross-reference table. */
function minimalPdf(lines: readonly string[]): Buffer {
  const escape = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const text = lines.map((l, i) => `BT /F1 12 Tf 50 ${780 - i * 18} Td (${escape(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * One file of a scheduled report. Stand-in until the reports module's generator (branch `reports`,
 * `generateReport`) is merged: it names the report, the period and the plants, so the delivery path —
 * schedule, files, mail, outbox — is whole and tested meanwhile.
 */
export async function renderScheduledReport(
  ctx: Pick<AppContext, 'db'>,
  _actor: Actor,
  request: ReportFileRequest,
): Promise<MailAttachment> {
  const plants = await ctx.db
    .selectFrom('plants')
    .select(['id', 'name'])
    .where('id', 'in', request.plantIds)
    .orderBy('id')
    .execute();
  const filename = reportFileName(request);
  const contentType = CONTENT_TYPES[request.format];
  if (request.format === 'pdf') {
    const lines = [
      `${request.type} ${request.period.from} - ${request.period.to}`,
      ...plants.map((p) => p.name),
    ];
    return { filename, contentType, content: minimalPdf(lines) };
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(request.type);
  sheet.addRow(['from', 'to']);
  sheet.addRow([request.period.from, request.period.to]);
  sheet.addRow([]);
  sheet.addRow(['plant_id', 'plant']);
  for (const p of plants) sheet.addRow([p.id, p.name]);
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  return { filename, contentType, content };
}
