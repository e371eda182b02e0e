import { describe, expect, it } from 'vitest';
import { kpiDateOf, localDayRange, localMonthRange, periodParts, periodRange, rangeHours } from './periods';

const SKOPJE = 'Europe/Skopje';
const ISTANBUL = 'Europe/Istanbul';
const utc = (iso: string) => Date.parse(iso);

describe('KPI period boundaries', () => {
  it('cuts the Skopje spring-forward day (2026-03-29) at 23 hours', () => {
    // Local midnight is still CET (UTC+1): 2026-03-28T23:00Z. Clocks jump 02:00 → 03:00 CEST, so the next
    // midnight is UTC+2: 2026-03-29T22:00Z. 22:00 − (−1:00) = 23 h.
    const day = localDayRange('2026-03-29', SKOPJE);
    expect(day.startMs).toBe(utc('2026-03-28T23:00:00Z'));
    expect(day.endMs).toBe(utc('2026-03-29T22:00:00Z'));
    expect(rangeHours(day)).toBe(23);
  });

  it('cuts the Skopje fall-back day (2026-10-25) at 25 hours', () => {
    // Midnight in CEST (UTC+2): 2026-10-24T22:00Z; 03:00 CEST → 02:00 CET; next midnight in CET: 23:00Z.
    const day = localDayRange('2026-10-25', SKOPJE);
    expect(day.startMs).toBe(utc('2026-10-24T22:00:00Z'));
    expect(day.endMs).toBe(utc('2026-10-25T23:00:00Z'));
    expect(rangeHours(day)).toBe(25);
  });

  it('never shifts Istanbul (UTC+3 all year since 2016)', () => {
    for (const date of ['2026-01-15', '2026-03-29', '2026-07-01', '2026-10-25', '2026-12-31']) {
      const day = localDayRange(date, ISTANBUL);
      // Local midnight = 21:00 UTC the day before, every day of the year.
      expect(day.startMs).toBe(utc(`${date}T00:00:00Z`) - 3 * 3_600_000);
      expect(rangeHours(day)).toBe(24);
    }
    expect(rangeHours(periodRange('year', '2026-06-01', ISTANBUL))).toBe(365 * 24);
  });

  it('gives a Skopje month with a DST change its true length', () => {
    // March 2026: 31 days, one of them 23 h → 31 × 24 − 1 = 743 h; October: 31 × 24 + 1 = 745 h.
    expect(rangeHours(localMonthRange('2026-03-10', SKOPJE))).toBe(743);
    expect(rangeHours(localMonthRange('2026-10-31', SKOPJE))).toBe(745);
    const year = periodRange('year', '2026-03-29', SKOPJE);
    expect(year.startMs).toBe(utc('2025-12-31T23:00:00Z'));
    expect(year.endMs).toBe(utc('2026-12-31T23:00:00Z'));
    expect(rangeHours(year)).toBe(8760);
  });

  it('splits a month into its days and a year into its months, gap-free', () => {
    const days = periodParts('month', '2026-03-29', SKOPJE);
    expect(days).toHaveLength(31);
    expect(days[28]!.key).toBe('2026-03-29');
    expect(rangeHours(days[28]!)).toBe(23);
    const months = periodParts('year', '2026-01-01', ISTANBUL);
    expect(months.map((m) => m.key)).toEqual([
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
    ]);
    for (const parts of [days, months])
      for (let i = 1; i < parts.length; i++) expect(parts[i]!.startMs).toBe(parts[i - 1]!.endMs);
    expect(periodParts('day', '2026-10-25', SKOPJE)).toEqual([
      { key: '2026-10-25', ...localDayRange('2026-10-25', SKOPJE) },
    ]);
  });

  it('puts a sample into its local day', () => {
    // 2026-03-28T23:30Z is 00:30 on the 29th in Skopje (UTC+1) and 02:30 on the 29th in Istanbul.
    expect(kpiDateOf(utc('2026-03-28T23:30:00Z'), SKOPJE)).toBe('2026-03-29');
    expect(kpiDateOf(utc('2026-03-28T20:59:59Z'), ISTANBUL)).toBe('2026-03-28');
    expect(() => localDayRange('2026-13-01', SKOPJE)).toThrow(RangeError);
    expect(() => periodRange('month', '2026-02-30', SKOPJE)).toThrow(RangeError);
  });
});
