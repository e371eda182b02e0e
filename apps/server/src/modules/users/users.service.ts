import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { translate } from '@solar/i18n';
import {
  E,
  V,
  hasPermission,
  localeOfLanguageId,
  type Method,
  type Page,
  type Permission,
  type ProfileBody,
  type User,
  type UserUnit,
  type UserWithToken,
  type userUpsertBody,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { isUniqueViolation } from '../../lib/db-errors';
import { MailHeldBack } from '../../lib/mail-budget';
import { mailSafeText } from '../../lib/mail-text';
import {
  HttpError,
  badRequest,
  conflict,
  forbidden,
  tooManyRequests,
  unauthorized,
} from '../../lib/http-errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { scopeOf, type Scope } from '../../lib/scope';
import { issueSessionToken, raiseTokenVersion } from '../auth';
import * as repo from './users.repository';

type UpsertBody = z.output<typeof userUpsertBody>;

/** The caller as this module needs it: identity, scope, and what its role grants. */
export interface UserActor extends Actor {
  permissions: readonly Permission[];
  remember: boolean;
  /** The sign-in of the caller's token, refreshed with it. */
  sessionId?: string;
  /** The generation of the caller's token within its sign-in. */
  tokenGeneration: number;
  can(page: Page, method: Method): boolean;
}

/** A link confirming a new email is valid for a day and can be used once. */
export const EMAIL_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
const emailLinkInvalid = () => new HttpError(400, E.emailLinkInvalid);
const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Does `outer` reach everything `inner` reaches? Whole-company scopes contain every scope of their company;
 * a scope narrowed to fields and plants contains only scopes narrowed to those fields, their plants and
 * its own plants. `plantFieldOf` names the field of each plant `inner` lists.
 */
export function scopeContains(
  outer: Scope,
  inner: Scope,
  plantFieldOf: ReadonlyMap<number, number>,
): boolean {
  if (outer.all) return true;
  if (inner.all || inner.companyId === null) return inner.all ? false : true;
  if (inner.companyId !== outer.companyId) return false;
  if (outer.wholeCompany) return true;
  if (inner.wholeCompany) return false;
  return (
    inner.fieldIds.every((id) => outer.fieldIds.includes(id)) &&
    inner.plantIds.every((id) => {
      const fieldId = plantFieldOf.get(id);
      return outer.plantIds.includes(id) || (fieldId !== undefined && outer.fieldIds.includes(fieldId));
    })
  );
}

/** Does the actor hold every pair the role grants? The administrator role only the admin holds. */
function holdsAll(
  actor: UserActor,
  granted: { isAdmin: boolean; permissions: readonly Permission[] },
): boolean {
  if (actor.isAdmin) return true;
  if (granted.isAdmin) return false;
  return granted.permissions.every((p) => hasPermission(actor.permissions, p.page, p.method));
}

/**
 * Users (spec §7): the list and the editor need user_management; everyone reads and edits their own
 * profile and password and keeps their own dashboard layout. Nobody hands out more than they hold: a
 * non-admin cannot assign a role with pairs they lack, nor manage a user whose role has such pairs or
 * whose plants, fields or company reach past their own (docs/security.md, "Accounts and sessions").
 */
export class UsersService {
  constructor(
    private readonly ctx: Pick<
      AppContext,
      | 'db'
      | 'tokens'
      | 'now'
      | 'config'
      | 'sessionEvents'
      | 'sessions'
      | 'settings'
      | 'mailer'
      | 'loginLimiter'
    >,
    private readonly log: { error(details: object, message: string): void } = console,
  ) {}

  private visibility(actor: UserActor): repo.UserVisibility {
    return actor.isAdmin ? { all: true } : { all: false, companyId: actor.companyId, selfId: actor.userId };
  }

  /** Someone else's record needs `method` on user_management and a role no stronger than the actor's. */
  private async target(actor: UserActor, id: number, method: Method): Promise<User> {
    if (id !== actor.userId && !actor.can('user_management', method)) throw forbidden();
    const user = found(await repo.findUser(this.ctx.db, this.visibility(actor), id));
    if (id !== actor.userId) await this.assertManageable(actor, user);
    return user;
  }

  /** The user's role grants nothing the actor lacks, and the user reaches nothing the actor does not. */
  private async assertManageable(actor: UserActor, user: User): Promise<void> {
    if (actor.isAdmin) return;
    const role = await repo.findRole(this.ctx.db, user.roleId);
    if (!role || !holdsAll(actor, role)) throw forbidden(E.roleNotAllowed);
    const inner = scopeOf({ isAdmin: role.isAdmin, companyId: user.company_id, units: user.user_units });
    const plantIds = inner.all ? [] : inner.plantIds;
    const owners = await repo.unitOwners(this.ctx.db, [], plantIds);
    const plantFieldOf = new Map([...owners.plants].map(([id, owner]) => [id, owner.fieldId]));
    if (!scopeContains(scopeOf(actor), inner, plantFieldOf)) throw forbidden(E.userOutOfScope);
  }

  /** GET Users: every user the actor may see (the client filters is_active). */
  list(actor: UserActor): Promise<User[]> {
    return repo.listUsers(this.ctx.db, this.visibility(actor));
  }

  /**
   * GET users/{id}: the user and a fresh token carrying the actor's current permissions. The token is
   * always the actor's own (never the viewed user's), so reading someone else cannot impersonate them.
   */
  async get(actor: UserActor, id: number): Promise<UserWithToken> {
    if (id !== actor.userId && !actor.can('user_management', 'view')) throw forbidden();
    const visibility = this.visibility(actor);
    const user = found(await repo.findUser(this.ctx.db, visibility, id));
    const self =
      id === actor.userId ? user : found(await repo.findUser(this.ctx.db, visibility, actor.userId));
    // The refresh retires the presented token (after a short grace) and never passes the sign-in's end.
    const lifetimes = this.ctx.settings.tokenLifetimesS();
    const lifetimeMs = (actor.remember ? lifetimes.remember : lifetimes.session) * 1000;
    const session =
      actor.sessionId === undefined
        ? undefined
        : await this.ctx.sessions.refresh(
            actor.sessionId,
            actor.tokenGeneration,
            lifetimeMs,
            // Only reading the own record refreshes the stored token (spec §4); reading someone else's answers
            // a token the console drops, so it must not retire the one the console keeps.
            id === actor.userId,
          );
    if (!session || actor.sessionId === undefined) throw unauthorized();
    const token = await issueSessionToken(
      this.ctx,
      { id: self.id, name: self.name, surname: self.surname, roleId: self.roleId, isAdmin: actor.isAdmin },
      actor.remember,
      { id: actor.sessionId, ...session },
    );
    return { ...user, token };
  }

  /** POST users/logout: ends the caller's own sign-in; its token is refused from now on. */
  async logout(actor: UserActor): Promise<{ ok: true }> {
    if (actor.sessionId === undefined) return { ok: true };
    await this.ctx.sessions.end(actor.sessionId, actor.userId);
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action: 'logout',
      entity: 'user',
      entityId: actor.userId,
      ip: actor.ip,
      at: this.ctx.now(),
    });
    return { ok: true };
  }

  /** POST users/{id}: id 0 creates (password required), otherwise updates. */
  async save(actor: UserActor, id: number, body: UpsertBody): Promise<User> {
    const { db } = this.ctx;
    const before = id === 0 ? undefined : await this.target(actor, id, 'update');
    if (!before && !body.password) throw badRequest({ password: [V.required] });

    const role = await repo.findRole(db, body.role_id);
    if (!role) throw badRequest({ role_id: [V.invalidValue] });
    if (!holdsAll(actor, role)) throw forbidden(E.roleNotAllowed);
    if (before && before.id === actor.userId) {
      if (body.role_id !== before.roleId) throw forbidden(E.roleNotAllowed);
      if (body.is_active !== before.is_active) throw forbidden();
      // The own address changes only through the profile, with the current password and a confirmation.
      if (!sameEmail(body.email, before.email)) throw badRequest({ email: [E.ownEmailViaProfile] });
    }

    const companyId = await this.companyFor(actor, role.isAdmin, body.company_id, before);
    await this.checkUnits(actor, companyId, body.user_units);
    await this.checkUnique(body, id);

    const values: repo.UserValues = {
      name: body.name,
      surname: body.surname,
      username: body.username,
      telephone: body.telephone,
      email: body.email.toLowerCase(),
      language_id: body.language_id,
      is_active: body.is_active ? 1 : 0,
      role_id: body.role_id,
      company_id: companyId,
      // A new user, or an address someone else set, is unconfirmed until the user proves it reaches them.
      ...(before && sameEmail(body.email, before.email) ? {} : { email_confirmed_at: null }),
    };
    const passwordHash = before ? undefined : await hashPassword(body.password!, this.ctx.config.scryptLogN);
    const saved = await this.write(body, id, async (trx, now) => {
      if (before) await repo.updateUser(trx, id, values, now);
      // A deactivated user's tokens end for good: reactivating the account does not revive them.
      if (before?.is_active && !body.is_active) await raiseTokenVersion(trx, id);
      if (before && !sameEmail(body.email, before.email)) await repo.closeEmailChanges(trx, id, now);
      const savedId = before
        ? id
        : await repo.insertUser(trx, { ...values, password_hash: passwordHash! }, now);
      await repo.setUnits(trx, savedId, body.user_units);
      const after = found(await repo.findUser(trx, { all: true }, savedId));
      await recordAudit(trx, {
        userId: actor.userId,
        action: before ? 'update' : 'create',
        entity: 'user',
        entityId: savedId,
        before,
        after,
        ip: actor.ip,
        at: now,
      });
      return after;
    });
    // Role, company, units or the active flag may have changed: open streams must not keep the old reach.
    if (before) this.ctx.sessionEvents.emit({ kind: 'user', userId: id });
    return saved;
  }

  /**
   * POST Users/profile/{id}: the own profile, or anyone's with user_management update. A new own email
   * needs the current password and is only stored as pending: it replaces the address once the link mailed
   * to it is opened, and the current address is told. Someone else's new email is set at once, unconfirmed.
   */
  async saveProfile(actor: UserActor, id: number, body: ProfileBody): Promise<User> {
    const before = await this.target(actor, id, 'update');
    const { current_password: currentPassword, ...fields } = body;
    await this.checkUnique(fields, id);
    const self = id === actor.userId;
    const emailChanged = !sameEmail(fields.email, before.email);
    if (self && emailChanged) await this.checkCurrentPassword(actor, currentPassword);
    const pendingEmail = self && emailChanged ? fields.email.toLowerCase() : undefined;
    const values: repo.ProfileValues & { email_confirmed_at?: null } = {
      ...fields,
      email: pendingEmail === undefined ? fields.email.toLowerCase() : before.email,
      ...(emailChanged && !self ? { email_confirmed_at: null } : {}),
    };
    const token = randomBytes(32).toString('base64url');
    const saved = await this.write({ ...fields, email: values.email }, id, async (trx, now) => {
      await repo.updateUser(trx, id, values, now);
      if (pendingEmail !== undefined) {
        await repo.insertEmailChange(trx, {
          userId: id,
          newEmail: pendingEmail,
          tokenHash: sha256(token),
          createdAt: now,
          expiresAt: now + EMAIL_LINK_TTL_MS,
        });
      } else if (emailChanged) await repo.closeEmailChanges(trx, id, now);
      const after = found(await repo.findUser(trx, { all: true }, id));
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'update',
        entity: 'user',
        entityId: id,
        before,
        after,
        ip: actor.ip,
        at: now,
      });
      return after;
    });
    if (pendingEmail !== undefined) this.mailEmailChange(before, pendingEmail, token);
    return saved;
  }

  /** POST Users/{id}/password: sets the password and ends the user's existing sessions. */
  async changePassword(
    actor: UserActor,
    id: number,
    password: string,
    currentPassword: string | undefined,
  ): Promise<{ ok: true }> {
    await this.target(actor, id, 'update');
    if (id === actor.userId) await this.checkCurrentPassword(actor, currentPassword);
    const hash = await hashPassword(password, this.ctx.config.scryptLogN);
    await this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      await repo.setPassword(trx, id, hash, Math.floor(now / 1000), now);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'password',
        entity: 'user',
        entityId: id,
        ip: actor.ip,
        at: now,
      });
    });
    this.ctx.sessionEvents.emit({ kind: 'user', userId: id });
    return { ok: true };
  }

  /**
   * POST users/confirm-email: the link mailed to a new address was opened. Sets it as the user's confirmed
   * email, once per link; 400 for an unknown, used or expired link, 409 when the address was taken meanwhile.
   */
  async confirmEmail(token: string, ip: string | null): Promise<{ ok: true }> {
    const tokenHash = sha256(token);
    const open = await repo.findOpenEmailChange(this.ctx.db, tokenHash, this.ctx.now());
    if (!open) throw emailLinkInvalid();
    const emailTaken = () => conflict(E.emailTaken, { email: [E.emailTaken] });
    if (await repo.emailTaken(this.ctx.db, open.newEmail, open.userId)) throw emailTaken();
    const work = (trx: AppContext['db'], now: number) => this.applyEmailChange(trx, tokenHash, ip, now);
    let userId: number;
    try {
      userId = await this.ctx.db.transaction().execute((trx) => work(trx, this.ctx.now()));
    } catch (error) {
      // Another account took the address between the check and the write.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    this.ctx.sessionEvents.emit({ kind: 'user', userId });
    return { ok: true };
  }

  /** Claims the email change of the link and sets its address as confirmed; answers the user's id. */
  private async applyEmailChange(trx: AppContext['db'], tokenHash: string, ip: string | null, now: number) {
    const change = await repo.findOpenEmailChange(trx, tokenHash, now);
    if (!change || !(await repo.claimEmailChange(trx, change.id, now))) throw emailLinkInvalid();
    const before = await repo.findUser(trx, { all: true }, change.userId);
    await repo.setConfirmedEmail(trx, change.userId, change.newEmail, now);
    await repo.closeEmailChanges(trx, change.userId, now);
    await recordAudit(trx, {
      userId: change.userId,
      action: 'confirm_email',
      entity: 'user',
      entityId: change.userId,
      before: { email: before?.email },
      after: { email: change.newEmail },
      ip,
      at: now,
    });
    return change.userId;
  }

  /**
   * The own current password, before the own password or email changes: 400 when missing or wrong. Wrong
   * guesses count against the sign-in limit of the account, so a stolen token cannot try passwords freely.
   */
  private async checkCurrentPassword(actor: UserActor, currentPassword: string | undefined): Promise<void> {
    if (!currentPassword) throw badRequest({ current_password: [V.required] });
    const limiter = this.ctx.loginLimiter;
    const key = `current:${actor.userId}`;
    const count = await limiter.hit(key);
    if (count.count > limiter.max) throw tooManyRequests(count.retryAfterS);
    const hash = await repo.passwordHashOf(this.ctx.db, actor.userId);
    if (!hash || !(await verifyPassword(currentPassword, hash))) {
      throw new HttpError(400, E.currentPasswordWrong, { current_password: [E.currentPasswordWrong] });
    }
    await limiter.reset(key);
  }

  /** Mails the confirmation link to the new address and a notice to the current one, after the answer. */
  private mailEmailChange(user: User, newEmail: string, token: string): void {
    const locale = localeOfLanguageId(user.language_id);
    const t = (key: string, vars?: Record<string, string>) => translate(locale, `mail.${key}`, vars);
    const link = `${this.ctx.config.publicUrl}/confirm-email/${token}`;
    // The name is the user's own text: no links or line breaks in the mail (lib/mail-text.ts).
    const greeting = t('emailChangeGreeting', { name: mailSafeText(user.name) });
    const confirm = {
      to: newEmail,
      budget: 'security' as const,
      subject: t('emailChangeSubject'),
      text: [greeting, '', t('emailChangeBody'), '', link, '', t('emailChangeIgnore')].join('\n'),
      html: [
        `<p>${escapeHtml(greeting)}</p>`,
        `<p>${escapeHtml(t('emailChangeBody'))}</p>`,
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        `<p>${escapeHtml(t('emailChangeIgnore'))}</p>`,
      ].join('\n'),
    };
    const noticeBody = t('emailNoticeBody', { email: newEmail });
    const notice = {
      to: user.email,
      budget: 'security' as const,
      subject: t('emailNoticeSubject'),
      text: [greeting, '', noticeBody, '', t('emailNoticeAdvice')].join('\n'),
      html: [
        `<p>${escapeHtml(greeting)}</p>`,
        `<p>${escapeHtml(noticeBody)}</p>`,
        `<p>${escapeHtml(t('emailNoticeAdvice'))}</p>`,
      ].join('\n'),
    };
    for (const mail of [confirm, notice]) {
      this.ctx.mailer.send(mail).catch((error: unknown) => {
        // Held back by the address's daily security budget: the mailer has logged and counted it.
        if (!(error instanceof MailHeldBack))
          this.log.error({ err: error, userId: user.id }, 'email change mail failed');
      });
    }
  }

  /** GET users/dashboard: the own layout, null when none was saved. */
  async getDashboard(actor: UserActor): Promise<{ data: unknown }> {
    const stored = await repo.findDashboard(this.ctx.db, actor.userId);
    return { data: stored === undefined ? null : (JSON.parse(stored) as unknown) };
  }

  /**
   * POST users/dashboard: replaces the own layout. Its depth and size (DASHBOARD_MAX_BYTES) are bounded by
   * the shared schema, so stringifying it here cannot overflow the stack.
   */
  async saveDashboard(actor: UserActor, data: unknown): Promise<{ ok: true }> {
    if (data === undefined) throw badRequest({ data: [V.required] });
    const json = JSON.stringify(data);
    await this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      await repo.saveDashboard(trx, actor.userId, json, now);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'dashboard',
        entity: 'user',
        entityId: actor.userId,
        ip: actor.ip,
        at: now,
      });
    });
    return { ok: true };
  }

  /**
   * The company of a saved user: none for the administrator role; the admin chooses it (omitted keeps the
   * current one); anyone else creates and keeps users in their own company.
   */
  private async companyFor(
    actor: UserActor,
    adminRole: boolean,
    requested: number | null | undefined,
    before: User | undefined,
  ): Promise<number | null> {
    if (adminRole) return null;
    if (!actor.isAdmin) {
      if (requested != null && requested !== actor.companyId) throw forbidden();
      return actor.companyId;
    }
    const companyId = requested === undefined ? (before?.company_id ?? null) : requested;
    if (companyId !== null && !(await repo.companyExists(this.ctx.db, companyId))) {
      throw badRequest({ company_id: [V.invalidValue] });
    }
    return companyId;
  }

  /**
   * Units must exist inside the user's company. An actor limited to some fields or plants may only hand
   * out units inside their own reach, and must hand out some (an empty list means the whole company).
   */
  private async checkUnits(actor: UserActor, companyId: number | null, units: readonly UserUnit[]) {
    const scope = scopeOf(actor);
    const narrowed = !scope.all && !scope.wholeCompany;
    if (narrowed && units.length === 0) throw forbidden();
    if (!units.length) return;
    if (companyId === null) throw badRequest({ user_units: [V.invalidValue] });
    const ids = (type: UserUnit['unit_type']) =>
      units.filter((u) => u.unit_type === type).map((u) => u.unit_id);
    const owners = await repo.unitOwners(this.ctx.db, ids('field'), ids('plant'));
    for (const unit of units) {
      const owner =
        unit.unit_type === 'company'
          ? { companyId: unit.unit_id }
          : unit.unit_type === 'field'
            ? owners.fields.get(unit.unit_id)
            : owners.plants.get(unit.unit_id);
      if (owner?.companyId !== companyId) throw badRequest({ user_units: [V.invalidValue] });
      if (narrowed) {
        const reach = scope.all ? undefined : scope;
        const inReach =
          unit.unit_type === 'field'
            ? reach?.fieldIds.includes(unit.unit_id)
            : unit.unit_type === 'plant'
              ? reach?.plantIds.includes(unit.unit_id) ||
                reach?.fieldIds.includes(owners.plants.get(unit.unit_id)!.fieldId)
              : false;
        if (!inReach) throw forbidden();
      }
    }
  }

  /** 409 naming each of email and username another user already has. */
  private async checkUnique(values: { email: string; username: string }, id: number): Promise<void> {
    const clash = await repo.taken(this.ctx.db, values, id);
    if (!clash.email && !clash.username) return;
    throw conflict(clash.email ? E.emailTaken : E.usernameTaken, {
      ...(clash.email ? { email: [E.emailTaken] } : {}),
      ...(clash.username ? { username: [E.usernameTaken] } : {}),
    });
  }

  /** Runs a write in a transaction; a unique clash that raced past the check still answers 409. */
  private async write<T>(
    values: { email: string; username: string },
    id: number,
    work: (trx: AppContext['db'], now: number) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.ctx.db.transaction().execute((trx) => work(trx, this.ctx.now()));
    } catch (error) {
      if (isUniqueViolation(error)) {
        await this.checkUnique(values, id);
        throw conflict();
      }
      throw error;
    }
  }
}
