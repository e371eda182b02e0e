import type { FastifyBaseLogger } from 'fastify';
import { translate } from '@solar/i18n';
import { ALARM_PRIORITY, localeOfLanguageId, type Locale } from '@solar/shared';
import type { AlarmChange, AlarmFeed } from '../modules/alarms';
import type { AppContext } from '../context';
import { MailHeldBack } from '../lib/mail-budget';
import { mailSafeText } from '../lib/mail-text';
import { scopeOf } from '../lib/scope';
import { alarmRecipients, plantsInfo, type AlarmRecipient } from './recipients.repository';

/** Priorities that are mailed: 3 high, 4 high and dangerous. */
export const DIGEST_MIN_PRIORITY = ALARM_PRIORITY.high;
/** Kinds that are mailed: an alarm appearing and an alarm ending by itself. */
const DIGEST_KINDS: ReadonlySet<AlarmChange['kind']> = new Set(['raised', 'cleared']);

export interface AlarmNotificationOptions {
  /**
   * How long changes are collected before one digest per recipient goes out (ms, default 30 s); a
   * function is read each time a window opens (the admin panel's setting applies without a restart).
   */
  windowMs?: number | (() => number);
  /** Changes listed in one mail; the rest are counted (default 200). */
  maxListed?: number;
  /** Changes kept while waiting; a storm beyond this is counted, not listed (default 10,000). */
  maxPending?: number;
}

export interface AlarmNotifications {
  /** Sends the digests of what has been collected now, without waiting for the window. */
  flush(): Promise<void>;
  /** Unsubscribes, then sends what was collected. */
  stop(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'error' | 'info'>;

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Does the recipient reach the plant (company, or their field and plant units)? */
function reaches(recipient: AlarmRecipient, companyId: number, plantId: number, fieldId: number | undefined) {
  const scope = scopeOf({ isAdmin: false, companyId: recipient.companyId, units: recipient.units });
  if (scope.all) return true;
  if (scope.companyId !== companyId) return false;
  return (
    scope.wholeCompany ||
    scope.plantIds.includes(plantId) ||
    (fieldId !== undefined && scope.fieldIds.includes(fieldId))
  );
}

function formatTime(iso: string, locale: Locale, timeZone: string | undefined): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale.replace('_', '-'), {
      dateStyle: 'short',
      timeStyle: 'medium',
      timeZone: timeZone ?? 'UTC',
    }).format(date);
  } catch {
    return date.toISOString();
  }
}

/** One digest mail: the changes in the recipient's language, oldest first. */
function renderDigest(
  recipient: AlarmRecipient,
  changes: readonly AlarmChange[],
  dropped: number,
  zones: Map<number, { timeZone: string }>,
  publicUrl: string,
  maxListed: number,
) {
  const locale = localeOfLanguageId(recipient.languageId);
  const t = (key: string, vars?: Record<string, string | number>) =>
    translate(locale, `mail.alarmDigest.${key}`, vars);
  const raised = changes.filter((c) => c.kind === 'raised').length;
  const cleared = changes.length - raised;
  const listed = changes.slice(0, maxListed);
  const more = changes.length - listed.length + dropped;
  const lines = listed.map(({ kind, alarm }) => {
    const params = Object.fromEntries(
      Object.entries(alarm.message_params).map(([k, v]) => [k, v === null ? '' : String(v)]),
    );
    const at = kind === 'cleared' && alarm.cleared_at ? alarm.cleared_at : alarm.started_at;
    return t('line', {
      kind: t(kind),
      priority: t(alarm.priority_id >= ALARM_PRIORITY.dangerous ? 'priorityDangerous' : 'priorityHigh'),
      time: formatTime(at, locale, zones.get(alarm.plant_id)?.timeZone),
      // Names and custom rule messages are typed by users: no links or line breaks (lib/mail-text.ts).
      plant: mailSafeText(alarm.plant_name),
      device: alarm.device_name === null ? '—' : mailSafeText(alarm.device_name),
      message: mailSafeText(translate(locale, alarm.message, params)),
    });
  });
  const link = `${publicUrl}/alarms`;
  const greeting = t('greeting', { name: mailSafeText(recipient.name) });
  const summary = t('summary', { raised, cleared });
  const tail = more > 0 ? [t('more', { count: more })] : [];
  return {
    to: recipient.email,
    budget: 'alarm' as const,
    subject: t('subject', { count: changes.length + dropped }),
    text: [greeting, '', summary, '', ...lines, ...tail, '', t('open'), link, '', t('footer')].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(summary)}</p>`,
      `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      ...tail.map((l) => `<p>${escapeHtml(l)}</p>`),
      `<p>${escapeHtml(t('open'))} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      `<p><small>${escapeHtml(t('footer'))}</small></p>`,
    ].join('\n'),
  };
}

/**
 * Mails high and high-and-dangerous alarms (raised and cleared) to the active users of the plant's
 * company whose role has ('alarm', 'view'), within their units, in each one's language. Changes are
 * collected for `windowMs` from the first one, then each recipient gets one digest of all of them: a
 * storm of 500 alarms is one mail per person. The console admin (no company) is not mailed. A failed
 * send is logged and not retried.
 */
export function startAlarmNotifications(
  ctx: Pick<AppContext, 'db' | 'mailer' | 'config'>,
  feed: Pick<AlarmFeed, 'onAlarmChange'>,
  log: Log,
  options: AlarmNotificationOptions = {},
): AlarmNotifications {
  const windowMs = (): number =>
    typeof options.windowMs === 'function' ? options.windowMs() : (options.windowMs ?? 30_000);
  const maxListed = options.maxListed ?? 200;
  const maxPending = options.maxPending ?? 10_000;
  let pending: AlarmChange[] = [];
  /** Changes over maxPending, per company: counted in the digest, not listed. */
  let dropped = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();

  const send = async (changes: AlarmChange[], droppedByCompany: Map<number, number>) => {
    const companyIds = [...new Set([...changes.map((c) => c.alarm.company_id), ...droppedByCompany.keys()])];
    const [recipients, plants] = await Promise.all([
      alarmRecipients(ctx.db, companyIds),
      plantsInfo(ctx.db, [...new Set(changes.map((c) => c.alarm.plant_id))]),
    ]);
    const ordered = [...changes].sort(
      (a, b) => Date.parse(a.alarm.started_at) - Date.parse(b.alarm.started_at),
    );
    let sent = 0;
    for (const recipient of recipients) {
      const mine = ordered.filter((c) =>
        reaches(recipient, c.alarm.company_id, c.alarm.plant_id, plants.get(c.alarm.plant_id)?.fieldId),
      );
      const unlisted = droppedByCompany.get(recipient.companyId) ?? 0;
      if (!mine.length) continue;
      try {
        await ctx.mailer.send(
          renderDigest(recipient, mine, unlisted, plants, ctx.config.publicUrl, maxListed),
        );
        sent++;
      } catch (error) {
        // Held back by the recipient's daily budget: the mailer has logged and counted it.
        if (!(error instanceof MailHeldBack)) {
          log.error({ err: error, userId: recipient.id }, 'alarm digest mail failed');
        }
      }
    }
    if (sent) log.info({ mails: sent, changes: changes.length }, 'alarm digest sent');
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const changes = pending;
    const droppedNow = dropped;
    pending = [];
    dropped = new Map();
    // One flush at a time, in order; an error is logged so the next flush still runs.
    chain = chain.then(async () => {
      if (!changes.length && !droppedNow.size) return;
      try {
        await send(changes, droppedNow);
      } catch (error) {
        log.error({ err: error }, 'alarm digest failed');
      }
    });
    return chain;
  };

  const unsubscribe = feed.onAlarmChange((change) => {
    if (!DIGEST_KINDS.has(change.kind) || change.alarm.priority_id < DIGEST_MIN_PRIORITY) return;
    if (pending.length < maxPending) pending.push(change);
    else dropped.set(change.alarm.company_id, (dropped.get(change.alarm.company_id) ?? 0) + 1);
    if (!timer) {
      timer = setTimeout(() => void flush(), windowMs());
      timer.unref();
    }
  });

  return {
    flush,
    async stop() {
      unsubscribe();
      await flush();
    },
  };
}
