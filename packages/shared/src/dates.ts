import { z } from 'zod';
import { V } from './validation';

/**
 * The one set of date helpers every request schema uses (docs/security.md "Dates and ranges"). Every
 * calendar date, instant and year the API accepts lies in [DATE_MIN, DATE_MAX]: far outside it the
 * calendar arithmetic on the server leaves the four-digit years (`9999-12-31` + 1 day is `+010000-01-01`,
 * which sorts before it) and loops over dates never end. No plant produced before 2000 or is planned past
 * 2100, so the range refuses nothing real.
 */
export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '2100-12-31';
export const YEAR_MIN = 2000;
export const YEAR_MAX = 2100;
/** First instant of DATE_MIN, UTC. */
export const INSTANT_MIN_MS = Date.UTC(YEAR_MIN, 0, 1);
/** Last instant of DATE_MAX, UTC (the next, 2101-01-01T00:00:00Z, is a day outside the range). */
export const INSTANT_MAX_MS = Date.UTC(YEAR_MAX + 1, 0, 1) - 1;
/** Longest text any date or instant may be (an ISO date-time with nanoseconds and an offset is 35). */
const DATE_TEXT_MAX = 40;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 date-time with seconds and fraction optional and a zone required (`Z`, `+03:00`, `+0300`). */
const DATE_TIME_PATTERN =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;
/** The largest epoch ms a JavaScript Date holds (ECMA-262 §21.4.1.22). */
const EPOCH_MS_MAX = 8.64e15;
/** Epoch milliseconds in a query string: canonical digits only. */
const EPOCH_MS_PATTERN = /^(0|[1-9]\d{0,15})$/;

/** True for YYYY-MM-DD naming a day that exists in the proleptic Gregorian calendar (2026-02-30 does not). */
export function isRealDate(v: string): boolean {
  const m = DATE_PATTERN.exec(v);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; Date.UTC maps years 0-99 to 1900-1999, so set it.
  const last = new Date(Date.UTC(2000, month, 0));
  last.setUTCFullYear(year, month, 0);
  return day <= last.getUTCDate();
}

/** True for a calendar date inside [DATE_MIN, DATE_MAX] (both four-digit, so text order is date order). */
export const isDateInRange = (v: string) => v >= DATE_MIN && v <= DATE_MAX;

/** True for epoch milliseconds inside [INSTANT_MIN_MS, INSTANT_MAX_MS]. */
export const isInstantInRange = (ms: number) => ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS;

/**
 * Epoch milliseconds of an instant written as epoch ms (a number, or canonical digits in a query string), a
 * calendar date (its UTC midnight) or an ISO 8601 date-time with a zone; null when it is none of those or
 * names a day that does not exist. A date-time without a zone would be read in the server's zone: refused
 * rather than guessed. Not range-checked: see instantField.
 */
export function parseInstant(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v <= EPOCH_MS_MAX ? v : null;
  if (typeof v !== 'string' || v.length > DATE_TEXT_MAX) return null;
  if (EPOCH_MS_PATTERN.test(v)) return Number(v) <= EPOCH_MS_MAX ? Number(v) : null;
  if (DATE_PATTERN.test(v)) return isRealDate(v) ? Date.parse(`${v}T00:00:00Z`) : null;
  const m = DATE_TIME_PATTERN.exec(v);
  if (!m || !isRealDate(m[1]!)) return null;
  // V8 reads `+0300` but the standard form is `+03:00`: normalise so every runtime agrees.
  const ms = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : ms;
}

/**
 * A calendar date YYYY-MM-DD that exists and lies in [DATE_MIN, DATE_MAX]. `format: date` in the API
 * document, which is how the route walk of the date test finds every route that takes one.
 */
export const calendarDateField = () =>
  z.stringFormat('date', isRealDate, { error: V.invalidDate }).refine(isDateInRange, { error: V.dateRange });

/** The syntax of an instant, for the OpenAPI document: `format: date-time` (or epoch milliseconds). */
const instantText = () =>
  z.stringFormat('date-time', (v) => parseInstant(v) !== null, { error: V.invalidDate });

/** An instant as epoch ms or text, not range-checked: telemetry ingest refuses its points one by one. */
export const anyInstantField = () =>
  z
    .union([z.number({ error: V.invalidDate }), instantText()], { error: V.invalidDate })
    .transform((v, ctx) => {
      const ms = parseInstant(v);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: V.invalidDate });
        return z.NEVER;
      }
      return ms;
    });

/**
 * An instant (see parseInstant) in [INSTANT_MIN_MS, INSTANT_MAX_MS]; answers epoch ms. Outside the range
 * answers `validation.dateRange`.
 */
export const instantField = () => anyInstantField().refine(isInstantInRange, { error: V.dateRange });

/**
 * instantField that also takes null (none) or nothing. Null sits on the number branch: OpenAPI 3.0 allows
 * `nullable` only beside a `type`.
 */
export const nullableInstantField = () =>
  z
    .union([z.number({ error: V.invalidDate }).nullable(), instantText()], { error: V.invalidDate })
    .transform((v, ctx) => {
      if (v === null) return null;
      const ms = parseInstant(v);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: V.invalidDate });
        return z.NEVER;
      }
      return ms;
    })
    .refine((ms) => ms === null || isInstantInRange(ms), { error: V.dateRange })
    .optional();

/** A year in [YEAR_MIN, YEAR_MAX] in a body. */
export const yearField = () =>
  z
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(YEAR_MIN, { error: V.outOfRange })
    .max(YEAR_MAX, { error: V.outOfRange });

/** A year in [YEAR_MIN, YEAR_MAX] in a query string: four canonical digits. */
export const yearQueryField = () =>
  z
    .string({ error: V.invalidNumber })
    .regex(/^\d{4}$/, { error: V.outOfRange })
    .transform(Number)
    .pipe(yearField());

/** Whether `from` and `to` (dates or epoch ms) are in order; `strict`: `to` must come after `from`. */
export function inOrder(from: string | number | undefined, to: string | number | undefined, strict: boolean) {
  return from === undefined || to === undefined || (strict ? from < to : from <= to);
}
