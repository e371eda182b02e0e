import nodemailer, { type Transporter } from 'nodemailer';
import type { Mail, Mailer } from '../../lib/mailer';
import type { SettingsValues } from './settings';

/**
 * A mailer that follows the admin's SMTP settings without a restart: with a stored SMTP host it sends
 * there (one transport, rebuilt when the settings change); without one it hands the mail to the mailer
 * the environment configured (SMTP_URL, or the outbox directory). The sender is the stored `mail_from`.
 */
export function createSettingsMailer(
  settings: { current(): Readonly<SettingsValues> },
  fromEnvironment: Mailer,
): Mailer {
  let cached: { key: string; transport: Transporter } | undefined;
  const transportFor = (v: Readonly<SettingsValues>): Transporter => {
    const options = {
      host: v.smtp_host!,
      port: v.smtp_port,
      secure: v.smtp_secure,
      ...(v.smtp_user ? { auth: { user: v.smtp_user, pass: v.smtp_password ?? '' } } : {}),
    };
    const key = JSON.stringify(options);
    if (cached?.key !== key) {
      cached?.transport.close();
      cached = { key, transport: nodemailer.createTransport(options) };
    }
    return cached.transport;
  };
  return {
    async send(mail: Mail) {
      const v = settings.current();
      if (v.smtp_host === null) return fromEnvironment.send({ from: v.mail_from, ...mail });
      await transportFor(v).sendMail({ from: v.mail_from, ...mail });
    },
  };
}
