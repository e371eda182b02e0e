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

/** The user id (`sub` claim) of a token as a number; null when absent or not numeric. */
export function userIdFromToken(token: string): number | null {
  const sub = decodeJwtPayload(token)?.sub;
  const id = typeof sub === 'string' || typeof sub === 'number' ? Number(sub) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}
