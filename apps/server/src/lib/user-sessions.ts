import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import {
  deleteExpiredSessions,
  findTokenVersion,
  insertUserSession,
  listActiveSessions,
  raiseTokenVersion,
  touchUserSession,
  type ActiveSessionRow,
} from '../plugins/session.repository';
import type { SessionEvents } from './session-events';

/** A session's last use is written at most this often: a request costs no write most of the time. */
export const SESSION_SEEN_EVERY_MS = 60_000;
/** Sessions remembered in memory for the throttle; past it the memory starts over (a write each, once). */
const SEEN_MEMORY_MAX = 10_000;

/**
 * The record of signed-in sessions (`ctx.sessions`, table user_sessions): written at sign-in, its last
 * use noted at most once a minute, listed and revoked by the admin panel. Revoking raises the user's token
 * version, which ends every token they hold, and tells the session bus, which ends their live streams.
 */
export class UserSessions {
  private readonly seenAt = new Map<string, number>();

  constructor(
    private readonly deps: {
      db: Db;
      now(): number;
      sessionEvents: SessionEvents;
      log?: (error: unknown) => void;
    },
  ) {}

  /** Records a new sign-in; answers its id, for the token's `sid` claim. */
  async start(
    userId: number,
    expiresAt: number,
    client: { ip: string | null; userAgent: string | undefined },
  ): Promise<string> {
    const { db } = this.deps;
    const now = this.deps.now();
    const id = randomUUID();
    // Expired rows are dead for good; a sign-in clears them, so the table holds live sessions only.
    await deleteExpiredSessions(db, now);
    await insertUserSession(db, {
      id,
      user_id: userId,
      token_version: await findTokenVersion(db, userId),
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      ip: client.ip?.slice(0, 64) ?? null,
      user_agent: client.userAgent?.slice(0, 300) || null,
    });
    this.seenAt.set(id, now);
    return id;
  }

  /** Notes a request of the session; writes only when the last write is a minute old. Never waits. */
  seen(sessionId: string): void {
    const now = this.deps.now();
    const last = this.seenAt.get(sessionId);
    if (last !== undefined && now - last < SESSION_SEEN_EVERY_MS) return;
    if (this.seenAt.size >= SEEN_MEMORY_MAX) this.seenAt.clear();
    this.seenAt.set(sessionId, now);
    touchUserSession(this.deps.db, sessionId, now).catch((error: unknown) => this.deps.log?.(error));
  }

  /** A refreshed token of the session lives until `expiresAt`. */
  async refreshed(sessionId: string, expiresAt: number): Promise<void> {
    const now = this.deps.now();
    this.seenAt.set(sessionId, now);
    await touchUserSession(this.deps.db, sessionId, now, expiresAt);
  }

  /** The live sessions, most recently used first. */
  active(userId?: number): Promise<ActiveSessionRow[]> {
    return listActiveSessions(this.deps.db, this.deps.now(), userId);
  }

  /**
   * Ends every session of the user: their tokens stop working at the next request and their live streams
   * end now. Answers how many live sessions ended. The caller has checked that the user exists.
   */
  async revokeAll(userId: number): Promise<number> {
    const live = await this.active(userId);
    await raiseTokenVersion(this.deps.db, userId);
    this.deps.sessionEvents.emit({ kind: 'user', userId });
    return live.length;
  }
}
