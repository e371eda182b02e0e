import {
  E,
  V,
  faultTransitionAllowed,
  localeOfLanguageId,
  type Fault,
  type FaultBodyParsed,
  type FaultComment,
  type FaultDetail,
  type FaultList,
  type FaultStatus,
} from '@solar/shared';
import { translate } from '@solar/i18n';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-errors';
import { scopeOf, type Scope } from '../../lib/scope';
import { codesMatching, isShownTitle } from './fault-title';
import * as repo from './faults.repository';

/** What an approved alarm hands over to become a fault (started_at in epoch ms). */
export interface AlarmForFault {
  id: number;
  plant_id: number;
  device_id: number | null;
  tag_id: number | null;
  priority_id: number;
  /** The alarm text, or an i18n key (`alarms.msg.*`) rendered with `message_params`. */
  message: string;
  message_params?: Record<string, string | number | null>;
  /** The device or plant the alarm is about, put before the message in the title ("INV-3: …"). */
  subject?: string | null;
  started_at: number;
  /**
   * When the alarm was acknowledged (its approval, epoch ms): the fault's acknowledgement, so its time to
   * acknowledge counts from the alarm's start to the operator's approval; the approver is `created_by`.
   */
  acknowledged_at?: number;
}

/** Alarm texts the engine writes are keys of this catalogue branch; anything else is text a person wrote. */
const MESSAGE_KEY = /^alarms\.msg\.\w+$/;

/** Who approves: an Actor fits; userId null for the system. */
export interface FaultAuthor {
  userId: number | null;
  ip?: string | null;
}

/** True for the 409 that a second fault for the same alarm answers (errors.faultExists). */
export const isFaultExistsError = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.status === 409 && error.detail === E.faultExists;

/**
 * The stored title of an alarm's fault: an i18n key is rendered in the approver's language (Turkish for
 * the system), since a fault's title is plain text that people edit afterwards. Readers see it in their
 * own language from the key kept beside it (`title_code`); this text is the fallback.
 */
async function alarmText(db: Db, actor: FaultAuthor, alarm: AlarmForFault): Promise<string> {
  const raw = alarm.message.trim();
  if (!raw) return `#${alarm.id}`;
  const locale = localeOfLanguageId(actor.userId === null ? null : await repo.languageOf(db, actor.userId));
  const params = Object.fromEntries(
    Object.entries(alarm.message_params ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]),
  );
  const text = translate(locale, raw, params).trim() || raw;
  return alarm.subject ? `${alarm.subject}: ${text}` : text;
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

async function insertFromAlarm(
  db: Db,
  now: number,
  actor: FaultAuthor,
  alarm: AlarmForFault,
): Promise<{ fault_id: number }> {
  if ((await repo.faultIdOfAlarm(db, alarm.id)) !== undefined) throw conflict(E.faultExists);
  const message = await alarmText(db, actor, alarm);
  const coded = MESSAGE_KEY.test(alarm.message.trim());
  const faultId = await repo.insertFault(
    db,
    {
      alarm_id: alarm.id,
      title_code: coded ? alarm.message.trim() : null,
      title_params: coded ? JSON.stringify(alarm.message_params ?? {}) : null,
      plant_id: alarm.plant_id,
      device_id: alarm.device_id,
      tag_id: alarm.tag_id,
      title: truncate(message, 200),
      description: truncate(message, 4000),
      priority_id: alarm.priority_id,
      status: 'open',
      assignee_user_id: null,
      root_cause: null,
      resolution: null,
      created_by: actor.userId,
      detected_at: alarm.started_at,
      acknowledged_at: alarm.acknowledged_at ?? null,
      resolved_at: null,
      closed_at: null,
    },
    now,
  );
  await repo.insertHistory(
    db,
    { fault_id: faultId, user_id: actor.userId, from_status: null, to_status: 'open' },
    now,
  );
  const after = await repo.findFault(db, { all: true }, faultId);
  await recordAudit(db, {
    userId: actor.userId,
    action: 'create',
    entity: 'fault',
    entityId: faultId,
    after,
    ip: actor.ip ?? null,
    at: now,
  });
  return { fault_id: faultId };
}

/**
 * Makes the fault of an approved alarm (POST alarms/{id}/fault): title and description from the
 * message, plant, device, signal and priority from the alarm, detected at the alarm's start. Exactly one
 * fault per alarm: a second call throws a 409 HttpError (errors.faultExists, see isFaultExistsError).
 * Pass `trx` to write inside the caller's transaction; without it the writes get a transaction of their
 * own. The caller has already checked that the actor reaches the alarm.
 */
export async function createFaultFromAlarm(
  ctx: Pick<AppContext, 'db' | 'now'>,
  actor: FaultAuthor,
  alarm: AlarmForFault,
  trx?: Db,
): Promise<{ fault_id: number }> {
  try {
    if (trx) return await insertFromAlarm(trx, ctx.now(), actor, alarm);
    return await ctx.db.transaction().execute((t) => insertFromAlarm(t, ctx.now(), actor, alarm));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(E.faultExists);
    throw error;
  }
}

const ms = (value: string | null) => (value === null ? null : Date.parse(value));

/**
 * Workflow timestamps after a save (FAULT_TRANSITIONS in the contract): acknowledged on the first move
 * out of `open` or the first assignment, never cleared; resolved_at set on entering `resolved`, kept
 * through `closed`, cleared when the fault goes back to work; closed_at set on entering `closed`.
 */
function workflowTimes(before: Fault | undefined, status: FaultStatus, assignee: number | null, now: number) {
  const prev = before?.status;
  const acknowledged_at =
    ms(before?.acknowledged_at ?? null) ?? (status !== 'open' || assignee !== null ? now : null);
  const resolved_at =
    status === 'resolved'
      ? prev === 'resolved'
        ? ms(before!.resolved_at)
        : now
      : status === 'closed'
        ? ms(before?.resolved_at ?? null)
        : null;
  const closed_at = status === 'closed' ? (prev === 'closed' ? ms(before!.closed_at) : now) : null;
  return { acknowledged_at, resolved_at, closed_at };
}

/**
 * The title and description a save writes. The edit form shows a coded title in the reader's language; sent
 * back unchanged it is not a person's text, so the stored text stays and with it the code, and every reader
 * keeps their language. A title that differs from every language's rendering replaces the code (the
 * repository drops it). A description that was the alarm's message is kept the same way while the title
 * is; with a typed title it is stored as the person saw it.
 */
function keptTexts(before: Fault | undefined, body: FaultBodyParsed) {
  const description = body.description ?? null;
  if (!before || before.title_code === null) return { title: body.title, description };
  const keepTitle = isShownTitle(before, body.title);
  // Only while the title keeps its code does the description that was the message still render from it.
  const messageDescription =
    keepTitle &&
    description !== null &&
    before.description === before.title &&
    isShownTitle(before, description);
  return {
    title: keepTitle ? before.title : body.title,
    description: messageDescription ? before.description : description,
  };
}

/** Faults of the plants a caller reaches: by hand or from alarms, with comments and a status history. */
export class FaultsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.FaultListFilter): Promise<FaultList> {
    const codes = filter.q ? codesMatching(filter.q) : [];
    return repo.listFaults(this.ctx.db, scopeOf(actor), filter, codes);
  }

  async get(actor: Actor, id: number): Promise<FaultDetail> {
    const fault = found(await repo.findFault(this.ctx.db, scopeOf(actor), id));
    const [comments, history, alarmIds] = await Promise.all([
      repo.commentsOf(this.ctx.db, id),
      repo.historyOf(this.ctx.db, id),
      repo.alarmIdsOf(this.ctx.db, id),
    ]);
    return { ...fault, comments, history, alarm_ids: alarmIds };
  }

  /** Checks of a body beyond its schema; answers 400 with the field keys, 404 for an unreachable plant. */
  private async check(db: Db, scope: Scope, body: FaultBodyParsed, before?: Fault): Promise<void> {
    const companyId = await repo.reachablePlantCompany(db, scope, body.plant_id);
    if (companyId === undefined) throw notFound();
    const errors: Record<string, string[]> = {};
    const deviceId = body.device_id ?? null;
    if (deviceId !== null) {
      const device = await repo.deviceOf(db, deviceId);
      if (device?.plant_id !== body.plant_id) errors.device_id = [V.invalidValue];
    }
    if (body.tag_id != null) {
      const signal = await repo.signalOf(db, body.tag_id);
      if (deviceId === null || signal?.device_id !== deviceId) errors.tag_id = [V.invalidValue];
    }
    // An unchanged assignee on the same plant stays valid even if the user has since been deactivated.
    const keptAssignee =
      before?.assignee_user_id === body.assignee_user_id && before?.plant_id === body.plant_id;
    if (
      body.assignee_user_id != null &&
      !keptAssignee &&
      !(await repo.isActiveUserOfCompany(db, body.assignee_user_id, companyId))
    ) {
      errors.assignee_user_id = [V.invalidValue];
    }
    if (body.status === 'resolved' && !body.resolution) errors.resolution = [V.required];
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  /** id 0 creates. Status changes follow FAULT_TRANSITIONS (409 errors.faultTransition otherwise). */
  async save(actor: Actor, id: number, body: FaultBodyParsed): Promise<FaultDetail> {
    const scope = scopeOf(actor);
    try {
      const savedId = await this.ctx.db.transaction().execute(async (trx) => {
        const now = this.ctx.now();
        const before = id === 0 ? undefined : found(await repo.findFault(trx, scope, id));
        await this.check(trx, scope, body, before);
        const from = before?.status ?? 'open';
        // Closed is final: nothing changes on a closed fault but reopening it.
        if (!faultTransitionAllowed(from, body.status) || (from === 'closed' && body.status === 'closed')) {
          throw conflict(E.faultTransition, { status: [E.faultTransition] });
        }
        const assignee = body.assignee_user_id ?? null;
        const values: repo.FaultValues = {
          plant_id: body.plant_id,
          device_id: body.device_id ?? null,
          tag_id: body.tag_id ?? null,
          ...keptTexts(before, body),
          priority_id: body.priority_id,
          status: body.status,
          assignee_user_id: assignee,
          root_cause: body.root_cause ?? null,
          resolution: body.resolution ?? null,
          ...workflowTimes(before, body.status, assignee, now),
        };
        let faultId = id;
        if (before) await repo.updateFault(trx, id, values, now);
        else {
          faultId = await repo.insertFault(
            trx,
            { ...values, alarm_id: null, created_by: actor.userId, detected_at: now },
            now,
          );
        }
        if (!before || before.status !== body.status) {
          await repo.insertHistory(
            trx,
            {
              fault_id: faultId,
              user_id: actor.userId,
              from_status: before?.status ?? null,
              to_status: body.status,
            },
            now,
          );
        }
        const after = await repo.findFault(trx, scope, faultId);
        await recordAudit(trx, {
          userId: actor.userId,
          action: before ? 'update' : 'create',
          entity: 'fault',
          entityId: faultId,
          before,
          after,
          ip: actor.ip,
          at: now,
        });
        return faultId;
      });
      return await this.get(actor, savedId);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
  }

  /** Adds a comment (also on a closed fault: the conversation may go on after the work). */
  async comment(actor: Actor, id: number, body: string): Promise<FaultComment> {
    const scope = scopeOf(actor);
    return this.ctx.db.transaction().execute(async (trx) => {
      found(await repo.findFault(trx, scope, id));
      const commentId = await repo.insertComment(
        trx,
        { fault_id: id, user_id: actor.userId, body },
        this.ctx.now(),
      );
      await repo.touchFault(trx, id, this.ctx.now());
      const comments = await repo.commentsOf(trx, id);
      return found(comments.find((c) => c.id === commentId));
    });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await this.ctx.db.transaction().execute(async (trx) => {
      const before = found(await repo.findFault(trx, scope, id));
      await repo.deleteFault(trx, id);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'delete',
        entity: 'fault',
        entityId: id,
        before,
        ip: actor.ip,
        at: this.ctx.now(),
      });
    });
  }
}
