import {
  ALARM_LIST_CAP,
  ALARM_PRIORITY,
  E,
  type ActiveAlarmCounts,
  type AlarmListQuery,
  type AlarmListenAnswer,
  type AlarmRecord,
  type CustomAlarm,
  type CustomAlarmBodyParsed,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { conflict, notFound } from '../../lib/http-errors';
import { scopeOf, type Scope } from '../../lib/scope';
import type { Db } from '../../db/database';
import { createFaultFromAlarm } from '../faults';
import * as repo from './alarms.repository';
import { eventsAfter, logEvents, type WrittenEvent } from './engine/alarm-store.repository';

/** Counts by priority of active-alarm rows (countActiveAlarms), as the badge and the pages show them. */
export function byPriority(
  rows: readonly Pick<repo.ActiveAlarmCount, 'priorityId' | 'count'>[],
): ActiveAlarmCounts {
  const sum = (priority: number) =>
    rows.filter((r) => r.priorityId === priority).reduce((n, r) => n + r.count, 0);
  const low = sum(ALARM_PRIORITY.low);
  const medium = sum(ALARM_PRIORITY.medium);
  const high = sum(ALARM_PRIORITY.high);
  const dangerous = sum(ALARM_PRIORITY.dangerous);
  return { low, medium, high, dangerous, total: low + medium + high + dangerous };
}

/** Alarms and custom alarm rules, always limited to the caller's scope (another company's alarm is a 404). */
export class AlarmsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'alarmPublisher' | 'alarmEngine'>) {}

  /**
   * Newest first. Without `page`/`pageSize` the plain list the spec implies (at most ALARM_LIST_CAP rows);
   * with either, one page and the total.
   */
  async list(
    actor: Actor,
    query: AlarmListQuery,
  ): Promise<AlarmRecord[] | { items: AlarmRecord[]; total: number }> {
    const { page, pageSize, ...filter } = query;
    const scope = scopeOf(actor);
    if (page === undefined && pageSize === undefined) {
      return (await repo.listAlarms(this.ctx.db, scope, filter, { limit: ALARM_LIST_CAP, offset: 0 }, false))
        .items;
    }
    const size = pageSize ?? 20;
    return repo.listAlarms(
      this.ctx.db,
      scope,
      filter,
      { limit: size, offset: ((page ?? 1) - 1) * size },
      true,
    );
  }

  /** One plant's alarms; an unreachable plant is a 404. */
  async ofPlant(actor: Actor, plantId: number): Promise<AlarmRecord[]> {
    const scope = scopeOf(actor);
    if (!(await repo.plantReachable(this.ctx.db, scope, plantId))) throw notFound();
    const { items } = await repo.listAlarms(
      this.ctx.db,
      scope,
      { plant_id: plantId },
      { limit: ALARM_LIST_CAP, offset: 0 },
      false,
    );
    return items;
  }

  /** The alarms active now in the caller's scope, by priority (the header badge's figure). */
  async activeCounts(actor: Actor): Promise<ActiveAlarmCounts> {
    return byPriority(await repo.countActiveAlarms(this.ctx.db, scopeOf(actor)));
  }

  substation(actor: Actor): Promise<AlarmRecord[]> {
    return repo.substationAlarms(this.ctx.db, scopeOf(actor), ALARM_LIST_CAP);
  }

  listen(actor: Actor, cursor: number | undefined, limit: number): Promise<AlarmListenAnswer> {
    return eventsAfter(this.ctx.db, scopeOf(actor), cursor, limit);
  }

  /**
   * Approve: the alarm becomes approved and a fault is made from it, in one transaction. Allowed for an
   * active or cleared alarm; an approved or rejected one answers 409. One fault covers an event
   * (docs/architecture.md, "Alarm groups"): approving a cause approves its undecided consequences into
   * the same fault, each audited; approving a consequence whose cause has a fault joins that fault.
   */
  async approve(actor: Actor, id: number): Promise<{ alarm: AlarmRecord; fault_id: number }> {
    return this.decide(actor, id, 'approve');
  }

  /** Reject: a false alarm; no fault. Same rules as approve; the alarm's consequences are left to judge. */
  async reject(actor: Actor, id: number): Promise<AlarmRecord> {
    return (await this.decide(actor, id, 'reject')).alarm;
  }

  private async decide(actor: Actor, id: number, decision: 'approve' | 'reject') {
    const scope = scopeOf(actor);
    const now = this.ctx.now();
    let written: WrittenEvent[] = [];
    const result = await this.ctx.db.transaction().execute(async (trx) => {
      const before = found(await repo.findAlarm(trx, scope, id));
      if (!(await repo.decide(trx, id, decision, now, actor.userId))) throw conflict(E.alarmDecided);
      let faultId: number | null = null;
      let group: number[] = [];
      if (decision === 'approve') {
        faultId = await this.faultOfCause(trx, scope, before);
        if (faultId === null) {
          ({ fault_id: faultId } = await createFaultFromAlarm(
            this.ctx,
            { userId: actor.userId, ip: actor.ip },
            {
              id: before.id,
              plant_id: before.plant_id,
              device_id: before.device_id,
              tag_id: before.tag_id,
              priority_id: before.priority_id,
              // The key and its parameters: the fault keeps them, so each reader sees its title in their language.
              message: before.message,
              message_params: before.message_params,
              subject: before.device_name ?? before.plant_name,
              started_at: Date.parse(before.started_at),
              acknowledged_at: now,
            },
            trx,
          ));
        }
        await repo.setFault(trx, id, faultId);
        group = await repo.undecidedConsequences(trx, id);
      }
      const audit = async (alarmId: number, was: AlarmRecord) =>
        recordAudit(trx, {
          userId: actor.userId,
          action: decision,
          entity: 'alarm',
          entityId: alarmId,
          before: was,
          after: found(await repo.findAlarm(trx, scope, alarmId)),
          ip: actor.ip,
          at: now,
        });
      // The cause's consequences, each approved into its fault and audited as if approved alone.
      const approved: number[] = [];
      for (const consequenceId of group) {
        const was = found(await repo.findAlarm(trx, scope, consequenceId));
        if (!(await repo.decide(trx, consequenceId, 'approve', now, actor.userId))) continue;
        await repo.setFault(trx, consequenceId, faultId!);
        await audit(consequenceId, was);
        approved.push(consequenceId);
      }
      written = await logEvents(trx, [
        { alarmId: id, kind: decision === 'approve' ? 'approved' : 'rejected', at: now },
        ...approved.map((alarmId) => ({ alarmId, kind: 'approved' as const, at: now })),
      ]);
      await audit(id, before);
      return { alarm: found(await repo.findAlarm(trx, scope, id)), fault_id: faultId ?? 0 };
    });
    await this.ctx.alarmPublisher.publish(written);
    return result;
  }

  /** The fault the alarm's cause was approved into, which its consequence joins; null when none. */
  private async faultOfCause(trx: Db, scope: Scope, alarm: AlarmRecord): Promise<number | null> {
    if (alarm.cause_alarm_id === null) return null;
    return (await repo.findAlarm(trx, scope, alarm.cause_alarm_id))?.fault_id ?? null;
  }

  // Custom alarm rules.

  listRules(actor: Actor): Promise<CustomAlarm[]> {
    return repo.listRules(this.ctx.db, scopeOf(actor));
  }

  async getRule(actor: Actor, id: number): Promise<CustomAlarm> {
    return found(await repo.findRule(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. A signal outside the caller's scope answers 404 and changes nothing. */
  async saveRule(actor: Actor, id: number, body: CustomAlarmBodyParsed): Promise<CustomAlarm> {
    const scope = scopeOf(actor);
    const values: repo.RuleValues = {
      tag_id: body.tag_id,
      name: body.name,
      description: body.description ?? null,
      priority_id: body.priority_id,
      operant: body.operant,
      value: body.value,
      started_at: body.started_at ?? null,
      end_at: body.end_at ?? null,
      is_active: body.is_active,
      on_delay_s: body.on_delay_s,
      off_delay_s: body.off_delay_s,
      hysteresis: body.hysteresis,
    };
    const saved = await this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      const before = id === 0 ? undefined : found(await repo.findRule(trx, scope, id));
      if (before?.tag_id !== values.tag_id && !(await repo.signalReachable(trx, scope, values.tag_id)))
        throw notFound();
      if (before) await repo.updateRule(trx, id, values, now);
      const savedId = before ? id : await repo.insertRule(trx, values, actor.userId, now);
      const after = found(await repo.findRule(trx, scope, savedId));
      await recordAudit(trx, {
        userId: actor.userId,
        action: before ? 'update' : 'create',
        entity: 'custom_alarm',
        entityId: savedId,
        before,
        after,
        ip: actor.ip,
        at: now,
      });
      return after;
    });
    await this.ctx.alarmEngine.reloadRules();
    return saved;
  }

  async removeRule(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await this.ctx.db.transaction().execute(async (trx) => {
      const before = found(await repo.findRule(trx, scope, id));
      await repo.deleteRule(trx, id);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'delete',
        entity: 'custom_alarm',
        entityId: id,
        before,
        ip: actor.ip,
        at: this.ctx.now(),
      });
    });
    await this.ctx.alarmEngine.reloadRules();
  }
}
