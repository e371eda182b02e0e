import type { FastifyBaseLogger } from 'fastify';
import {
  REPORT_SCHEDULE_ERRORS,
  hasPermission,
  localeOfLanguageId,
  type Locale,
  type ScheduledReportFormat,
  type ScheduledReportType,
} from '@solar/shared';
import type { AppContext } from '../../../context';
import type { Actor } from '../../../lib/actor';
import { MailHeldBack } from '../../../lib/mail-budget';
import type { MailAttachment } from '../../../lib/mailer';
import { scopeOf } from '../../../lib/scope';
import { findRolePermissions, findSessionUser, findUserUnits } from '../../auth';
import { reportMail } from '../engine/report-mail';
import {
  MAX_SEND_ATTEMPTS,
  nextRunAt,
  reportPeriod,
  retryDelayMs,
  runToDeliver,
  type ReportPeriod,
} from '../engine/schedule-times';
import * as repo from '../report-schedules.repository';
import { ruleOf } from '../report-schedules.service';

/** One report file a scheduled run asks for, as the subscriber would download it. */
export interface ReportFileRequest {
  type: ScheduledReportType;
  plantIds: number[];
  period: ReportPeriod;
  lang: Locale;
  format: ScheduledReportFormat;
}

/** Generates one report file for the actor (the reports module's work, handed in by buildApp). */
export type ReportRenderer = (actor: Actor, request: ReportFileRequest) => Promise<MailAttachment>;

export interface ReportScheduleRunner {
  /**
   * Delivers every subscription whose attempt is due at `now`, one after the other; answers how many mails
   * went out. Each row is claimed with a conditional update first, so concurrent callers never deliver the
   * same run; a cluster-wide lease can wrap this one call.
   */
  runDueSchedules(now: number): Promise<number>;
  /** Runs once at once (the runs missed while the server was down), then every interval. */
  start(log: FastifyBaseLogger): void;
  /** Resolves when the pass under way, if any, has finished. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export interface ReportScheduleRunnerOptions {
  /** How often due runs are looked for (ms, default 30 s). */
  intervalMs?: number;
  /** Subscriptions delivered per pass (default 20); the rest wait for the next pass. */
  batch?: number;
}

/** How long a claimed run is kept from other runners: a crashed runner's claim expires after it. */
const CLAIM_MS = 15 * 60_000;

class DeliveryError extends Error {
  constructor(
    readonly key: string,
    readonly retry: boolean,
    readonly reason?: unknown,
  ) {
    super(key);
  }
}

/** The subscriber as an actor with their language, or why nothing may be sent for them. */
async function subscriberOf(ctx: Pick<AppContext, 'db'>, userId: number) {
  const user = await findSessionUser(ctx.db, userId);
  if (!user?.isActive) return undefined;
  const permissions = user.isAdmin ? [] : await findRolePermissions(ctx.db, user.roleId);
  if (!user.isAdmin && !hasPermission(permissions, 'report', 'view')) return undefined;
  const email = await ctx.db
    .selectFrom('users')
    .select(['email', 'email_confirmed_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const actor: Actor = {
    userId,
    isAdmin: user.isAdmin,
    companyId: user.companyId,
    units: await findUserUnits(ctx.db, userId),
    ip: null,
  };
  return {
    actor,
    email: email.email,
    emailConfirmed: email.email_confirmed_at !== null,
    name: user.name,
    locale: localeOfLanguageId(user.languageId),
  };
}

/**
 * Builds the runner of scheduled reports: the due-run logic over the database, the report files from
 * `render`, the mail through ctx.mailer (read at each send, so the outbox or SMTP in force is used).
 */
export function createReportScheduleRunner(
  ctx: Pick<AppContext, 'db' | 'now' | 'mailer' | 'config'>,
  render: ReportRenderer,
  options: ReportScheduleRunnerOptions = {},
): ReportScheduleRunner {
  const intervalMs = options.intervalMs ?? 30_000;
  const batch = options.batch ?? 20;
  let log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  let running = false;

  /** Renders and sends one run; throws a DeliveryError naming what failed. */
  async function deliver(row: repo.ScheduleRow, runAt: number): Promise<void> {
    const subscriber = await subscriberOf(ctx, row.user_id);
    if (!subscriber) throw new DeliveryError(REPORT_SCHEDULE_ERRORS.noAccess, false);
    // An address nobody confirmed may not be the subscriber's: nothing is mailed to it (docs/security.md).
    if (!subscriber.emailConfirmed) throw new DeliveryError(REPORT_SCHEDULE_ERRORS.emailUnconfirmed, false);
    const wanted = JSON.parse(row.plant_ids) as number[];
    const plants = await repo.plantsInScope(ctx.db, scopeOf(subscriber.actor), wanted);
    // Plants that left the subscriber's scope are left out of the report, never sent.
    const plantIds = wanted.filter((id) => plants.some((p) => p.id === id));
    if (plantIds.length === 0) throw new DeliveryError(REPORT_SCHEDULE_ERRORS.noAccess, false);
    const period = reportPeriod(ruleOf(row), runAt);
    const type = row.report_type as ScheduledReportType;
    const attachments: MailAttachment[] = [];
    for (const format of JSON.parse(row.formats) as ScheduledReportFormat[]) {
      try {
        attachments.push(
          await render(subscriber.actor, { type, plantIds, period, lang: subscriber.locale, format }),
        );
      } catch (error) {
        throw new DeliveryError(REPORT_SCHEDULE_ERRORS.reportFailed, true, error);
      }
    }
    const mail = reportMail({
      to: subscriber.email,
      name: subscriber.name,
      locale: subscriber.locale,
      reportType: type,
      period,
      plantNames: plantIds.map((id) => plants.find((p) => p.id === id)!.name),
      publicUrl: ctx.config.publicUrl,
      attachments,
    });
    try {
      await ctx.mailer.send(mail);
    } catch (error) {
      // Over the address's daily budget: not retried, since a retry would only be held back again.
      if (error instanceof MailHeldBack) throw new DeliveryError(REPORT_SCHEDULE_ERRORS.mailLimit, false);
      throw new DeliveryError(REPORT_SCHEDULE_ERRORS.sendFailed, true, error);
    }
  }

  /** Claims, delivers and records one due subscription; true when its mail went out. */
  async function runOne(id: number, now: number): Promise<boolean> {
    const row = await repo.findScheduleById(ctx.db, id);
    if (!row || row.is_paused || Number(row.due_at) > now) return false;
    const claimedUntil = now + CLAIM_MS;
    if (!(await repo.claimSchedule(ctx.db, id, Number(row.due_at), claimedUntil))) return false;
    const rule = ruleOf(row);
    const pending = Number(row.next_run_at);
    const runAt = runToDeliver(rule, pending, now);
    // Only a run being retried carries attempts over; a newer occurrence or a fresh run starts afresh.
    const attemptsBefore = runAt === pending && row.last_status === 'retrying' ? row.failed_attempts : 0;
    const following = nextRunAt(rule, Math.max(runAt, now));
    try {
      await deliver(row, runAt);
      await repo.finishRun(ctx.db, id, claimedUntil, {
        next_run_at: following,
        due_at: following,
        failed_attempts: 0,
        last_status: 'sent',
        last_error: null,
        last_sent_at: now,
      });
      return true;
    } catch (error) {
      const failure =
        error instanceof DeliveryError
          ? error
          : new DeliveryError(REPORT_SCHEDULE_ERRORS.reportFailed, true, error);
      const attempts = attemptsBefore + 1;
      const retry = failure.retry && attempts < MAX_SEND_ATTEMPTS;
      log?.warn(
        { err: failure.reason ?? failure, scheduleId: id, attempts, retry },
        'report schedule: delivery failed',
      );
      await repo.finishRun(
        ctx.db,
        id,
        claimedUntil,
        retry
          ? {
              next_run_at: runAt,
              due_at: now + retryDelayMs(attempts),
              failed_attempts: attempts,
              last_status: 'retrying',
              last_error: failure.key,
            }
          : {
              next_run_at: following,
              due_at: following,
              failed_attempts: attempts,
              last_status: 'failed',
              last_error: failure.key,
            },
      );
      return false;
    }
  }

  async function runDueSchedules(now: number): Promise<number> {
    let sent = 0;
    for (const id of await repo.dueScheduleIds(ctx.db, now, batch)) {
      if (await runOne(id, now)) sent += 1;
    }
    return sent;
  }

  /** One pass at the clock's time, never two at once in this process. */
  function tick() {
    if (running) return;
    running = true;
    pass = runDueSchedules(ctx.now())
      .catch((error: unknown) => log?.error({ err: error }, 'report schedule: pass failed'))
      .finally(() => {
        running = false;
      });
  }

  return {
    runDueSchedules,
    start(logger) {
      log = logger;
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    settled: () => pass.then(() => undefined),
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await pass;
    },
  };
}
