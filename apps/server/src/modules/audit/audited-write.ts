import type { Db } from '../../db/database';
import { type Actor, found } from '../../lib/actor';
import { recordAudit } from './record-audit';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors';

/** What an audited write needs from the app: the database and the clock. */
export interface AuditedWriteContext {
  db: Db;
  now(): number;
}

/** The answers for constraint violations that slip past a service's checks (a race with another write). */
export interface ConstraintAnswers {
  /** A foreign key refused the write; unset: the database error propagates. */
  onForeignKey?: () => Error;
  /** A unique constraint refused the write; unset: the database error propagates. */
  onUnique?: () => Error;
}

/** How one kind of record is read, checked and written; the domain rules stay with the service. */
export interface AuditedSave<T> extends ConstraintAnswers {
  /** The audit log's entity name, e.g. `company`. */
  entity: string;
  /** The record as the actor may see it; undefined when missing or out of reach (answers 404). */
  find(trx: Db, id: number): Promise<T | undefined>;
  /** The domain checks, given the record before the change (undefined when creating); throws to refuse. */
  check?(trx: Db, before: T | undefined): void | Promise<void>;
  /** Creates the record and answers its id. */
  insert(trx: Db, now: number): Promise<number>;
  /** Changes the existing record. */
  update(trx: Db, id: number, before: T, now: number): Promise<void>;
}

/** How one kind of record is checked and deleted. */
export interface AuditedRemove<T> extends ConstraintAnswers {
  entity: string;
  find(trx: Db, id: number): Promise<T | undefined>;
  /** The domain checks (children left, locked records, reach); throws to refuse. */
  check?(trx: Db, before: T): void | Promise<void>;
  remove(trx: Db, id: number): Promise<void>;
}

function mapConstraint(error: unknown, answers: ConstraintAnswers): unknown {
  if (answers.onUnique && isUniqueViolation(error)) return answers.onUnique();
  if (answers.onForeignKey && isForeignKeyViolation(error)) return answers.onForeignKey();
  return error;
}

/**
 * Creates (id 0) or changes a record in one transaction: read before → check → write → read after → audit
 * row with both. Anything thrown rolls the whole change back, the audit row included.
 */
export async function auditedSave<T>(
  ctx: AuditedWriteContext,
  actor: Actor,
  id: number,
  spec: AuditedSave<T>,
): Promise<T> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const now = ctx.now();
      const before = id === 0 ? undefined : found(await spec.find(trx, id));
      await spec.check?.(trx, before);
      let savedId = id;
      if (before === undefined) savedId = await spec.insert(trx, now);
      else await spec.update(trx, id, before, now);
      const after = found(await spec.find(trx, savedId));
      await recordAudit(trx, {
        userId: actor.userId,
        action: before === undefined ? 'create' : 'update',
        entity: spec.entity,
        entityId: savedId,
        before,
        after,
        ip: actor.ip,
        at: now,
      });
      return after;
    });
  } catch (error) {
    throw mapConstraint(error, spec);
  }
}

/** Deletes a record in one transaction: read before → check → delete → audit row with what was deleted. */
export async function auditedRemove<T>(
  ctx: AuditedWriteContext,
  actor: Actor,
  id: number,
  spec: AuditedRemove<T>,
): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const before = found(await spec.find(trx, id));
      await spec.check?.(trx, before);
      await spec.remove(trx, id);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'delete',
        entity: spec.entity,
        entityId: id,
        before,
        ip: actor.ip,
        at: ctx.now(),
      });
    });
  } catch (error) {
    throw mapConstraint(error, spec);
  }
}
