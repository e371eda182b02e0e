/**
 * KPI period boundaries: a local day, month or year of a plant's IANA time zone as a half-open range of
 * UTC epoch milliseconds. The calendar arithmetic is the telemetry store's (buckets.ts), so a KPI day is
 * exactly a `1d` rollup bucket: 23 h on the spring-forward day, 25 h on the fall-back day.
 */
import { isDateInRange, isRealDate, type KpiPeriod } from '@solar/shared';
import { datesUntil, dayStart, localDate, nextDate } from './telemetry-imports';

/** [startMs, endMs) in UTC epoch milliseconds. */
export interface TimeRangeMs {
  startMs: number;
  endMs: number;
}

/** One local calendar unit (day or month) inside a period, keyed by its first date. */
export interface PeriodPart extends TimeRangeMs {
  /** YYYY-MM-DD for a day, YYYY-MM for a month. */
  key: string;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDate(date: string): { year: number; month: number } {
  const m = DATE_RE.exec(date);
  // The API accepts only such dates (calendarDateField); anything else here is a bug, not a request.
  if (!m || !isRealDate(date) || !isDateInRange(date)) throw new RangeError(`not a date in range: ${date}`);
  return { year: Number(m[1]), month: Number(m[2]) };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** First date (YYYY-MM-DD) of the month after `year`-`month` (month 1…12). */
function firstOfNextMonth(year: number, month: number): string {
  return month === 12 ? `${year + 1}-01-01` : `${year}-${pad2(month + 1)}-01`;
}

/** The local calendar day `date` (YYYY-MM-DD) in `timeZone`; 23, 24 or 25 hours long. */
export function localDayRange(date: string, timeZone: string): TimeRangeMs {
  parseDate(date);
  return { startMs: dayStart(date, timeZone), endMs: dayStart(nextDate(date), timeZone) };
}

/** The local calendar month holding `date` (YYYY-MM-DD) in `timeZone`. */
export function localMonthRange(date: string, timeZone: string): TimeRangeMs {
  const { year, month } = parseDate(date);
  return {
    startMs: dayStart(`${year}-${pad2(month)}-01`, timeZone),
    endMs: dayStart(firstOfNextMonth(year, month), timeZone),
  };
}

/** The local calendar year holding `date` (YYYY-MM-DD) in `timeZone`. */
export function localYearRange(date: string, timeZone: string): TimeRangeMs {
  const { year } = parseDate(date);
  return { startMs: dayStart(`${year}-01-01`, timeZone), endMs: dayStart(`${year + 1}-01-01`, timeZone) };
}

/** The day, month or year holding `date` (YYYY-MM-DD) in `timeZone` (the `kpis?period=&date=` query). */
export function periodRange(period: KpiPeriod, date: string, timeZone: string): TimeRangeMs {
  if (period === 'day') return localDayRange(date, timeZone);
  if (period === 'month') return localMonthRange(date, timeZone);
  return localYearRange(date, timeZone);
}

/**
 * The rows a period answer carries: the local days of a month, the local months of a year, and the day
 * itself for a day. Each part is a range of its own, so a DST day keeps its true length.
 */
export function periodParts(period: KpiPeriod, date: string, timeZone: string): PeriodPart[] {
  const { year, month } = parseDate(date);
  if (period === 'day') return [{ key: date, ...localDayRange(date, timeZone) }];
  if (period === 'year') {
    const parts: PeriodPart[] = [];
    for (let m = 1; m <= 12; m++) {
      const first = `${year}-${pad2(m)}-01`;
      parts.push({ key: first.slice(0, 7), ...localMonthRange(first, timeZone) });
    }
    return parts;
  }
  return datesUntil(`${year}-${pad2(month)}-01`, firstOfNextMonth(year, month)).map((d) => ({
    key: d,
    ...localDayRange(d, timeZone),
  }));
}

/** The local date (YYYY-MM-DD) of the instant `tsMs` in `timeZone`: which KPI day a sample belongs to. */
export function kpiDateOf(tsMs: number, timeZone: string): string {
  return localDate(tsMs, timeZone);
}

/** Length of a range in hours (23, 24 or 25 for a local day). */
export function rangeHours(range: TimeRangeMs): number {
  return (range.endMs - range.startMs) / 3_600_000;
}
