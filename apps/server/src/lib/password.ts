import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard, RFC 7914). The stored form carries its parameters,
 * `scrypt$<logN>$<r>$<p>$<salt>$<hash>`, so the cost can be raised later and old hashes still verify.
 */
const KEY_LENGTH = 32;
const R = 8;
const P = 1;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, logN, R, P);
  return ['scrypt', logN, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when a stored hash was made with a lower cost than configured (rehash on next login). */
export function needsRehash(stored: string, logN: number): boolean {
  return Number(stored.split('$')[1]) < logN;
}
