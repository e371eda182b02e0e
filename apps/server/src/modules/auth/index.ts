/**
 * The auth module's public face: code outside modules/auth/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { issueSessionToken } from './session-token';
export {
  findRolePermissions,
  findSessionCaller,
  findSessionUser,
  findUserUnits,
  raiseCompanyTokenVersions,
  raiseTokenVersion,
  type SessionState,
} from './session.repository';
export { SESSION_SEEN_EVERY_MS, UserSessions } from './user-sessions';
