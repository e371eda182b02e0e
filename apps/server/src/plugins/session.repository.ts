import type { Db } from '../db/database';
import type { Method, Page, Permission, UserUnit } from '@solar/shared';

export interface SessionRow {
  id: number;
  name: string;
  surname: string;
  roleId: number;
  isAdmin: boolean;
  isActive: boolean;
  tokensValidAfter: number;
  tokenVersion: number;
  languageId: number;
  companyId: number | null;
}

/** The current state of a signed-in user: tokens are re-checked against it on every request. */
export async function findSessionUser(db: Db, userId: number): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.name',
      'users.surname',
      'users.role_id',
      'roles.is_admin',
      'users.is_active',
      'users.tokens_valid_after',
      'users.token_version',
      'users.language_id',
      'users.company_id',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      surname: row.surname,
      roleId: row.role_id,
      isAdmin: row.is_admin === 1,
      isActive: row.is_active === 1,
      tokensValidAfter: row.tokens_valid_after,
      tokenVersion: Number(row.token_version),
      languageId: row.language_id,
      companyId: row.company_id,
    }
  );
}

export async function findRolePermissions(db: Db, roleId: number): Promise<Permission[]> {
  const rows = await db
    .selectFrom('role_permissions')
    .select(['page', 'method'])
    .where('role_id', '=', roleId)
    .orderBy('page')
    .orderBy('method')
    .execute();
  return rows.map((r) => ({ page: r.page as Page, method: r.method as Method }));
}

export async function findUserUnits(db: Db, userId: number): Promise<UserUnit[]> {
  const rows = await db
    .selectFrom('user_units')
    .select(['unit_type', 'unit_id'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ unit_type: r.unit_type as UserUnit['unit_type'], unit_id: r.unit_id }));
}

/** The version new tokens of the user carry (0 for a missing user, whose tokens are refused anyway). */
export async function findTokenVersion(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(row?.token_version ?? 0);
}

/**
 * Ends every session token of the user issued so far (password change, reset, deactivation): run it in
 * the transaction of the change.
 */
export async function raiseTokenVersion(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}
