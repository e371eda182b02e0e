import type { z } from 'zod';
import type { AuditEntry, auditListQuery } from '@solar/shared';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { AuditLogTable } from '../../db/schema';
import { iso, pageOf } from '../../lib/listing';

export type AuditListFilter = z.output<typeof auditListQuery>;

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The log's rows the filter selects (without paging). */
function filtered(db: Db, filter: Omit<AuditListFilter, 'page' | 'pageSize'>) {
  let q = db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.user_id');
  if (filter.entity !== undefined) q = q.where('audit_log.entity', '=', filter.entity);
  if (filter.action !== undefined) q = q.where('audit_log.action', '=', filter.action);
  if (filter.entity_id !== undefined) q = q.where('audit_log.entity_id', '=', filter.entity_id);
  if (filter.user_id !== undefined) q = q.where('audit_log.user_id', '=', filter.user_id);
  if (filter.from !== undefined) q = q.where('audit_log.at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('audit_log.at', '<=', filter.to);
  return q;
}

/** One page of the audit log, newest first, with the acting user's name. */
export async function listAudit(
  db: Db,
  filter: AuditListFilter,
): Promise<{ items: AuditEntry[]; total: number }> {
  const q = filtered(db, filter);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const { limit, offset } = pageOf(filter);
  const rows = await withUser(q).limit(limit).offset(offset).execute();
  return { items: rows.map(toEntry), total: Number(total) };
}

/** The newest `limit` rows the filter selects, for the CSV export (GET admin/audit/export). */
export async function exportAudit(
  db: Db,
  filter: Omit<AuditListFilter, 'page' | 'pageSize'>,
  limit: number,
): Promise<AuditEntry[]> {
  return (await withUser(filtered(db, filter)).limit(limit).execute()).map(toEntry);
}

const withUser = (q: ReturnType<typeof filtered>) =>
  q
    .selectAll('audit_log')
    .select(['users.name as user_first_name', 'users.surname as user_surname'])
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc');

type AuditRow = Awaited<ReturnType<ReturnType<typeof withUser>['execute']>>[number];

function toEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    at: iso(r.at),
    user_id: r.user_id,
    user_name: r.user_first_name === null ? null : `${r.user_first_name} ${r.user_surname ?? ''}`.trim(),
    action: r.action,
    entity: r.entity,
    entity_id: r.entity_id,
    before: parse(r.before),
    after: parse(r.after),
    ip: r.ip,
  };
}

/** Appends one row to the audit log (record-audit.ts builds it; this is the only SQL that writes the log). */
export async function insertAuditRow(db: Db, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}
