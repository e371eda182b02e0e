import type { Actor } from '../../lib/actor';
import type { MailAttachment } from '../../lib/mailer';
import { generateReport, type ReportFileContext } from '../reports';
import type { ReportFileRequest } from './jobs/report-schedule-runner';

/**
 * One file of a scheduled report: the same generator, scope and file name as a download of GET
 * reports/{type} by the subscriber, in their language. It queues for a build thread like a download, but
 * is not counted against the subscriber's own builds: a refusal would only delay the mail.
 */
export async function renderScheduledReport(
  ctx: ReportFileContext,
  actor: Actor,
  request: ReportFileRequest,
): Promise<MailAttachment> {
  const file = await generateReport(
    ctx,
    actor,
    request.type,
    {
      plant_ids: request.plantIds,
      from: request.period.from,
      to: request.period.to,
      lang: request.lang,
      format: request.format,
      // A monthly report reads best by day, as the download's default.
      granularity: 'day',
    },
    null,
  );
  return {
    filename: file.filename,
    contentType: file.contentType,
    content: typeof file.body === 'string' ? Buffer.from(file.body, 'utf8') : file.body,
  };
}
