/** Local dates (YYYY-MM-DD) as day numbers, so series can be paired and spans counted without time zones. */

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return Math.round(
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / MS_PER_DAY,
  );
}

/** The YYYY-MM-DD date of a day number. */
export function dateOfDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The same calendar date one year later; 29 February pairs with 28 February. */
export function oneYearLater(date: string): string {
  const year = Number(date.slice(0, 4)) + 1;
  const monthDay = date.slice(5) === '02-29' ? '02-28' : date.slice(5);
  return `${String(year).padStart(4, '0')}-${monthDay}`;
}

/** Whole months in a span of days (mean Gregorian month, 30.436875 days). */
export function monthsIn(days: number): number {
  return Math.floor(days / 30.436875);
}
