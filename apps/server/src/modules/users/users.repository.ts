import {
  ALL_PERMISSIONS,
  type Method,
  type Page,
  type Permission,
  type User,
  type UserUnit,
} from '@solar/shared';
import type { Db } from '../../db/database';

export interface UserValues {
  name: string;
  surname: string;
  username: string;
  telephone: string;
  email: string;
  language_id: number;
  is_active: number;
  role_id: number;
  company_id: number | null;
  /** Set to null when someone else changes the address: it is unconfirmed until proven again. */
  email_confirmed_at?: number | null;
}

export type ProfileValues = Pick<UserValues, 'name' | 'surname' | 'username' | 'telephone' | 'email'>;

/** Which users a query returns: all of them, or those of one company (null: none) plus one user. */
export type UserVisibility = { all: true } | { all: false; companyId: number | null; selfId: number };

function selectUsers(db: Db, visibility: UserVisibility) {
  let q = db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.name',
      'users.surname',
      'users.username',
      'users.telephone',
      'users.email',
      'users.language_id',
      'users.is_active',
      'users.role_id',
      'users.company_id',
      'users.email_confirmed_at',
      'roles.name as role_name',
      'roles.is_admin',
    ]);
  if (!visibility.all) {
    const { companyId, selfId } = visibility;
    q = q.where((eb) =>
      companyId === null
        ? eb('users.id', '=', selfId)
        : eb.or([eb('users.id', '=', selfId), eb('users.company_id', '=', companyId)]),
    );
  }
  return q;
}

type Row = Awaited<ReturnType<ReturnType<typeof selectUsers>['execute']>>[number];

async function toUsers(db: Db, rows: Row[]): Promise<User[]> {
  if (!rows.length) return [];
  const userIds = rows.map((r) => r.id);
  const roleIds = [...new Set(rows.filter((r) => r.is_admin !== 1).map((r) => r.role_id))];
  const [units, pairs, pending] = await Promise.all([
    db
      .selectFrom('user_units')
      .select(['user_id', 'unit_type', 'unit_id'])
      .where('user_id', 'in', userIds)
      .orderBy('unit_type')
      .orderBy('unit_id')
      .execute(),
    roleIds.length
      ? db
          .selectFrom('role_permissions')
          .select(['role_id', 'page', 'method'])
          .where('role_id', 'in', roleIds)
          .orderBy('page')
          .orderBy('method')
          .execute()
      : Promise.resolve([]),
    db
      .selectFrom('email_changes')
      .select(['user_id', 'new_email'])
      .where('user_id', 'in', userIds)
      .where('used_at', 'is', null)
      .orderBy('id')
      .execute(),
  ]);
  const pendingOf = new Map(pending.map((p) => [p.user_id, p.new_email]));
  const unitsOf = new Map<number, UserUnit[]>();
  for (const u of units) {
    const list = unitsOf.get(u.user_id) ?? [];
    list.push({ unit_type: u.unit_type as UserUnit['unit_type'], unit_id: u.unit_id });
    unitsOf.set(u.user_id, list);
  }
  const permissionsOf = new Map<number, Permission[]>();
  for (const p of pairs) {
    const list = permissionsOf.get(p.role_id) ?? [];
    list.push({ page: p.page as Page, method: p.method as Method });
    permissionsOf.set(p.role_id, list);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    surname: r.surname,
    username: r.username,
    telephone: r.telephone,
    email: r.email,
    language_id: r.language_id,
    is_active: r.is_active === 1,
    roleId: r.role_id,
    role_name: r.role_name,
    company_id: r.company_id,
    user_units: unitsOf.get(r.id) ?? [],
    permissions: r.is_admin === 1 ? [...ALL_PERMISSIONS] : (permissionsOf.get(r.role_id) ?? []),
    email_confirmed: r.email_confirmed_at !== null,
    pending_email: pendingOf.get(r.id) ?? null,
  }));
}

/** The users visible to the caller, by id. */
export async function listUsers(db: Db, visibility: UserVisibility): Promise<User[]> {
  return toUsers(db, await selectUsers(db, visibility).orderBy('users.id').execute());
}

/** One user, when it exists and is visible. */
export async function findUser(db: Db, visibility: UserVisibility, id: number): Promise<User | undefined> {
  const rows = await selectUsers(db, visibility).where('users.id', '=', id).execute();
  return (await toUsers(db, rows))[0];
}

/** A role with what it grants, for the checks on assigning it. */
export async function findRole(
  db: Db,
  id: number,
): Promise<{ id: number; isAdmin: boolean; permissions: Permission[] } | undefined> {
  const role = await db
    .selectFrom('roles')
    .select(['id', 'is_admin'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!role) return undefined;
  if (role.is_admin === 1) return { id: role.id, isAdmin: true, permissions: [...ALL_PERMISSIONS] };
  const pairs = await db
    .selectFrom('role_permissions')
    .select(['page', 'method'])
    .where('role_id', '=', id)
    .execute();
  return {
    id: role.id,
    isAdmin: false,
    permissions: pairs.map((p) => ({ page: p.page as Page, method: p.method as Method })),
  };
}

export async function companyExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst());
}

/** Which of the given fields and plants exist, with their company and (for plants) field. */
export async function unitOwners(db: Db, fieldIds: number[], plantIds: number[]) {
  const [fields, plants] = await Promise.all([
    fieldIds.length
      ? db.selectFrom('fields').select(['id', 'company_id']).where('id', 'in', fieldIds).execute()
      : Promise.resolve([]),
    plantIds.length
      ? db
          .selectFrom('plants')
          .innerJoin('fields', 'fields.id', 'plants.field_id')
          .select(['plants.id', 'plants.field_id', 'fields.company_id'])
          .where('plants.id', 'in', plantIds)
          .execute()
      : Promise.resolve([]),
  ]);
  return {
    fields: new Map(fields.map((f) => [f.id, { companyId: f.company_id }])),
    plants: new Map(plants.map((p) => [p.id, { companyId: p.company_id, fieldId: p.field_id }])),
  };
}

/** Whether another user (not `exceptId`) has this email or username, compared without case. */
export async function taken(
  db: Db,
  values: { email: string; username: string },
  exceptId: number,
): Promise<{ email: boolean; username: boolean }> {
  const rows = await db
    .selectFrom('users')
    .select(['email', 'username'])
    .where('id', '<>', exceptId)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['email']), '=', values.email.toLowerCase()),
        eb(eb.fn('lower', ['username']), '=', values.username.toLowerCase()),
      ]),
    )
    .execute();
  return {
    email: rows.some((r) => r.email.toLowerCase() === values.email.toLowerCase()),
    username: rows.some((r) => r.username.toLowerCase() === values.username.toLowerCase()),
  };
}

/** Whether another user (not `exceptId`) has this email, compared without case. */
export async function emailTaken(db: Db, email: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '<>', exceptId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(
  db: Db,
  values: UserValues & { password_hash: string },
  now: number,
): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values({ ...values, tokens_valid_after: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateUser(
  db: Db,
  id: number,
  values: Partial<UserValues>,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Replaces the user's units. */
export async function setUnits(db: Db, userId: number, units: readonly UserUnit[]): Promise<void> {
  await db.deleteFrom('user_units').where('user_id', '=', userId).execute();
  const unique = [...new Map(units.map((u) => [`${u.unit_type}:${u.unit_id}`, u])).values()];
  if (unique.length) {
    await db
      .insertInto('user_units')
      .values(unique.map((u) => ({ user_id: userId, unit_type: u.unit_type, unit_id: u.unit_id })))
      .execute();
  }
}

/** Sets a new password hash and ends sessions issued before `validAfterS`; closes open reset links. */
export async function setPassword(db: Db, id: number, hash: string, validAfterS: number, now: number) {
  await db
    .updateTable('users')
    .set((eb) => ({
      password_hash: hash,
      tokens_valid_after: validAfterS,
      // Ends tokens issued earlier in the same second too (tokens_valid_after is whole seconds).
      token_version: eb('token_version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', id)
    .where('used_at', 'is', null)
    .execute();
}

/** The stored password hash, to check the own current password against. */
export async function passwordHashOf(db: Db, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
  return row?.password_hash;
}

/** Stores a pending new email of the user, replacing any earlier pending one (only the last link works). */
export async function insertEmailChange(
  db: Db,
  values: { userId: number; newEmail: string; tokenHash: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await closeEmailChanges(db, values.userId, values.createdAt);
  await db
    .insertInto('email_changes')
    .values({
      user_id: values.userId,
      new_email: values.newEmail,
      token_hash: values.tokenHash,
      created_at: values.createdAt,
      expires_at: values.expiresAt,
      used_at: null,
    })
    .execute();
}

/** An unused, unexpired email change of an active user, by the hash of its link's token. */
export async function findOpenEmailChange(
  db: Db,
  tokenHash: string,
  now: number,
): Promise<{ id: number; userId: number; newEmail: string } | undefined> {
  const row = await db
    .selectFrom('email_changes')
    .innerJoin('users', 'users.id', 'email_changes.user_id')
    .select(['email_changes.id', 'email_changes.user_id', 'email_changes.new_email'])
    .where('email_changes.token_hash', '=', tokenHash)
    .where('email_changes.used_at', 'is', null)
    .where('email_changes.expires_at', '>', now)
    .where('users.is_active', '=', 1)
    .executeTakeFirst();
  return row && { id: row.id, userId: row.user_id, newEmail: row.new_email };
}

/** Marks one email change used; false when a concurrent use claimed it first. */
export async function claimEmailChange(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('email_changes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Closes every open email change of the user (a newer request, or someone else set the address). */
export async function closeEmailChanges(db: Db, userId: number, now: number): Promise<void> {
  await db
    .updateTable('email_changes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Sets a confirmed email: the user opened the link mailed to it. */
export async function setConfirmedEmail(db: Db, id: number, email: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email, email_confirmed_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function findDashboard(db: Db, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_dashboards')
    .select('data')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.data;
}

/** Inserts or replaces the user's layout (ON CONFLICT works in both dialects). */
export async function saveDashboard(db: Db, userId: number, data: string, now: number): Promise<void> {
  await db
    .insertInto('user_dashboards')
    .values({ user_id: userId, data, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: now }))
    .execute();
}
