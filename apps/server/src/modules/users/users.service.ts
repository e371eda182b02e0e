import type { z } from 'zod';
import {
  E,
  V,
  hasPermission,
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
import { recordAudit } from '../../lib/audit';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, forbidden } from '../../lib/http-errors';
import { hashPassword } from '../../lib/password';
import { scopeOf } from '../../lib/scope';
import { issueSessionToken } from '../../lib/session-token';
import { raiseTokenVersion } from '../../plugins/session.repository';
import * as repo from './users.repository';

type UpsertBody = z.output<typeof userUpsertBody>;

/** The caller as this module needs it: identity, scope, and what its role grants. */
export interface UserActor extends Actor {
  permissions: readonly Permission[];
  remember: boolean;
  /** The sign-in of the caller's token, refreshed with it. */
  sessionId?: string;
  can(page: Page, method: Method): boolean;
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
 * non-admin cannot assign a role with pairs they lack, nor edit a user whose role has such pairs.
 */
export class UsersService {
  constructor(
    private readonly ctx: Pick<
      AppContext,
      'db' | 'tokens' | 'now' | 'config' | 'sessionEvents' | 'sessions' | 'settings'
    >,
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

  private async assertManageable(actor: UserActor, user: User): Promise<void> {
    if (actor.isAdmin) return;
    const role = await repo.findRole(this.ctx.db, user.roleId);
    if (!role || !holdsAll(actor, role)) throw forbidden(E.roleNotAllowed);
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
    const token = await issueSessionToken(
      this.ctx,
      { id: self.id, name: self.name, surname: self.surname, roleId: self.roleId, isAdmin: actor.isAdmin },
      actor.remember,
      actor.sessionId,
    );
    if (actor.sessionId !== undefined) {
      const lifetimes = this.ctx.settings.tokenLifetimesS();
      const lifetimeS = actor.remember ? lifetimes.remember : lifetimes.session;
      await this.ctx.sessions.refreshed(actor.sessionId, this.ctx.now() + lifetimeS * 1000);
    }
    return { ...user, token };
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
    };
    const passwordHash = before ? undefined : await hashPassword(body.password!, this.ctx.config.scryptLogN);
    const saved = await this.write(body, id, async (trx, now) => {
      if (before) await repo.updateUser(trx, id, values, now);
      // A deactivated user's tokens end for good: reactivating the account does not revive them.
      if (before?.is_active && !body.is_active) await raiseTokenVersion(trx, id);
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

  /** POST Users/profile/{id}: the own profile, or anyone's with user_management update. */
  async saveProfile(actor: UserActor, id: number, body: ProfileBody): Promise<User> {
    const before = await this.target(actor, id, 'update');
    await this.checkUnique(body, id);
    const values: repo.ProfileValues = { ...body, email: body.email.toLowerCase() };
    return this.write(body, id, async (trx, now) => {
      await repo.updateUser(trx, id, values, now);
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
  }

  /** POST Users/{id}/password: sets the password and ends the user's existing sessions. */
  async changePassword(actor: UserActor, id: number, password: string): Promise<{ ok: true }> {
    await this.target(actor, id, 'update');
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
