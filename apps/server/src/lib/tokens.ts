import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { tokenClaims, type Permission, type TokenClaims } from '@solar/shared';

const SESSION_S = 8 * 3600;
const REMEMBER_S = 30 * 24 * 3600;

export interface SessionToken extends TokenClaims {
  iat: number;
  exp: number;
  remember: boolean;
  /** The user's token version at issue (claim `ver`; 0 when absent): a raised version ends the token. */
  version: number;
  /** The sign-in this token belongs to (claim `sid`, a user_sessions row); absent in older tokens. */
  sessionId?: string;
  /** Which refresh of the sign-in issued it (claim `gen`, 0 at sign-in): a refresh retires the one before. */
  generation: number;
}

/** Signs and checks the session JWT (HS256). */
export class TokenService {
  /**
   * Imported once: jose imports a raw (Uint8Array) secret into a CryptoKey on every sign and verify, which
   * was a fifth of authenticating a request.
   */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /** `lifetimesS`: the lifetimes of new tokens, read at each signing (the admin panel's settings). */
  constructor(
    secret: string,
    private readonly lifetimesS: () => { session: number; remember: number } = () => TOKEN_LIFETIME_S,
  ) {
    this.key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async sign(
    user: {
      id: number;
      name: string;
      role_id: number;
      permissions: Permission[];
      tokenVersion?: number;
      sessionId?: string;
      generation?: number;
    },
    remember: boolean,
    /**
     * A shorter lifetime than the settings give (ms): what is left of the sign-in it belongs to. A duration,
     * not an instant, since `exp` is checked against the wall clock and sign-ins against `ctx.now`.
     */
    maxLifetimeMs?: number,
  ): Promise<string> {
    const claims = { name: user.name, role_id: user.role_id, permissions: user.permissions, remember };
    const sid = user.sessionId === undefined ? {} : { sid: user.sessionId, gen: user.generation ?? 0 };
    const nowS = Math.floor(Date.now() / 1000);
    const lifetimeS = remember ? this.lifetimesS().remember : this.lifetimesS().session;
    const cappedS =
      maxLifetimeMs === undefined
        ? lifetimeS
        : Math.min(lifetimeS, Math.max(0, Math.floor(maxLifetimeMs / 1000)));
    const expS = nowS + cappedS;
    return new SignJWT({ ...claims, ver: user.tokenVersion ?? 0, ...sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuedAt(nowS)
      .setExpirationTime(expS)
      .sign(await this.key);
  }

  /** The claims of a valid token, or null for a bad signature, an expired token or a malformed one. */
  async verify(token: string): Promise<SessionToken | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'] });
      const claims = tokenClaims.safeParse(payload);
      if (!claims.success || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return null;
      const version = payload.ver === undefined ? 0 : payload.ver;
      if (typeof version !== 'number' || !Number.isSafeInteger(version)) return null;
      const generation = payload.gen === undefined ? 0 : payload.gen;
      if (typeof generation !== 'number' || !Number.isSafeInteger(generation)) return null;
      return {
        ...claims.data,
        iat: payload.iat,
        exp: payload.exp,
        remember: payload.remember === true,
        version,
        generation,
        ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}

export const TOKEN_LIFETIME_S = { session: SESSION_S, remember: REMEMBER_S };
