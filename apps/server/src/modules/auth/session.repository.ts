import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database';
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

/** The users row joined with its role, as every session read starts (the columns SessionRow needs). */
const sessionUserSelect = (db: Db) =>
  db
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
    ]);

type SessionUserColumns = NonNullable<
  Awaited<ReturnType<ReturnType<typeof sessionUserSelect>['executeTakeFirst']>>
>;

const toSessionRow = (row: SessionUserColumns): SessionRow => ({
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
});

/** The current state of a signed-in user: tokens are re-checked against it on every request. */
export async function findSessionUser(db: Db, userId: number): Promise<SessionRow | undefined> {
  const row = await sessionUserSelect(db).where('users.id', '=', userId).executeTakeFirst();
  return row && toSessionRow(row);
}

/** The sign-in a token names, as far as a request's check needs it (user_sessions). */
export interface SessionState {
  tokenGeneration: number;
  previousValidUntil: number | null;
  absoluteExpiresAt: number;
}

/** The session user with what a request's checks need: its role's permissions and its units. */
export interface SessionCallerRow extends SessionRow {
  permissions: Permission[];
  units: UserUnit[];
  /** False when the user's company is deactivated (its users are locked out); true without a company. */
  companyActive: boolean;
  /** The sign-in `sessionId` names, when it exists and belongs to the user. */
  session: SessionState | undefined;
}

/**
 * The session user, its role's permissions and its units in ONE statement: one database round trip per
 * authenticated request, read from one snapshot, so the permissions always belong to the role
 * the row names. Nothing is cached: every change (password, deactivation, role, company, units, revoked
 * sessions) is seen by the very next request. The two lists come back as JSON arrays of [a, b] pairs,
 * aggregated by a correlated subquery each (no join, which would multiply permissions by units).
 */
export async function findSessionCaller(
  db: Db,
  dialect: Dialect,
  userId: number,
  sessionId = '',
): Promise<SessionCallerRow | undefined> {
  // Permissions in (page, method) order under the database's collation, as findRolePermissions returns them.
  const permissions =
    dialect === 'postgres'
      ? sql<unknown>`(select coalesce(json_agg(json_build_array(rp.page, rp.method) order by rp.page, rp.method), '[]')
          from role_permissions rp where rp.role_id = users.role_id)`
      : sql<unknown>`(select json_group_array(json_array(rp.page, rp.method))
          from (select page, method from role_permissions where role_id = users.role_id order by page, method) rp)`;
  const units =
    dialect === 'postgres'
      ? sql<unknown>`(select coalesce(json_agg(json_build_array(uu.unit_type, uu.unit_id)), '[]')
          from user_units uu where uu.user_id = users.id)`
      : sql<unknown>`(select json_group_array(json_array(uu.unit_type, uu.unit_id))
          from user_units uu where uu.user_id = users.id)`;
  // The sign-in and the company come in the same statement: still one round trip per request.
  const row = await sessionUserSelect(db)
    .leftJoin('user_sessions', (join) =>
      join.onRef('user_sessions.user_id', '=', 'users.id').on('user_sessions.id', '=', sessionId),
    )
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select([
      permissions.as('permissions'),
      units.as('units'),
      'user_sessions.id as session_id',
      'user_sessions.token_generation',
      'user_sessions.previous_valid_until',
      'user_sessions.absolute_expires_at',
      'companies.is_active as company_is_active',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toSessionRow(row),
    companyActive: row.company_is_active === null || row.company_is_active === 1,
    session:
      row.session_id === null
        ? undefined
        : {
            tokenGeneration: Number(row.token_generation),
            previousValidUntil: row.previous_valid_until === null ? null : Number(row.previous_valid_until),
            absoluteExpiresAt: Number(row.absolute_expires_at),
          },
    permissions: jsonPairs(row.permissions).map(([page, method]) => ({
      page: page as Page,
      method: method as Method,
    })),
    units: jsonPairs(row.units).map(([unitType, unitId]) => ({
      unit_type: unitType as UserUnit['unit_type'],
      unit_id: Number(unitId),
    })),
  };
}

/** A JSON array of pairs: text from SQLite's json functions, already parsed by pg for PostgreSQL's json. */
function jsonPairs(value: unknown): [unknown, unknown][] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(parsed)) throw new Error('session caller: expected a JSON array');
  return parsed as [unknown, unknown][];
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

/** A user_sessions row as written at sign-in. */
export interface NewUserSession {
  id: string;
  user_id: number;
  token_version: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  absolute_expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

/**
 * Moves the sign-in to the next token generation, if `fromGeneration` is still its current one: the
 * replaced token stays valid until `previousValidUntil`, the session until `expiresAt` (the caller caps it
 * at the absolute end). Answers false when another refresh moved it first.
 */
export async function advanceSessionGeneration(
  db: Db,
  id: string,
  fromGeneration: number,
  values: { at: number; expiresAt: number; previousValidUntil: number },
): Promise<boolean> {
  const result = await db
    .updateTable('user_sessions')
    .set({
      token_generation: fromGeneration + 1,
      previous_valid_until: values.previousValidUntil,
      last_seen_at: values.at,
      expires_at: values.expiresAt,
    })
    .where('id', '=', id)
    .where('token_generation', '=', fromGeneration)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The sign-in's current generation and ends, for a refresh to sign against. */
export async function findUserSession(
  db: Db,
  id: string,
): Promise<{ tokenGeneration: number; expiresAt: number; absoluteExpiresAt: number } | undefined> {
  const row = await db
    .selectFrom('user_sessions')
    .select(['token_generation', 'expires_at', 'absolute_expires_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      tokenGeneration: Number(row.token_generation),
      expiresAt: Number(row.expires_at),
      absoluteExpiresAt: Number(row.absolute_expires_at),
    }
  );
}

/** Ends one sign-in (sign-out): its tokens name a row that no longer exists and are refused. */
export async function deleteUserSession(db: Db, id: string, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('user_sessions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Raises the token version of every user of a company (its deactivation ends all their sessions). */
export async function raiseCompanyTokenVersions(db: Db, companyId: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('company_id', '=', companyId).execute();
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('company_id', '=', companyId)
    .execute();
  return rows.map((r) => r.id);
}

export async function insertUserSession(db: Db, row: NewUserSession): Promise<void> {
  await db.insertInto('user_sessions').values(row).execute();
}

/** Marks the session used at `at`; its expiry moves to `expiresAt` when given (a refreshed token). */
export async function touchUserSession(db: Db, id: string, at: number, expiresAt?: number): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set(expiresAt === undefined ? { last_seen_at: at } : { last_seen_at: at, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

/** Deletes the sessions that expired before `now` (they can never come back). */
export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
}

export interface ActiveSessionRow {
  id: string;
  user_id: number;
  name: string;
  surname: string;
  email: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

/**
 * The sessions still alive: not expired, the user active, and signed in under the user's current token
 * version (a password change or a revocation raised it). `userId` narrows to one user.
 */
export async function listActiveSessions(db: Db, now: number, userId?: number): Promise<ActiveSessionRow[]> {
  let query = db
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select([
      'user_sessions.id',
      'user_sessions.user_id',
      'users.name',
      'users.surname',
      'users.email',
      'user_sessions.created_at',
      'user_sessions.last_seen_at',
      'user_sessions.expires_at',
      'user_sessions.ip',
      'user_sessions.user_agent',
    ])
    .whereRef('user_sessions.token_version', '=', 'users.token_version')
    .where('user_sessions.expires_at', '>', now)
    .where('users.is_active', '=', 1);
  if (userId !== undefined) query = query.where('user_sessions.user_id', '=', userId);
  const rows = await query
    .orderBy('user_sessions.last_seen_at', 'desc')
    .orderBy('user_sessions.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    created_at: Number(r.created_at),
    last_seen_at: Number(r.last_seen_at),
    expires_at: Number(r.expires_at),
  }));
}
