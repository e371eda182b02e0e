import { ALL_PERMISSIONS, type Permission } from '@solar/shared';
import type { AppContext } from '../context';
import { findRolePermissions, findTokenVersion } from '../plugins/session.repository';

/** The (page, method) pairs a role grants now: every pair for the administrator role. */
export async function currentPermissions(
  db: AppContext['db'],
  role: { id: number; isAdmin: boolean },
): Promise<Permission[]> {
  return role.isAdmin ? [...ALL_PERMISSIONS] : findRolePermissions(db, role.id);
}

/**
 * Signs a session token carrying the user's current permissions and token version (8 h, or 30 days with
 * remember), and the sign-in (`sessionId`, a user_sessions row) it belongs to when there is one.
 */
export async function issueSessionToken(
  ctx: Pick<AppContext, 'db' | 'tokens'>,
  user: { id: number; name: string; surname: string; roleId: number; isAdmin: boolean },
  remember: boolean,
  sessionId?: string,
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
      sessionId,
    },
    remember,
  );
}
