import { z } from 'zod';

/**
 * Validation message keys. Every message is an i18n key under `validation.` so the server's 400 answers
 * and the web forms say the same thing in the user's language.
 */
export const V = {
  required: 'validation.required',
  invalidEmail: 'validation.invalidEmail',
  passwordsDoNotMatch: 'validation.passwordsDoNotMatch',
  invalidPhone: 'validation.invalidPhone',
  invalidIp: 'validation.invalidIp',
  portRange: 'validation.portRange',
  tooShort: 'validation.tooShort',
  tooLong: 'validation.tooLong',
  weakPassword: 'validation.weakPassword',
  invalidValue: 'validation.invalidValue',
  invalidNumber: 'validation.invalidNumber',
  unknownField: 'validation.unknownField',
  latitudeRange: 'validation.latitudeRange',
  longitudeRange: 'validation.longitudeRange',
  invalidTimeZone: 'validation.invalidTimeZone',
  slaveIdRange: 'validation.slaveIdRange',
  /** A Modbus TCP unit id outside 0…247 (0 is the gateway itself, e.g. a SmartLogger). */
  unitIdRange: 'validation.unitIdRange',
  baudRate: 'validation.baudRate',
  invalidDate: 'validation.invalidDate',
  /** A date, instant or year outside 2000-01-01 … 2100-12-31 (dates.ts). */
  dateRange: 'validation.dateRange',
  invalidUrl: 'validation.invalidUrl',
  invalidKey: 'validation.invalidKey',
  outOfRange: 'validation.outOfRange',
  duplicate: 'validation.duplicate',
  tooMany: 'validation.tooMany',
  rangeOrder: 'validation.rangeOrder',
  oneOfRequired: 'validation.oneOfRequired',
  tooDeep: 'validation.tooDeep',
  /** An uploaded file larger than its cap (the logo). */
  fileTooLarge: 'validation.fileTooLarge',
  /** An uploaded image that is not of an accepted type by its bytes (the logo: PNG, JPEG, WebP). */
  imageType: 'validation.imageType',
  /** A device or camera address outside the networks the administrator allows (docs/security.md). */
  networkNotAllowed: 'validation.networkNotAllowed',
  /** Not a network in CIDR notation (address/prefix length). */
  invalidCidr: 'validation.invalidCidr',
} as const;
export type ValidationMessageKey = (typeof V)[keyof typeof V];

/** Email pattern (spec §5): a local part, an @ and a dotted domain, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** International phone: optional +, digits with spaces, dashes or parentheses, 7 to 15 digits. */
export const PHONE_PATTERN = /^\+?(?:[\s\-()]*\d){7,15}[\s\-()]*$/;
/** Dotted-quad IPv4 with each octet 0-255 and no leading zeros. */
export const IPV4_PATTERN =
  /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** IPv6 in full, compressed (::) and IPv4-mapped forms (RFC 4291 §2.2). */
export const IPV6_PATTERN =
  /^(?:(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|(?:[0-9a-f]{1,4}:){1,7}:|(?:[0-9a-f]{1,4}:){1,6}:[0-9a-f]{1,4}|(?:[0-9a-f]{1,4}:){1,5}(?::[0-9a-f]{1,4}){1,2}|(?:[0-9a-f]{1,4}:){1,4}(?::[0-9a-f]{1,4}){1,3}|(?:[0-9a-f]{1,4}:){1,3}(?::[0-9a-f]{1,4}){1,4}|(?:[0-9a-f]{1,4}:){1,2}(?::[0-9a-f]{1,4}){1,5}|[0-9a-f]{1,4}:(?::[0-9a-f]{1,4}){1,6}|:(?:(?::[0-9a-f]{1,4}){1,7}|:)|::(?:ffff(?::0{1,4})?:)?(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)|(?:[0-9a-f]{1,4}:){1,4}:(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d))$/i;
/** Text without NUL characters, which PostgreSQL cannot store. */
export const hasNoNul = (v: string) => !v.includes('\0');
export const PORT_MIN = 0;
export const PORT_MAX = 65535;

export const isEmail = (v: string) => EMAIL_PATTERN.test(v);
export const isPhone = (v: string) => PHONE_PATTERN.test(v);
export const isIpv4 = (v: string) => IPV4_PATTERN.test(v);
export const isIpv6 = (v: string) => IPV6_PATTERN.test(v);
export const isIp = (v: string) => isIpv4(v) || isIpv6(v);
export const isPort = (v: number) => Number.isInteger(v) && v >= PORT_MIN && v <= PORT_MAX;

/** A required, trimmed text; empty answers `validation.required`. */
export const requiredText = (max = 200) =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(max, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue });

export const optionalText = (max = 500) =>
  z
    .string({ error: V.invalidValue })
    .trim()
    .max(max, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue })
    .nullish();

export const emailField = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(254, { error: V.tooLong })
    .regex(EMAIL_PATTERN, { error: V.invalidEmail })
    .refine(hasNoNul, { error: V.invalidEmail });

export const phoneField = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .regex(PHONE_PATTERN, { error: V.invalidPhone });

export const ipField = () =>
  z.string({ error: V.required }).trim().min(1, { error: V.required }).refine(isIp, { error: V.invalidIp });

export const portField = () =>
  z.coerce
    .number({ error: V.portRange })
    .int({ error: V.portRange })
    .min(PORT_MIN, { error: V.portRange })
    .max(PORT_MAX, { error: V.portRange });

/** Password policy: 8-128 characters with at least a letter and a digit. */
export const passwordField = () =>
  z
    .string({ error: V.required })
    .min(1, { error: V.required })
    .min(8, { error: V.weakPassword })
    .max(128, { error: V.tooLong })
    .refine((v) => /[A-Za-z]/.test(v) && /\d/.test(v), { error: V.weakPassword });

/** Largest id a 32-bit integer column holds; larger ids cannot exist and must not reach the database. */
export const ID_MAX = 2_147_483_647;

/** Canonical decimal: no sign, no leading zero, no space, no `0x`, no exponent, no fraction. */
const CANONICAL_DECIMAL = /^(0|[1-9][0-9]{0,15})$/;

/**
 * An integer from a path or query string, written only as a canonical decimal (`plants/%201`,
 * `devices/0x10` and `faults/1e0` are refused, not read as 1, 16 and 1). A number is taken as is, for
 * callers that build queries from typed values.
 */
export const canonicalInt = (min: number, max: number, error: string = V.invalidNumber) =>
  z
    .union([z.number(), z.string().regex(CANONICAL_DECIMAL)], { error })
    .transform(Number)
    .pipe(z.number().int({ error }).min(min, { error }).max(max, { error }));

/** A positive integer id in a path (`/users/{id}`), 0 allowed where it means "create". */
export const idParam = z.object({ id: canonicalInt(0, ID_MAX) });
export type IdParam = z.infer<typeof idParam>;

/** Boolean flags arrive as true/false or 0/1 from older clients. */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1)], { error: V.invalidValue })
    .transform((v) => v === true || v === 1);

/** Deepest nesting of arrays and objects accepted in free-form JSON (a dashboard layout needs a handful). */
export const JSON_MAX_DEPTH = 32;

/**
 * Whether a parsed JSON value nests arrays and objects at most `maxDepth` deep. Walks with an explicit
 * stack and stops at the first level too deep, so that 100,000 levels cost nothing and cannot overflow
 * the call stack as `JSON.stringify` would.
 */
export function jsonDepthAtMost(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > maxDepth) return false;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * Free-form JSON (a dashboard layout): any value, at most `maxDepth` deep (validation.tooDeep) and at most
 * `maxBytes` as UTF-8 JSON text (validation.tooLong). The depth is checked first, so measuring the size
 * with JSON.stringify is safe.
 */
export const boundedJson = (maxBytes: number, maxDepth: number = JSON_MAX_DEPTH) =>
  z
    .unknown()
    .refine((v) => jsonDepthAtMost(v, maxDepth), { error: V.tooDeep, abort: true })
    .refine((v) => v === undefined || new TextEncoder().encode(JSON.stringify(v)).length <= maxBytes, {
      error: V.tooLong,
    });
