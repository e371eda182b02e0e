import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

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

/** Active flag and token cut-off of the users, to end streams of sessions that ended. */
export async function sessionStates(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, { active: boolean; validAfter: number }>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'is_active', 'tokens_valid_after'])
    .where('id', 'in', [...userIds])
    .execute();
  return new Map(
    rows.map((r) => [r.id, { active: Number(r.is_active) === 1, validAfter: Number(r.tokens_valid_after) }]),
  );
}
