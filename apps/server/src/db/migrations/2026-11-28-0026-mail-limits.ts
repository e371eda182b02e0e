import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `mail_counts` (outside attack, 2026-11-28; docs/security.md, "Mail and schedules"): the mails sent to one
 * address per budget (general, alarm, security) and UTC day, counted by one atomic upsert before each mail,
 * so the daily cap holds across restarts and across several nodes sharing the database. `day` is the UTC
 * day number (epoch ms / 86,400,000); rows of past days are swept.
 */
export const mailLimits: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('mail_counts')
      .addColumn('budget', 'varchar(16)', (c) => c.notNull())
      // An address is at most 254 characters (RFC 5321); what the mailer was handed is cut to this.
      .addColumn('recipient', 'varchar(320)', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('mail_counts_pk', ['budget', 'recipient', 'day'])
      .execute();
    await db.schema.createIndex('mail_counts_day').on('mail_counts').column('day').execute();
  },
};
