import type { Db } from '../../db/database';

export interface LoginUser {
  id: number;
  name: string;
  surname: string;
  email: string;
  passwordHash: string;
  isActive: boolean;
  roleId: number;
  isAdmin: boolean;
  languageId: number;
  /** False when the user's company is deactivated; true for users without a company (the admin). */
  companyActive: boolean;
}

/** The account signing in, found by email without regard to case. */
export async function findUserByEmail(db: Db, email: string): Promise<LoginUser | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'companies.is_active as company_is_active',
      'users.id',
      'users.name',
      'users.surname',
      'users.email',
      'users.password_hash',
      'users.is_active',
      'users.role_id',
      'roles.is_admin',
      'users.language_id',
    ])
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      surname: row.surname,
      email: row.email,
      passwordHash: row.password_hash,
      isActive: row.is_active === 1,
      roleId: row.role_id,
      isAdmin: row.is_admin === 1,
      languageId: row.language_id,
      companyActive: row.company_is_active === null || row.company_is_active === 1,
    }
  );
}

/** Replaces the stored hash only (a rehash at a higher cost keeps existing sessions). */
export async function updatePasswordHash(db: Db, userId: number, hash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
}

/** Sets a new password and ends every session issued before `validAfterS` (epoch seconds). */
export async function setPassword(
  db: Db,
  userId: number,
  hash: string,
  validAfterS: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      password_hash: hash,
      tokens_valid_after: validAfterS,
      // Ends tokens issued earlier in the same second too (tokens_valid_after is whole seconds).
      token_version: eb('token_version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', userId)
    .execute();
}

/** Marks the user's email confirmed, unless it already is. */
export async function confirmEmail(db: Db, userId: number, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_confirmed_at: now })
    .where('id', '=', userId)
    .where('email_confirmed_at', 'is', null)
    .execute();
}

export async function insertReset(
  db: Db,
  values: { userId: number; tokenHash: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      user_id: values.userId,
      token_hash: values.tokenHash,
      created_at: values.createdAt,
      expires_at: values.expiresAt,
      used_at: null,
    })
    .execute();
}

/** A reset that is unused, unexpired and belongs to an active user. */
export async function findOpenReset(
  db: Db,
  tokenHash: string,
  now: number,
): Promise<{ id: number; userId: number } | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select(['password_resets.id', 'password_resets.user_id'])
    .where('password_resets.token_hash', '=', tokenHash)
    .where('password_resets.used_at', 'is', null)
    .where('password_resets.expires_at', '>', now)
    .where('users.is_active', '=', 1)
    .executeTakeFirst();
  return row && { id: row.id, userId: row.user_id };
}

/** Marks one reset used; false when it was used meanwhile (a concurrent second use). */
export async function claimReset(db: Db, resetId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', resetId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Closes every other open reset of the user, so older links die with the password change. */
export async function closeOpenResets(db: Db, userId: number, now: number): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function emailOfUser(db: Db, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email;
}
