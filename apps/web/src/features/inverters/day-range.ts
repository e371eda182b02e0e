import { localMidnight } from '@solar/shared';

/** The local day `date` in `timeZone` as [start, end) epoch ms. */
export function dayRange(date: string, timeZone: string): { from: number; to: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return { from: localMidnight(date, timeZone), to: localMidnight(next, timeZone) };
}
