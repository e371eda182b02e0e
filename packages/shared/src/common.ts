import { z } from 'zod';
import { ID_MAX, V, canonicalInt, hasNoNul } from './validation';

/** Largest page a list answers (docs/spec-differences.md, resource calls). */
export const PAGE_SIZE_MAX = 200;
export const PAGE_SIZE_DEFAULT = 20;

/** A reference to another record in a body (`company_id`, `plant_id`…): a positive 32-bit integer. */
export const refId = () =>
  z
    .number({ error: (issue) => (issue.input == null ? V.required : V.invalidNumber) })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.required })
    .max(ID_MAX, { error: V.invalidNumber });

/** An id filter in a query string; absent means "any". */
export const refFilter = () => canonicalInt(1, ID_MAX).optional();

/** A flag in a query string: true/false or 1/0. */
export const queryFlag = () =>
  z
    .enum(['true', 'false', '1', '0'], { error: V.invalidValue })
    .transform((v) => v === 'true' || v === '1')
    .optional();

/** A number in a range, nullable; out-of-range answers `message`. */
export const rangedNumber = (min: number, max: number, message: string = V.outOfRange) =>
  // Not coerced: an empty form input must not become 0 (a latitude of 0 is a place); null means none.
  z.number({ error: V.invalidNumber }).min(min, { error: message }).max(max, { error: message }).nullish();

export const latitudeField = () => rangedNumber(-90, 90, V.latitudeRange);
export const longitudeField = () => rangedNumber(-180, 180, V.longitudeRange);

/** `sort` of a list: a whitelisted column, `-column` for descending. */
export function sortParam<const T extends readonly [string, ...string[]]>(columns: T, fallback: T[number]) {
  const values = [...columns, ...columns.map((c) => `-${c}`)] as [string, ...string[]];
  return z
    .enum(values, { error: V.invalidValue })
    .default(fallback)
    .transform((v) => ({
      column: columnOf(columns, v) ?? fallback,
      descending: v.startsWith('-'),
    }));
}

function columnOf<T extends readonly string[]>(columns: T, sort: string): T[number] | undefined {
  for (const column of columns) if (sort === column || sort === `-${column}`) return column;
  return undefined;
}

/** Paging and free-text search shared by every list. */
export const listQueryBase = z.object({
  page: z.coerce
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1)
    .max(1_000_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(PAGE_SIZE_MAX, { error: V.outOfRange })
    .default(PAGE_SIZE_DEFAULT),
  q: z
    .string({ error: V.invalidValue })
    .trim()
    .max(200, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue })
    .optional(),
});

/** A list answer: one page of items and the number of all matching records. */
export const listAnswer = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int() });
export interface ListAnswer<T> {
  items: T[];
  total: number;
}

/** Timestamps in answers are UTC ISO 8601 (ARCHITECTURE.md rule 6). */
export const timestamps = { created_at: z.string(), updated_at: z.string() };

/** Absolute http(s) or rtsp URL (camera snapshots and streams). */
export const urlField = () =>
  z
    .string({ error: V.invalidUrl })
    .trim()
    .max(1000, { error: V.tooLong })
    .refine((v) => v === '' || (isUrl(v) && hasNoNul(v)), { error: V.invalidUrl })
    .transform((v) => v || null)
    .nullish();

function isUrl(v: string): boolean {
  try {
    const url = new URL(v);
    return ['http:', 'https:', 'rtsp:'].includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

const zones = new Set(
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Europe/Istanbul'],
);
/** True for an IANA time zone name the runtime knows (e.g. Europe/Istanbul, Europe/Skopje, UTC). */
export function isTimeZone(v: string): boolean {
  if (zones.has(v) || v === 'UTC') return true;
  try {
    // Aliases (Asia/Istanbul, Etc/UTC) are valid IANA names but absent from supportedValuesOf.
    return (
      /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(v) && !!new Intl.DateTimeFormat('en', { timeZone: v })
    );
  } catch {
    return false;
  }
}

export const timeZoneField = () =>
  z.string({ error: V.invalidTimeZone }).trim().refine(isTimeZone, { error: V.invalidTimeZone });
