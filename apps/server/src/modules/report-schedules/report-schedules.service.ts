import type { z } from 'zod';
import {
  REPORT_SCHEDULE_ERRORS,
  type ReportFrequency,
  type ReportSchedule,
  type ReportScheduleList,
  type ReportScheduleStatus,
  type ScheduledReportFormat,
  type ScheduledReportType,
  type reportScheduleBody,
  zoneOfPlants,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { found, type Actor } from '../../lib/actor';
import { auditedRemove, recordAudit } from '../audit';
import { conflict, notFound } from '../../lib/http-errors';
import { iso } from '../../lib/listing';
import { scopeOf } from '../../lib/scope';
import { nextRunAt, type ScheduleRule } from './engine/schedule-times';
import * as repo from './report-schedules.repository';

type Body = z.output<typeof reportScheduleBody>;

/** The audit log's name for a subscription. */
const AUDIT_ENTITY = 'report_schedule';

/** The rule of a stored subscription. */
export function ruleOf(row: repo.ScheduleRow): ScheduleRule {
  return {
    frequency: row.frequency as ReportFrequency,
    localTime: row.local_time,
    weekday: row.weekday,
    timeZone: row.time_zone,
  };
}

function toAnswer(row: repo.ScheduleRow, names: ReadonlyMap<number, string>): ReportSchedule {
  const plantIds = JSON.parse(row.plant_ids) as number[];
  const paused = row.is_paused === 1;
  const status = (row.last_status ?? 'pending') as ReportScheduleStatus;
  return {
    id: row.id,
    user_id: row.user_id,
    report_type: row.report_type as ScheduledReportType,
    plant_ids: plantIds,
    plant_names: plantIds.flatMap((id) => (names.has(id) ? [names.get(id)!] : [])),
    formats: JSON.parse(row.formats) as ScheduledReportFormat[],
    frequency: row.frequency as ReportFrequency,
    local_time: row.local_time,
    weekday: row.weekday,
    time_zone: row.time_zone,
    is_paused: paused,
    status,
    next_run_at: paused ? null : iso(Number(row.next_run_at)),
    retry_at: !paused && status === 'retrying' ? iso(Number(row.due_at)) : null,
    last_sent_at: row.last_sent_at === null ? null : iso(Number(row.last_sent_at)),
    failed_attempts: row.failed_attempts,
    last_error: row.last_error,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** What the audit log keeps of a subscription: its settings, not its run state. */
function auditView(row: repo.ScheduleRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    report_type: row.report_type,
    plant_ids: JSON.parse(row.plant_ids) as number[],
    formats: JSON.parse(row.formats) as string[],
    frequency: row.frequency,
    local_time: row.local_time,
    weekday: row.weekday,
    time_zone: row.time_zone,
    is_paused: row.is_paused === 1,
  };
}

const sameRule = (a: ScheduleRule, b: ScheduleRule) =>
  a.frequency === b.frequency &&
  a.localTime === b.localTime &&
  a.weekday === b.weekday &&
  a.timeZone === b.timeZone;

/**
 * A user's own report subscriptions. Each is the user's: another user's answers 404, the admin
 * included, since it mails its owner. Its plants must all be in the caller's scope when saved; a plant that
 * leaves the scope later is left out of the mails.
 */
export class ReportSchedulesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'dialect' | 'now' | 'config'>) {}

  /**
   * Refuses a new subscription (409) when the caller or the caller's company holds as many as allowed
   * (docs/security.md, "Mail and schedules"). Runs inside the creating transaction, after the owner lock.
   */
  private async checkRoom(trx: Db, actor: Actor): Promise<void> {
    const { perUser, perCompany } = this.ctx.config.reportScheduleLimits;
    await repo.lockScheduleOwner(trx, this.ctx.dialect, actor.userId, actor.companyId);
    if ((await repo.countUserSchedules(trx, actor.userId)) >= perUser) {
      throw conflict(REPORT_SCHEDULE_ERRORS.tooManyForUser);
    }
    if (actor.companyId !== null && (await repo.countCompanySchedules(trx, actor.companyId)) >= perCompany) {
      throw conflict(REPORT_SCHEDULE_ERRORS.tooManyForCompany);
    }
  }

  private async names(actor: Actor, rows: readonly repo.ScheduleRow[]) {
    const ids = [...new Set(rows.flatMap((r) => JSON.parse(r.plant_ids) as number[]))];
    const plants = await repo.plantsInScope(this.ctx.db, scopeOf(actor), ids);
    return new Map(plants.map((p) => [p.id, p.name]));
  }

  async list(actor: Actor): Promise<ReportScheduleList> {
    const rows = await repo.listSchedules(this.ctx.db, actor.userId);
    const names = await this.names(actor, rows);
    return { items: rows.map((r) => toAnswer(r, names)), total: rows.length };
  }

  async get(actor: Actor, id: number): Promise<ReportSchedule> {
    const row = found(await repo.findSchedule(this.ctx.db, actor.userId, id));
    return toAnswer(row, await this.names(actor, [row]));
  }

  /**
   * id 0 creates. A plant outside the caller's scope answers 404 and changes nothing. A new rule, or a
   * resumed subscription, is scheduled afresh from now: a paused period is not caught up.
   */
  async save(actor: Actor, id: number, body: Body): Promise<ReportSchedule> {
    const now = this.ctx.now();
    const plants = await repo.plantsInScope(this.ctx.db, scopeOf(actor), body.plant_ids);
    if (plants.length !== body.plant_ids.length) throw notFound();
    const values: repo.ScheduleValues = {
      report_type: body.report_type,
      plant_ids: body.plant_ids,
      formats: body.formats,
      frequency: body.frequency,
      local_time: body.local_time,
      weekday: body.weekday,
      time_zone: zoneOfPlants(body.plant_ids, plants),
      is_paused: body.is_paused,
    };
    const rule: ScheduleRule = {
      frequency: body.frequency,
      localTime: body.local_time,
      weekday: body.weekday,
      timeZone: values.time_zone,
    };
    const next = nextRunAt(rule, now);
    const fresh = (last: repo.ScheduleRow | undefined): repo.RunState => ({
      next_run_at: next,
      due_at: next,
      failed_attempts: 0,
      // A run that was being retried is given up with the old rule; its error stays visible.
      last_status: last?.last_status === 'retrying' ? 'failed' : (last?.last_status ?? null),
      last_error: last?.last_error ?? null,
    });
    const savedId = await this.ctx.db.transaction().execute(async (trx) => {
      if (id === 0) {
        await this.checkRoom(trx, actor);
        const newId = await repo.insertSchedule(trx, actor.userId, values, fresh(undefined), now);
        const after = found(await repo.findSchedule(trx, actor.userId, newId));
        await this.audit(trx, actor, 'create', newId, undefined, after, now);
        return newId;
      }
      const before = found(await repo.findSchedule(trx, actor.userId, id));
      const resumed = before.is_paused === 1 && !body.is_paused;
      const state = resumed || !sameRule(ruleOf(before), rule) ? fresh(before) : undefined;
      await repo.updateSchedule(trx, id, values, state, now);
      const after = found(await repo.findSchedule(trx, actor.userId, id));
      await this.audit(trx, actor, 'update', id, before, after, now);
      return id;
    });
    return this.get(actor, savedId);
  }

  /** Removes the caller's subscription, with its settings in the audit log. */
  async remove(actor: Actor, id: number): Promise<void> {
    await auditedRemove(this.ctx, actor, id, {
      entity: AUDIT_ENTITY,
      find: async (trx, scheduleId) => {
        const row = await repo.findSchedule(trx, actor.userId, scheduleId);
        return row && auditView(row);
      },
      remove: (trx, scheduleId) => repo.deleteSchedule(trx, scheduleId),
    });
  }

  private audit(
    trx: Db,
    actor: Actor,
    action: 'create' | 'update',
    id: number,
    before: repo.ScheduleRow | undefined,
    after: repo.ScheduleRow,
    now: number,
  ): Promise<void> {
    return recordAudit(trx, {
      userId: actor.userId,
      action,
      entity: AUDIT_ENTITY,
      entityId: id,
      before: before && auditView(before),
      after: auditView(after),
      ip: actor.ip,
      at: now,
    });
  }
}
