import type { AdminSessionList, RevokeSessionsAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { notFound } from '../../lib/http-errors';
import { findSessionUser } from '../auth';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The admin panel's Sessions tab: who is signed in where, and "revoke all sessions of a user". The whole
 * system's sessions: the administrator's alone, like the settings and the audit log.
 */
export class SessionsAdminService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'sessions'>) {}

  /** The live sessions of every user, most recently used first; `current` marks the caller's own. */
  async list(currentSessionId: string | undefined): Promise<AdminSessionList> {
    const rows = await this.ctx.sessions.active();
    return {
      items: rows.map((r) => ({
        id: r.id,
        user_id: r.user_id,
        user_name: `${r.name} ${r.surname}`,
        email: r.email,
        created_at: iso(r.created_at),
        last_seen_at: iso(r.last_seen_at),
        expires_at: iso(r.expires_at),
        ip: r.ip,
        user_agent: r.user_agent,
        current: r.id === currentSessionId,
      })),
    };
  }

  /** Ends every session of the user, their live streams too; audited. 404 for an unknown user. */
  async revokeAll(actor: Actor, userId: number): Promise<RevokeSessionsAnswer> {
    if (!(await findSessionUser(this.ctx.db, userId))) throw notFound();
    const revoked = await this.ctx.sessions.revokeAll(userId);
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action: 'revoke_sessions',
      entity: 'user',
      entityId: userId,
      after: { revoked },
      ip: actor.ip,
      at: this.ctx.now(),
    });
    return { user_id: userId, revoked };
  }
}
