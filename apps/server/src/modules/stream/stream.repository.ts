import type { Db } from '../../db/database';
import type { Method, Page, UserUnit } from '@solar/shared';
import { reachable, type Scope } from '../../lib/scope';
import { sessionKeyOf, type SessionState } from './stream.hub';

/** Of `signalIds`, the ones the scope reaches (any other id is unknown or hidden from the caller). */
export async function signalsInScope(db: Db, scope: Scope, signalIds: readonly number[]): Promise<number[]> {
  if (!signalIds.length) return [];
  let q = db
    .selectFrom('signals')
    .select('signals.id')
    .where('signals.id', 'in', [...signalIds]);
  if (!scope.all) q = q.where('signals.device_id', 'in', reachable.devices(db, scope));
  return (await q.execute()).map((r) => r.id);
}

/** True when the scope reaches the plant. */
export async function plantReachable(db: Db, scope: Scope, plantId: number): Promise<boolean> {
  let q = db.selectFrom('plants').select('plants.id').where('plants.id', '=', plantId);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return !!(await q.executeTakeFirst());
}

/**
 * Each user's session as it is now: active flag, token cut-off, and the key of what decides their reach
 * (role, company, units, the role's permissions, token version). A missing user is absent from the map.
 */
export async function sessionStates(db: Db, userIds: readonly number[]): Promise<Map<number, SessionState>> {
  if (!userIds.length) return new Map();
  const users = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.is_active',
      'users.tokens_valid_after',
      'users.token_version',
      'users.role_id',
      'users.company_id',
      'roles.is_admin',
    ])
    .where('users.id', 'in', [...userIds])
    .execute();
  if (!users.length) return new Map();
  const roleIds = [...new Set(users.map((u) => u.role_id))];
  const [permissions, units] = await Promise.all([
    db
      .selectFrom('role_permissions')
      .select(['role_id', 'page', 'method'])
      .where('role_id', 'in', roleIds)
      .execute(),
    db
      .selectFrom('user_units')
      .select(['user_id', 'unit_type', 'unit_id'])
      .where('user_id', 'in', [...userIds])
      .execute(),
  ]);
  return new Map(
    users.map((u) => {
      const isAdmin = Number(u.is_admin) === 1;
      const key = sessionKeyOf({
        roleId: u.role_id,
        isAdmin,
        companyId: u.company_id,
        tokenVersion: Number(u.token_version),
        permissions: permissions
          .filter((p) => p.role_id === u.role_id)
          .map((p) => ({ page: p.page as Page, method: p.method as Method })),
        units: units
          .filter((x) => x.user_id === u.id)
          .map((x) => ({ unit_type: x.unit_type as UserUnit['unit_type'], unit_id: x.unit_id })),
      });
      const state: SessionState = {
        active: Number(u.is_active) === 1,
        validAfter: Number(u.tokens_valid_after),
        sessionKey: key,
      };
      return [u.id, state];
    }),
  );
}
