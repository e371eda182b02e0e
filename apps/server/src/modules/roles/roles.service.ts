import type { z } from 'zod';
import { ALL_PERMISSIONS, E, V, type Role, type RoleList, type roleBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { auditedRemove, auditedSave } from '../audit';
import { conflict } from '../../lib/http-errors';
import * as repo from './roles.repository';

type Body = z.output<typeof roleBody>;

const duplicateName = () => conflict(E.duplicate, { name: [V.duplicate] });

/**
 * Roles: named sets of (page, method) pairs (docs/spec-differences.md, permissions). Anyone with the view
 * pair reads them; only the admin changes them. The administrator role always holds every pair and cannot be
 * deleted.
 */
export class RolesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'sessionEvents'>) {}

  list(_actor: Actor, filter: repo.RoleListFilter): Promise<RoleList> {
    return repo.listRoles(this.ctx.db, filter);
  }

  async get(_actor: Actor, id: number): Promise<Role> {
    return found(await repo.findRole(this.ctx.db, id));
  }

  /** id 0 creates. Admin only. A name used by another role answers 409. */
  async save(actor: Actor, id: number, body: Body): Promise<Role> {
    const values: repo.RoleValues = { name: body.name, description: body.description ?? null };
    const saved = await auditedSave(this.ctx, actor, id, {
      entity: 'role',
      find: (trx, roleId) => repo.findRole(trx, roleId),
      check: async (trx) => {
        if (await repo.nameTaken(trx, values.name, id)) throw duplicateName();
      },
      insert: async (trx, now) => {
        const roleId = await repo.insertRole(trx, values, now);
        await repo.setPermissions(trx, roleId, body.permissions);
        return roleId;
      },
      update: async (trx, roleId, before, now) => {
        await repo.updateRole(trx, roleId, values, now);
        // The administrator role keeps every pair whatever the body says.
        await repo.setPermissions(trx, roleId, before.is_admin ? ALL_PERMISSIONS : body.permissions);
      },
      onUnique: duplicateName,
    });
    // The holders' open streams must not keep permissions the role no longer grants.
    if (id !== 0) this.ctx.sessionEvents.emit({ kind: 'role', roleId: id });
    return saved;
  }

  /** Admin only. Refused with 409 while users hold the role, and always for the administrator role. */
  async remove(actor: Actor, id: number): Promise<void> {
    await auditedRemove(this.ctx, actor, id, {
      entity: 'role',
      find: (trx, roleId) => repo.findRole(trx, roleId),
      check: (_trx, before) => {
        if (before.is_admin) throw conflict(E.adminRoleLocked);
        if (before.user_count > 0) throw conflict(E.roleInUse);
      },
      remove: (trx, roleId) => repo.deleteRole(trx, roleId),
      onForeignKey: () => conflict(E.roleInUse),
    });
  }
}
