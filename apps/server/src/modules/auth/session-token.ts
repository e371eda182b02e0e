import { ALL_PERMISSIONS, type Permission } from '@solar/shared';
import type { AppContext } from '../../context';
import { findRolePermissions, findTokenVersion } from './session.repository';

/** The (page, method) pairs a role grants now: every pair for the administrator role. */
export async function currentPermissions(
  db: AppContext['db'],
  role: { id: number; isAdmin: boolean },
): Promise<Permission[]> {
  return role.isAdmin ? [...ALL_PERMISSIONS] : findRolePermissions(db, role.id);
}

/**
 * Signs a session token carrying the user's current permissions and token version (8 h, or 30 days with
 * remember, never past `session.expiresAt`), the sign-in (a user_sessions row) it belongs to and its
 * generation within that sign-in.
 */
export async function issueSessionToken(
  ctx: Pick<AppContext, 'db' | 'tokens' | 'now'>,
  user: { id: number; name: string; surname: string; roleId: number; isAdmin: boolean },
  remember: boolean,
  session: { id: string; generation: number; expiresAt: number },
): Promise<string> {
  const [permissions, tokenVersion] = await Promise.all([
    currentPermissions(ctx.db, { id: user.roleId, isAdmin: user.isAdmin }),
    findTokenVersion(ctx.db, user.id),
  ]);
  return ctx.tokens.sign(
    {
      id: user.id,
      name: `${user.name} ${user.surname}`,
      role_id: user.roleId,
      permissions,
      tokenVersion,
      sessionId: session.id,
      generation: session.generation,
    },
    remember,
    // Whole seconds up: the milliseconds spent since the end was computed must not cut a second off.
    Math.ceil((session.expiresAt - ctx.now()) / 1000) * 1000,
  );
}
