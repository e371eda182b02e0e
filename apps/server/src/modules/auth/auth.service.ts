import { createHash, randomBytes } from 'node:crypto';
import { E, localeOfLanguageId, type LoginBody } from '@solar/shared';
import { translate } from '@solar/i18n';
import type { AppContext } from '../../context';
import { recordAudit } from '../audit';
import { DeviceCookies, deviceCookieName } from '../../lib/device-cookie';
import { HttpError, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { MailHeldBack } from '../../lib/mail-budget';
import { mailSafeText } from '../../lib/mail-text';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/password';
import { issueSessionToken } from './session-token';
import * as repo from './auth.repository';

/** A reset link is valid for one hour and can be used once. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

export interface ErrorLog {
  error(details: object, message: string): void;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const linkInvalid = () => new HttpError(400, E.resetLinkInvalid);

const ipKey = (ip: string) => `ip:${ip}`;
const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`;
const deviceKey = (nonce: string) => `device:${nonce}`;

/**
 * Sign-in and password reset by mail. Answers never tell whether an email is registered: unknown and
 * known emails get the same answer and take about as long (the password is checked against a dummy hash).
 */
export class AuthService {
  private dummyHash: Promise<string> | undefined;
  private readonly devices: DeviceCookies;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: ErrorLog = console,
  ) {
    this.devices = new DeviceCookies(ctx.config.jwtSecret);
  }

  /** A hash of a random password at the configured cost, to verify against when the email is unknown. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'), this.ctx.config.scryptLogN);
    return this.dummyHash;
  }

  /**
   * POST users/login: a session token, 401 for wrong credentials or an inactive account, 429 when blocked.
   * Attempts count per IP and, from a browser this account never signed in from, per email (against
   * spraying); a browser holding the account's device cookie counts on its own instead, so strangers
   * failing on purpose cannot lock the owner out (OWASP device cookies). The owner gets one mail when the
   * email's limit trips. `deviceCookie` is the cookie to set after a success.
   */
  async login(
    body: LoginBody,
    ip: string,
    cookies: Readonly<Record<string, string | undefined>> = {},
    userAgent?: string,
  ): Promise<{ token: string; deviceCookie: { name: string; value: string } }> {
    const { loginLimiter: limiter, db, config } = this.ctx;
    const user = await repo.findUserByEmail(db, body.email);
    const device = user && this.devices.verify(user.id, cookies[deviceCookieName(user.id)]);
    const accountKey = device ? deviceKey(device) : emailKey(body.email);
    // Counted before the password is checked: parallel attempts cannot all pass a check made before any count.
    // The address first, and the account only for an attempt the address lets through: counted side by side,
    // parallel attempts reached the two counters in different orders, so the first five of one and the first
    // five of the other could be different attempts and none passed both (seen across two nodes). In turn,
    // exactly the first `max` attempts pass, and an address over its limit costs the account nothing.
    const byAddress = await limiter.hit(ipKey(ip));
    if (byAddress.count > limiter.max) throw tooManyRequests(byAddress.retryAfterS);
    const byAccount = await limiter.hit(accountKey);
    if (byAccount.count > limiter.max) throw tooManyRequests(byAccount.retryAfterS);

    const valid = await verifyPassword(body.password, user?.passwordHash ?? (await this.dummy()));
    // A deactivated company locks its users out like a deactivated account (same answer, no hint).
    if (!user || !valid || !user.isActive || !user.companyActive) {
      // Exactly one attempt sees the count reach the limit: the owner is told once per window.
      if (user?.isActive && user.companyActive && !device && byAccount.count === limiter.max)
        this.mailLockout(user);
      throw unauthorized(E.invalidCredentials);
    }
    // A right password is no failure: it gives its slot back and clears the account's counter.
    await Promise.all([limiter.undo(ipKey(ip)), limiter.reset(accountKey)]);

    if (needsRehash(user.passwordHash, config.scryptLogN)) {
      await repo.updatePasswordHash(db, user.id, await hashPassword(body.password, config.scryptLogN));
    }
    await recordAudit(db, {
      userId: user.id,
      action: 'login',
      entity: 'user',
      entityId: user.id,
      ip,
      at: this.ctx.now(),
    });
    const remember = body.remember === true;
    const lifetimes = this.ctx.settings.tokenLifetimesS();
    const lifetimeMs = (remember ? lifetimes.remember : lifetimes.session) * 1000;
    const session = await this.ctx.sessions.start(user.id, lifetimeMs, { ip, userAgent });
    return {
      token: await issueSessionToken(this.ctx, user, remember, {
        id: session.sessionId,
        generation: 0,
        expiresAt: session.expiresAt,
      }),
      deviceCookie: { name: deviceCookieName(user.id), value: this.devices.issue(user.id) },
    };
  }

  /** Tells the owner, in their language, that sign-ins from new devices are blocked for a while. */
  private mailLockout(user: repo.LoginUser): void {
    const { loginLimiter: limiter } = this.ctx;
    const locale = localeOfLanguageId(user.languageId);
    const t = (key: string, vars?: Record<string, string>) => translate(locale, `mail.${key}`, vars);
    const lines = [
      // The name is the user's own text: no links or line breaks in the mail (lib/mail-text.ts).
      t('lockoutGreeting', { name: mailSafeText(user.name) }),
      t('lockoutBody', {
        count: String(limiter.max),
        minutes: String(Math.round(limiter.windowMs / 60_000)),
      }),
      t('lockoutAdvice'),
    ];
    this.ctx.mailer
      .send({
        to: user.email,
        budget: 'security',
        subject: t('lockoutSubject'),
        text: lines.join('\n\n'),
        html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
      })
      .catch((error: unknown) => {
        // Held back by the address's daily security budget: the mailer has logged and counted it.
        if (!(error instanceof MailHeldBack))
          this.log.error({ err: error, userId: user.id }, 'lockout mail failed');
      });
  }

  /**
   * POST Users/resetpasswordrequest: always `{ ok: true }`. Only the rate limit (the same two counters for
   * every email) runs before the answer; the look-up, the stored link and the mail run after it, so the
   * answer takes as long for an unknown email as for a registered one (docs/security.md).
   */
  async requestReset(email: string, ip: string): Promise<{ ok: true }> {
    const { resetLimiter: limiter } = this.ctx;
    const counts = await Promise.all([ipKey(ip), emailKey(email)].map((key) => limiter.hit(key)));
    const over = counts.filter((c) => c.count > limiter.max);
    if (over.length) throw tooManyRequests(Math.max(...over.map((c) => c.retryAfterS)));
    // setImmediate: after the answer has been written, not merely after this function returned.
    setImmediate(() => {
      this.mailResetLink(email).catch((error: unknown) =>
        this.log.error({ err: error }, 'password reset request failed'),
      );
    });
    return { ok: true };
  }

  /**
   * For an active account of an active company, stores the SHA-256 of a fresh 256-bit guid and mails the
   * link in the user's language; for anything else does nothing.
   */
  private async mailResetLink(email: string): Promise<void> {
    const { db, config } = this.ctx;
    const user = await repo.findUserByEmail(db, email);
    if (!user?.isActive || !user.companyActive) return;

    const guid = randomBytes(32).toString('base64url');
    const now = this.ctx.now();
    await repo.insertReset(db, {
      userId: user.id,
      tokenHash: sha256(guid),
      createdAt: now,
      expiresAt: now + RESET_LINK_TTL_MS,
    });
    const link = `${config.publicUrl}/reset-password/${guid}`;
    const locale = localeOfLanguageId(user.languageId);
    const t = (key: string, vars?: Record<string, string>) => translate(locale, `mail.${key}`, vars);
    const greeting = t('resetGreeting', { name: mailSafeText(user.name) });
    try {
      await this.ctx.mailer.send({
        to: user.email,
        budget: 'security',
        subject: t('resetSubject'),
        text: [greeting, '', t('resetBody'), '', link, '', t('resetIgnore')].join('\n'),
        html: [
          `<p>${escapeHtml(greeting)}</p>`,
          `<p>${escapeHtml(t('resetBody'))}</p>`,
          `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
          `<p>${escapeHtml(t('resetIgnore'))}</p>`,
        ].join('\n'),
      });
    } catch (error) {
      // Held back by the address's daily security budget: the mailer has logged and counted it.
      if (!(error instanceof MailHeldBack)) throw error;
    }
  }

  /** POST Users/checkresetpasswordrequest: `{ valid: true }`, or 400 errors.resetLinkInvalid. */
  async checkReset(guid: string): Promise<{ valid: true }> {
    const reset = await repo.findOpenReset(this.ctx.db, sha256(guid), this.ctx.now());
    if (!reset) throw linkInvalid();
    return { valid: true };
  }

  /**
   * POST Users/resetpassword: sets the password once per link, closes the user's other links and ends
   * the user's existing sessions.
   */
  async resetPassword(guid: string, password: string, ip: string): Promise<{ ok: true }> {
    const { db, config } = this.ctx;
    const tokenHash = sha256(guid);
    if (!(await repo.findOpenReset(db, tokenHash, this.ctx.now()))) throw linkInvalid();
    const hash = await hashPassword(password, config.scryptLogN);
    const userId = await db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      const reset = await repo.findOpenReset(trx, tokenHash, now);
      if (!reset || !(await repo.claimReset(trx, reset.id, now))) throw linkInvalid();
      await repo.setPassword(trx, reset.userId, hash, Math.floor(now / 1000), now);
      // Opening the mailed link proves the address reaches the user: it counts as confirmed from now on.
      await repo.confirmEmail(trx, reset.userId, now);
      await repo.closeOpenResets(trx, reset.userId, now);
      await recordAudit(trx, {
        userId: reset.userId,
        action: 'reset_password',
        entity: 'user',
        entityId: reset.userId,
        ip,
        at: now,
      });
      return reset.userId;
    });
    this.ctx.sessionEvents.emit({ kind: 'user', userId });
    const email = await repo.emailOfUser(db, userId);
    // The owner proved control of the mailbox: earlier failed sign-ins no longer block the account.
    if (email) await this.ctx.loginLimiter.reset(emailKey(email));
    return { ok: true };
  }
}
