import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

/** A file sent with a mail (the scheduled reports attach their PDF and XLSX). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * The daily per-recipient budget a mail counts against (lib/mail-budget.ts): `security` for reset links,
 * lockout notices and other account-safety mails, `alarm` for alarm digests, `general` for the rest
 * (scheduled reports, the admin's test mail).
 */
export const MAIL_BUDGETS = ['general', 'alarm', 'security'] as const;
export type MailBudgetName = (typeof MAIL_BUDGETS)[number];

/** Mails one address may receive per UTC day, per budget (config: MAIL_*_DAILY_LIMIT). */
export type MailDailyLimits = Record<MailBudgetName, number>;

export interface Mail {
  /** The sender; the configured MAIL_FROM when absent. */
  from?: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** The budget it counts against; `general` when absent. Not part of the message. */
  budget?: MailBudgetName;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Sends through SMTP when `SMTP_URL` is set; otherwise writes each message as an .eml file to the outbox
 * directory, so the demo and the tests can follow the links in them.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
}): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      mkdirSync(options.outboxDir, { recursive: true });
      const name = `${Date.now()}-${process.pid}-${++sequence}.eml`;
      writeFileSync(path.join(options.outboxDir, name), info.message as Buffer);
    },
  };
}
