import type {
  ProductionReportAnswer,
  ReportAnswer,
  ReportFormat,
  ReportQueryParsed,
  ReportType,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { defaultCsvDelimiter } from '@solar/shared';
import type { SendPart } from '../../file-builds/file-build-pool';
import { buildReport, type ReportContext } from './report-data';
import { rowSources } from './report-document';

/** What a report file needs of the app: the report's data, and the threads that lay files out. */
export type ReportFileContext = ReportContext & Pick<AppContext, 'fileBuilds'>;

/** A generated report file (or the JSON answer as text). */
export interface ReportFile {
  filename: string;
  contentType: string;
  body: Buffer | string;
}

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** `production-2026-10-01_2026-10-31.xlsx`: type and period, ASCII only. */
export const reportFilename = (type: ReportType, query: ReportQueryParsed) =>
  `${type}-${query.from}_${query.to}.${query.format}`;

/** Plants per part sent to the build thread: a year of days of 10 plants is a few milliseconds to copy. */
const PLANTS_PER_PART = 10;

/**
 * One report in the asked format, scoped to the actor (GET reports/{type}; scheduled reports call it
 * too). Throws the same 400/404 HttpErrors as the route answers. Files are laid out on a build thread
 * (file-builds/), counted against `owner`'s builds (null: the server's own job, never refused).
 */
export async function generateReport(
  ctx: ReportFileContext,
  actor: Actor,
  type: ReportType,
  query: ReportQueryParsed,
  owner: number | null = actor.userId,
): Promise<ReportFile> {
  const filename = reportFilename(type, query);
  const contentType = REPORT_CONTENT_TYPES[query.format];
  if (query.format === 'json')
    return { filename, contentType, body: JSON.stringify(await buildReport(ctx, actor, type, query)) };
  const job = {
    kind: 'report' as const,
    format: query.format,
    delimiter: query.delimiter ?? defaultCsvDelimiter(query.lang),
  };
  const body = await ctx.fileBuilds.build(owner, job, (send) => sendReport(ctx, actor, type, query, send));
  return { filename, contentType, body };
}

/** Builds the report's answer and sends it to the build thread (sendReportAnswer). */
async function sendReport(
  ctx: ReportContext,
  actor: Actor,
  type: ReportType,
  query: ReportQueryParsed,
  send: SendPart,
): Promise<void> {
  await sendReportAnswer(await buildReport(ctx, actor, type, query), send);
}

/**
 * Sends a report's answer to a build thread: the head, then the plants in slices. A production report's
 * head carries its plants' totals without their rows, and the sources of those rows: enough for the PDF's
 * summary, tiles and charts, which come before the first plant's table.
 */
export async function sendReportAnswer(answer: ReportAnswer, send: SendPart): Promise<void> {
  const { plants, ...head } = answer;
  if (head.type === 'production') {
    const all = plants as ProductionReportAnswer['plants'];
    // One plant keeps its rows: its chart is drawn by row.
    const heads = all.length === 1 ? all : all.map((p) => ({ ...p, rows: [] }));
    await send({ head: { ...head, plants: heads } as ReportAnswer, sources: all.map(rowSources) });
  } else await send({ head: { ...head, plants: [] } as ReportAnswer });
  for (let i = 0; i < plants.length; i += PLANTS_PER_PART)
    await send({ plants: plants.slice(i, i + PLANTS_PER_PART) as ReportAnswer['plants'] });
}
