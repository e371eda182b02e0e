import { sql, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { Method, Page, Permission, Role, roleListQuery } from '@solar/shared';
import type { Db } from '../../db/database';
import type { RolesTable } from '../../db/schema';
import { bool, iso, pageOf, searchAny } from '../../lib/listing';

export type RoleListFilter = z.output<typeof roleListQuery>;

export interface RoleValues {
  name: string;
  description: string | null;
}

type Row = Selectable<RolesTable> & { user_count: number };

function selectRoles(db: Db) {
  return db
    .selectFrom('roles')
    .selectAll('roles')
    .select((eb) =>
      eb
        .selectFrom('users')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('users.role_id', '=', 'roles.id')
        .as('user_count'),
    );
}

async function withPermissions(db: Db, rows: Row[]): Promise<Role[]> {
  const ids = rows.map((r) => r.id);
  const pairs = ids.length
    ? await db
        .selectFrom('role_permissions')
        .select(['role_id', 'page', 'method'])
        .where('role_id', 'in', ids)
        .orderBy('page')
        .orderBy('method')
        .execute()
    : [];
  const byRole = new Map<number, Permission[]>();
  for (const p of pairs) {
    const list = byRole.get(p.role_id) ?? [];
    list.push({ page: p.page as Page, method: p.method as Method });
    byRole.set(p.role_id, list);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    is_admin: bool(r.is_admin),
    permissions: byRole.get(r.id) ?? [],
    user_count: Number(r.user_count ?? 0),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  }));
}

/** One page of roles with their permissions and how many users hold each. */
export async function listRoles(db: Db, filter: RoleListFilter) {
  let q = db.selectFrom('roles');
  if (filter.q) q = q.where(searchAny(['roles.name', 'roles.description'], filter.q));
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  let rows = selectRoles(db);
  if (filter.q) rows = rows.where(searchAny(['roles.name', 'roles.description'], filter.q));
  const page = await rows
    .orderBy(sql.ref(`roles.${filter.sort.column}`), direction)
    .orderBy('roles.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: await withPermissions(db, page as Row[]), total: Number(total) };
}

export async function findRole(db: Db, id: number): Promise<Role | undefined> {
  const row = await selectRoles(db).where('roles.id', '=', id).executeTakeFirst();
  return row && (await withPermissions(db, [row as Row]))[0];
}

export async function nameTaken(db: Db, name: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('roles')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return !!row;
}

export async function insertRole(db: Db, values: RoleValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('roles')
    .values({ ...values, is_admin: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRole(db: Db, id: number, values: RoleValues, now: number): Promise<void> {
  await db
    .updateTable('roles')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Replaces the role's (page, method) pairs. */
export async function setPermissions(
  db: Db,
  roleId: number,
  permissions: readonly Permission[],
): Promise<void> {
  await db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (permissions.length) {
    await db
      .insertInto('role_permissions')
      .values(permissions.map((p) => ({ role_id: roleId, page: p.page, method: p.method })))
      .execute();
  }
}

export async function deleteRole(db: Db, id: number): Promise<void> {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}
