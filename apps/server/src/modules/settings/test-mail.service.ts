import { translate } from '@solar/i18n';
import { ADMIN_ERRORS, E, localeOfLanguageId, type TestMailAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { HttpError, notFound } from '../../lib/http-errors';
import { MailHeldBack } from '../../lib/mail-budget';

/** The admin panel's test mail: proves the mail settings in force reach a mailbox. */
export class TestMailService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'mailer' | 'settings' | 'config'>) {}

  /** Sends a test message through the mail settings in force, in the admin's language. */
  async testMail(actor: Actor, to: string | null | undefined): Promise<TestMailAnswer> {
    const me = await this.ctx.db
      .selectFrom('users')
      .select(['email', 'language_id'])
      .where('id', '=', actor.userId)
      .executeTakeFirst();
    if (!me) throw notFound();
    const locale = localeOfLanguageId(me.language_id);
    const recipient = to ?? me.email;
    try {
      await this.ctx.mailer.send({
        to: recipient,
        subject: translate(locale, 'mail.testSubject'),
        text: translate(locale, 'mail.testBody', { url: this.ctx.config.publicUrl }),
      });
    } catch (error) {
      if (error instanceof MailHeldBack) throw new HttpError(429, E.mailLimitReached);
      // The admin is testing exactly this: say the server failed, not that the console did.
      throw new HttpError(502, ADMIN_ERRORS.mailFailed, {
        smtp_host: [error instanceof Error ? error.message.slice(0, 200) : String(error)],
      });
    }
    const smtp = this.ctx.settings.current().smtp_host !== null || this.ctx.config.smtpUrl !== undefined;
    return { sent_to: recipient, transport: smtp ? 'smtp' : 'outbox' };
  }
}
