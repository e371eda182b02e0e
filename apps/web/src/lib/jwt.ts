import { tokenClaims, type TokenClaims } from '@solar/shared';

/** Decodes the payload of a JWT without verifying it (the server verifies); null when malformed. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The claims a session token must carry (the server's schema) plus its user id; null when it lacks any. */
export type SessionClaims = TokenClaims & { userId: number };

/**
 * The claims of a session token, checked with the schema the server signs and verifies them with; null
 * for a malformed token or one without them. Such a token is no session: the console treats it as expired
 * rather than sending it (the signature and expiry stay the server's to check).
 */
export function sessionClaims(token: string): SessionClaims | null {
  const claims = tokenClaims.safeParse(decodeJwtPayload(token));
  return claims.success ? { ...claims.data, userId: Number(claims.data.sub) } : null;
}

/** The user id (`sub` claim) of a session token; null when the token is malformed or lacks its claims. */
export function userIdFromToken(token: string): number | null {
  return sessionClaims(token)?.userId ?? null;
}
