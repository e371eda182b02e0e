import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import {
  advanceSessionGeneration,
  deleteExpiredSessions,
  deleteUserSession,
  findUserSession,
  findTokenVersion,
  insertUserSession,
  listActiveSessions,
  raiseTokenVersion,
  touchUserSession,
  type ActiveSessionRow,
} from './session.repository';
import type { SessionEvents } from '../../lib/session-events';

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
      /** Absolute lifetime of a sign-in and the grace of a replaced token (config.sessions). */
      lifetimes: { absoluteLifetimeMs: number; refreshGraceMs: number };
      log?: (error: unknown) => void;
    },
  ) {}

  /**
   * Records a new sign-in; answers its id, for the token's `sid` claim, and its end. The sign-in ends
   * `absoluteLifetimeMs` after now at the latest, however often its token is refreshed.
   */
  async start(
    userId: number,
    lifetimeMs: number,
    client: { ip: string | null; userAgent: string | undefined },
  ): Promise<{ sessionId: string; expiresAt: number }> {
    const { db } = this.deps;
    const now = this.deps.now();
    const id = randomUUID();
    const absoluteExpiresAt = now + this.deps.lifetimes.absoluteLifetimeMs;
    const expiresAt = Math.min(now + lifetimeMs, absoluteExpiresAt);
    // Expired rows are dead for good; a sign-in clears them, so the table holds live sessions only.
    await deleteExpiredSessions(db, now);
    await insertUserSession(db, {
      id,
      user_id: userId,
      token_version: await findTokenVersion(db, userId),
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      absolute_expires_at: absoluteExpiresAt,
      ip: client.ip?.slice(0, 64) ?? null,
      user_agent: client.userAgent?.slice(0, 300) || null,
    });
    this.seenAt.set(id, now);
    return { sessionId: id, expiresAt };
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

  /**
   * A refresh of the token of generation `presented`: answers the generation and end to sign the new
   * token with, or undefined when the sign-in is gone. Presenting the current generation retires it (it
   * stays valid for the grace only) and moves to the next; presenting the one just retired (another tab,
   * within the grace) gets the current generation without moving it again. The end never passes the
   * sign-in's absolute end. With `advance` false (a token answered with someone else's record, which the
   * console does not store) the generation stays: nothing is retired, and the new token dies with it.
   */
  async refresh(
    sessionId: string,
    presented: number,
    lifetimeMs: number,
    advance = true,
  ): Promise<{ generation: number; expiresAt: number } | undefined> {
    const { db } = this.deps;
    const now = this.deps.now();
    this.seenAt.set(sessionId, now);
    for (let attempt = 0; attempt < 2; attempt++) {
      const session = await findUserSession(db, sessionId);
      if (!session) return undefined;
      const expiresAt = Math.min(now + lifetimeMs, session.absoluteExpiresAt);
      if (!advance || presented !== session.tokenGeneration) {
        await touchUserSession(db, sessionId, now, expiresAt);
        return { generation: session.tokenGeneration, expiresAt };
      }
      const previousValidUntil = now + this.deps.lifetimes.refreshGraceMs;
      if (
        await advanceSessionGeneration(db, sessionId, presented, { at: now, expiresAt, previousValidUntil })
      ) {
        return { generation: presented + 1, expiresAt };
      }
      // Another tab refreshed the same token in between: take the generation it made.
    }
    return undefined;
  }

  /** Ends one sign-in of the user (sign-out); its live streams end with the user's others, which reconnect. */
  async end(sessionId: string, userId: number): Promise<boolean> {
    const ended = await deleteUserSession(this.deps.db, sessionId, userId);
    this.seenAt.delete(sessionId);
    this.deps.sessionEvents.emit({ kind: 'user', userId });
    return ended;
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
