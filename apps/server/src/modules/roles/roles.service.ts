import type { z } from 'zod';
import { ALL_PERMISSIONS, E, V, type Role, type RoleList, type roleBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../../lib/audit';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors';
import { conflict, forbidden } from '../../lib/http-errors';
import * as repo from './roles.repository';

type Body = z.output<typeof roleBody>;

const duplicateName = () => conflict(E.duplicate, { name: [V.duplicate] });

/**
 * Roles: named sets of (page, method) pairs (NOTES.md). Anyone with the view pair reads them; only the
 * admin changes them. The administrator role always holds every pair and cannot be deleted.
 */
export class RolesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(_actor: Actor, filter: repo.RoleListFilter): Promise<RoleList> {
    return repo.listRoles(this.ctx.db, filter);
  }

  async get(_actor: Actor, id: number): Promise<Role> {
    return found(await repo.findRole(this.ctx.db, id));
  }

  /** id 0 creates. Admin only. A name used by another role answers 409. */
  async save(actor: Actor, id: number, body: Body): Promise<Role> {
    if (!actor.isAdmin) throw forbidden();
    const values: repo.RoleValues = { name: body.name, description: body.description ?? null };
    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const now = this.ctx.now();
        const before = id === 0 ? undefined : found(await repo.findRole(trx, id));
        if (await repo.nameTaken(trx, values.name, id)) throw duplicateName();
        if (before) await repo.updateRole(trx, id, values, now);
        const savedId = before ? id : await repo.insertRole(trx, values, now);
        await repo.setPermissions(trx, savedId, before?.is_admin ? ALL_PERMISSIONS : body.permissions);
        const after = found(await repo.findRole(trx, savedId));
        await recordAudit(trx, {
          userId: actor.userId,
          action: before ? 'update' : 'create',
          entity: 'role',
          entityId: savedId,
          before,
          after,
          ip: actor.ip,
          at: now,
        });
        return after;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /** Admin only. Refused with 409 while users hold the role, and always for the administrator role. */
  async remove(actor: Actor, id: number): Promise<void> {
    if (!actor.isAdmin) throw forbidden();
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const before = found(await repo.findRole(trx, id));
        if (before.is_admin) throw conflict(E.adminRoleLocked);
        if (before.user_count > 0) throw conflict(E.roleInUse);
        await repo.deleteRole(trx, id);
        await recordAudit(trx, {
          userId: actor.userId,
          action: 'delete',
          entity: 'role',
          entityId: id,
          before,
          ip: actor.ip,
          at: this.ctx.now(),
        });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(E.roleInUse);
      throw error;
    }
  }
}
