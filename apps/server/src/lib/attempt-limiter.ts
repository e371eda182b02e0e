import { sql } from 'kysely';
import type { Db } from '../db/database';

/** One counted attempt: how many the key has in the current window, and when the window ends. */
export interface AttemptCount {
  count: number;
  /** Whole seconds until the window ends (at least 1): the Retry-After of a refused attempt. */
  retryAfterS: number;
}

/**
 * Counts attempts per key in a fixed window (sign-in per IP, email and device cookie; reset requests).
 * Counting and checking are one step: `hit` counts the attempt and answers the new count, and the caller
 * refuses it when the count is over `max`. Two parallel attempts can therefore never both see the last
 * free slot (docs/security.md, hole 3).
 */
export interface AttemptLimiter {
  readonly max: number;
  readonly windowMs: number;
  hit(key: string): Promise<AttemptCount>;
  /** Takes one attempt back (a sign-in that proved right was no failure). */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/** Expired rows are swept once every this many hits, so that attacks from many addresses stay bounded. */
const SWEEP_EVERY_HITS = 500;

/**
 * The limiter in the database (table attempt_counts, migration 0013): one atomic
 * INSERT … ON CONFLICT DO UPDATE … RETURNING per attempt, in SQLite and PostgreSQL alike, so the count
 * holds across parallel requests and across several server nodes sharing the database.
 */
export class DbAttemptLimiter implements AttemptLimiter {
  private hits = 0;

  constructor(
    private readonly db: Db,
    /** Keeps the keys of several limiters apart in the one table (`login`, `reset`). */
    private readonly prefix: string,
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<AttemptCount> {
    const now = this.now();
    const expired = now - this.windowMs;
    // A window that has run out starts again at this attempt; both CASEs read the row as it was.
    const row = await this.db
      .insertInto('attempt_counts')
      .values({ key: this.key(key), count: 1, window_started_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when attempt_counts.window_started_at <= ${expired} then 1
            else attempt_counts.count + 1 end`,
          window_started_at: sql<number>`case when attempt_counts.window_started_at <= ${expired}
            then ${now} else attempt_counts.window_started_at end`,
        }),
      )
      .returning(['count', 'window_started_at'])
      .executeTakeFirstOrThrow();
    if (++this.hits % SWEEP_EVERY_HITS === 0) await this.sweep(expired);
    const endsAt = Number(row.window_started_at) + this.windowMs;
    return { count: Number(row.count), retryAfterS: Math.max(1, Math.ceil((endsAt - now) / 1000)) };
  }

  async undo(key: string): Promise<void> {
    await this.db
      .updateTable('attempt_counts')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', this.key(key))
      .where('count', '>', 0)
      .execute();
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('attempt_counts').where('key', '=', this.key(key)).execute();
  }

  private key(key: string): string {
    // The column holds 300 characters; an email is at most 254.
    return `${this.prefix}:${key}`.slice(0, 300);
  }

  private async sweep(expired: number): Promise<void> {
    await this.db.deleteFrom('attempt_counts').where('window_started_at', '<=', expired).execute();
  }
}
