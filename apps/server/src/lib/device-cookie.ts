import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * OWASP device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): a browser that signed in
 * to an account before holds a signed cookie for that account, and its attempts are limited on their own
 * instead of under the account's lockout, so a stranger failing on purpose cannot lock the owner out.
 */
export const DEVICE_COOKIE_PREFIX = 'device-';
/** How long a browser stays known to an account without signing in again: 180 days. */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;
/** Only the sign-in route ever needs the cookie. */
export const DEVICE_COOKIE_PATH = '/api/users/login';

/** The cookie name for one account: several people may share a browser, each keeps their own. */
export const deviceCookieName = (userId: number) => `${DEVICE_COOKIE_PREFIX}${userId}`;

export class DeviceCookies {
  private readonly key: Buffer;
  constructor(secret: string) {
    // A key of its own derived from the JWT secret: a device cookie can never pass for a token.
    this.key = createHmac('sha256', secret).update('device-cookie/v1').digest();
  }

  private mac(userId: number, nonce: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${nonce}`).digest('base64url');
  }

  /** A fresh cookie value for the account: `nonce.mac`. */
  issue(userId: number): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.mac(userId, nonce)}`;
  }

  /** The nonce of a value this server issued for this account, or undefined (absent, forged, another's). */
  verify(userId: number, value: string | undefined): string | undefined {
    const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
    if (!match) return undefined;
    const [, nonce, mac] = match as unknown as [string, string, string];
    const expected = Buffer.from(this.mac(userId, nonce));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
  }
}
