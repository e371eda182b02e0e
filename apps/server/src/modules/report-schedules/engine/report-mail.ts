import { translate } from '@solar/i18n';
import type { Locale, ScheduledReportType } from '@solar/shared';
import type { Mail, MailAttachment } from '../../../lib/mailer';
import { mailSafeText } from '../../../lib/mail-text';
import type { ReportPeriod } from './schedule-times';

export interface ReportMailInput {
  to: string;
  name: string;
  locale: Locale;
  reportType: ScheduledReportType;
  period: ReportPeriod;
  plantNames: readonly string[];
  /** Base of the console's address (PUBLIC_URL), for the link to the subscriptions. */
  publicUrl: string;
  attachments: MailAttachment[];
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A local date (YYYY-MM-DD) as the reader's language writes it; the date is a calendar date, no zone. */
export function formatDate(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale.replace('_', '-'), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    Date.parse(`${date}T00:00:00Z`),
  );
}

/** The period as one text: a single date for a day, "from – to" otherwise. */
export function formatPeriod(period: ReportPeriod, locale: Locale): string {
  const from = formatDate(period.from, locale);
  return period.from === period.to ? from : `${from} – ${formatDate(period.to, locale)}`;
}

/** The mail of one scheduled run, in the subscriber's language, with the report files attached. */
export function reportMail(input: ReportMailInput): Mail {
  const t = (key: string, vars: Record<string, string | number> = {}) =>
    translate(input.locale, `mail.reportSchedule.${key}`, vars);
  const report = translate(input.locale, `reportPage.types.${input.reportType}`);
  const period = formatPeriod(input.period, input.locale);
  // Names users typed reach the mail without links or line breaks (lib/mail-text.ts).
  const plants = input.plantNames.map(mailSafeText).join(', ');
  const link = `${input.publicUrl}/report`;
  const lines = [
    t('greeting', { name: mailSafeText(input.name) }),
    t('summary', { report, period }),
    t('plants', { plants }),
    t('manage'),
    link,
  ];
  return {
    to: input.to,
    subject: t('subject', { report, period }),
    text: lines.join('\n\n'),
    html: lines
      .slice(0, -1)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .concat(`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`)
      .join(''),
    attachments: input.attachments,
  };
}
