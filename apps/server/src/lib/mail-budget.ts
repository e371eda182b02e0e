import { sql } from 'kysely';
import { zoneOffsetMs } from '@solar/shared';
import type { Db } from '../db/database';
import type { Mail, MailBudgetName, MailDailyLimits, Mailer } from './mailer';

const DAY_MS = 86_400_000;
/** Rows of past days are swept once every this many counted mails. */
const SWEEP_EVERY_MAILS = 200;
/** The recipient column holds 320 characters; an address is at most 254. */
const RECIPIENT_MAX_CHARS = 320;

/**
 * Thrown instead of sending when a recipient's budget of the day is used up: callers that answer a person
 * (the admin's test mail) say so; background senders record it (scheduled reports) or log it.
 */
export class MailHeldBack extends Error {
  constructor(readonly budget: MailBudgetName) {
    super(`mail held back: the recipient's daily ${budget} budget is used up`);
  }
}

/** The addresses of a `to` field, lower case: one budget per address whatever its spelling. */
export function recipientsOf(to: string): string[] {
  return to
    .split(/[,;]/)
    .map((part) => (/<([^>]*)>/.exec(part)?.[1] ?? part).trim().toLowerCase())
    .filter((address) => address.length > 0)
    .map((address) => address.slice(0, RECIPIENT_MAX_CHARS));
}

/** The IANA zone a recipient's day is read in (modules/companies `recipientTimeZone`). */
export type RecipientZone = (address: string) => Promise<string>;

/** The recipient's local calendar date at `ms`, as whole days since 1970-01-01 (the `day` of mail_counts). */
export function localDayNumber(ms: number, timeZone: string): number {
  return Math.floor((ms + zoneOffsetMs(ms, timeZone)) / DAY_MS);
}

/** One address counted for one mail: the local day it was counted on, to give it back to the same day. */
export interface CountedMail {
  recipient: string;
  day: number;
}

/**
 * Per-recipient daily mail counts in the database (table mail_counts): one atomic
 * INSERT … ON CONFLICT DO UPDATE … RETURNING per mail and address, in SQLite and PostgreSQL alike, so that
 * parallel sends, restarts and several nodes sharing the database all see one count (as
 * lib/attempt-limiter.ts does for sign-ins). The day is the recipient's local date in their zone
 * (`zoneOf`), so a budget starts again at the recipient's midnight, not at UTC's.
 */
export class DbMailBudget {
  private counted = 0;

  constructor(
    private readonly db: Db,
    readonly limits: MailDailyLimits,
    private readonly zoneOf: RecipientZone,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one mail to each address and answers whether all of them were within the budget, with what was
   * counted. A refused mail still counts: the count only says how many were asked for, and refusing is
   * what matters.
   */
  async take(
    budget: MailBudgetName,
    recipients: readonly string[],
  ): Promise<{ allowed: boolean; counted: CountedMail[] }> {
    const now = this.now();
    let allowed = true;
    const counted: CountedMail[] = [];
    for (const recipient of recipients) {
      const day = localDayNumber(now, await this.zoneOf(recipient));
      const row = await this.db
        .insertInto('mail_counts')
        .values({ budget, recipient, day, count: 1 })
        .onConflict((oc) =>
          oc
            .columns(['budget', 'recipient', 'day'])
            .doUpdateSet({ count: sql<number>`mail_counts.count + 1` }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      counted.push({ recipient, day });
      if (Number(row.count) > this.limits[budget]) allowed = false;
    }
    if (++this.counted % SWEEP_EVERY_MAILS === 0) await this.sweep(Math.floor(now / DAY_MS));
    return { allowed, counted };
  }

  /** Gives the mails back that were counted but not sent (the mail server failed). */
  async giveBack(budget: MailBudgetName, counted: readonly CountedMail[]): Promise<void> {
    for (const { recipient, day } of counted) {
      await this.db
        .updateTable('mail_counts')
        .set((eb) => ({ count: eb('count', '-', 1) }))
        .where('budget', '=', budget)
        .where('recipient', '=', recipient)
        .where('day', '=', day)
        .where('count', '>', 0)
        .execute();
    }
  }

  private async sweep(utcToday: number): Promise<void> {
    // Local dates run from a day behind UTC's to a day ahead (UTC−12…+14); the day before the earliest is
    // kept too, for a node whose clock is a little behind.
    await this.db
      .deleteFrom('mail_counts')
      .where('day', '<', utcToday - 2)
      .execute();
  }
}

/** Told of each mail held back: the log line and the metric. */
export type OnMailHeld = (budget: MailBudgetName, recipients: readonly string[]) => void;

/**
 * The mailer every sender uses: each mail first takes its place in its recipients' daily budget
 * (`mail.budget`, `general` unless the sender says otherwise), and a mail over it is not sent but
 * refused with MailHeldBack. Security mails (reset links, lockout notices) have a budget of their own, so
 * report or alarm mails to the same address cannot use it up.
 */
export function createBudgetedMailer(inner: Mailer, budget: DbMailBudget, onHeld: OnMailHeld): Mailer {
  return {
    async send(mail: Mail) {
      const name = mail.budget ?? 'general';
      const recipients = recipientsOf(mail.to);
      const { allowed, counted } = await budget.take(name, recipients);
      if (!allowed) {
        onHeld(name, recipients);
        throw new MailHeldBack(name);
      }
      const { budget: _budget, ...message } = mail;
      try {
        await inner.send(message);
      } catch (error) {
        await budget.giveBack(name, counted).catch(() => undefined);
        throw error;
      }
    },
  };
}
