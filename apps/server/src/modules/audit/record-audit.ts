import type { Db } from '../../db/database';
import { insertAuditRow } from './audit.repository';

export interface AuditRecord {
  /** Who acted; null for anonymous actions (e.g. a password reset by link). */
  userId: number | null;
  /** What happened: create, update, delete, login, password, reset_password, ... */
  action: string;
  /** The kind of record: user, role, company, ... */
  entity: string;
  entityId: number | null;
  /** The record before and after the change; secrets (password hashes, token hashes) are removed. */
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  /** Epoch ms; now when omitted. */
  at?: number;
}

/** Keys whose values never reach the audit log. */
const SECRET_KEYS = new Set(['password', 'password_hash', 'token_hash', 'token']);

/** A copy of the value without secret keys, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !SECRET_KEYS.has(key))
        .map(([key, v]) => [key, withoutSecrets(v)]),
    );
  }
  return value;
}

function serialise(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(withoutSecrets(value));
}

/** Writes one audit_log row, secrets removed. Pass the transaction of the change so both commit or neither. */
export async function recordAudit(db: Db, entry: AuditRecord): Promise<void> {
  await insertAuditRow(db, {
    at: entry.at ?? Date.now(),
    user_id: entry.userId,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    before: serialise(entry.before),
    after: serialise(entry.after),
    ip: entry.ip ?? null,
  });
}
