import { describe, expect, it } from 'vitest';
import {
  dailyCompleteness,
  dataCompleteness,
  expectedIntervalS,
  expectedSampleCount,
  periodCoverage,
  plantDataCompleteness,
} from './completeness';
import { localDayRange } from './periods';

describe('data completeness', () => {
  it('expects samples for the true length of the local day', () => {
    // Poll every 30 s = 120 samples an hour.
    // Skopje 2026-03-29 is 23 h: 23 × 120 = 2760; 2026-10-25 is 25 h: 3000; an ordinary day 24 h: 2880.
    const at = (date: string, timeZone: string) =>
      dailyCompleteness({ date, timeZone, pollIntervalS: 30, receivedSamples: 2760 });
    expect(at('2026-03-29', 'Europe/Skopje')).toEqual({
      expectedIntervalS: 30,
      expectedSamples: 2760,
      receivedSamples: 2760,
      completeness: 1,
    });
    expect(at('2026-10-25', 'Europe/Skopje').expectedSamples).toBe(3000);
    // 2760 of 3000 = 0.92
    expect(at('2026-10-25', 'Europe/Skopje').completeness).toBeCloseTo(0.92, 12);
    expect(at('2026-06-01', 'Europe/Skopje').expectedSamples).toBe(2880);
    // Istanbul never shifts: 2880 on both dates.
    expect(at('2026-03-29', 'Europe/Istanbul').expectedSamples).toBe(2880);
    expect(at('2026-10-25', 'Europe/Istanbul').expectedSamples).toBe(2880);
  });

  it('counts today only up to now', () => {
    // 12:00 in Skopje on 2026-03-29 is 10:00Z; the day began 2026-03-28T23:00Z: 11 h × 120 = 1320.
    const today = dailyCompleteness({
      date: '2026-03-29',
      timeZone: 'Europe/Skopje',
      pollIntervalS: 30,
      receivedSamples: 1254,
      nowMs: Date.parse('2026-03-29T10:00:00Z'),
    });
    // 1254 / 1320 = 0.95
    expect(today).toEqual({
      expectedIntervalS: 30,
      expectedSamples: 1320,
      receivedSamples: 1254,
      completeness: 0.95,
    });
  });

  it('caps at 1 and answers null when nothing was expected', () => {
    expect(dataCompleteness(3100, 2880)).toBe(1);
    expect(dataCompleteness(0, 0)).toBeNull();
    const range = localDayRange('2026-06-01', 'Europe/Istanbul');
    expect(expectedSampleCount(range, 0)).toBe(0);
    // 5-minute poll: 288 a day; before the day started, none.
    expect(expectedSampleCount(range, 300)).toBe(288);
    expect(expectedSampleCount(range, 300, range.startMs - 1)).toBe(0);
  });

  it("weighs a plant by its devices' expected samples", () => {
    // Inverter 2880 expected / 2736 received, meter 288 / 300 (capped at 288): (2736 + 288) / (2880 + 288)
    // = 3024 / 3168 = 0.954545
    expect(
      plantDataCompleteness([
        { expectedIntervalS: 30, expectedSamples: 2880, receivedSamples: 2736, completeness: 0.95 },
        { expectedIntervalS: 300, expectedSamples: 288, receivedSamples: 300, completeness: 1 },
      ]),
    ).toBeCloseTo(3024 / 3168, 12);
    expect(plantDataCompleteness([])).toBeNull();
  });
});

describe('period coverage', () => {
  it('weighs each elapsed day equally, a day without data as 0', () => {
    // Three complete days of 31, one day half complete of two.
    expect(periodCoverage([1, 1, 1, ...Array<null>(28).fill(null)])).toBeCloseTo(3 / 31, 12);
    expect(periodCoverage([0.5, undefined])).toBeCloseTo(0.25, 12);
    expect(periodCoverage([1.2, -1])).toBeCloseTo(0.5, 12);
    expect(periodCoverage([])).toBeNull();
  });
});

describe('expected interval', () => {
  it('is the poll interval, or the slower steady pace the samples arrived at, never beyond a bucket', () => {
    // A 5-minute history for a device polled every 30 s: one sample in each of 288 buckets.
    expect(expectedIntervalS(30, 288, 288)).toBe(300);
    // Polled at 30 s as configured: ten samples a bucket.
    expect(expectedIntervalS(30, 2880, 288)).toBe(30);
    // Faster than configured counts against the poll interval (capped at 1 later).
    expect(expectedIntervalS(300, 2880, 288)).toBe(300);
    // A 5-minute history until 12:00, polled at 30 s after: 144 + 1440 samples in 288 buckets.
    expect(expectedIntervalS(30, 1584, 288)).toBeCloseTo((288 * 300) / 1584, 12);
    // Nothing received: the poll interval.
    expect(expectedIntervalS(30, 0, 0)).toBe(30);
  });

  it('counts a 5-minute day complete, and its gaps as gaps', () => {
    const day = (received: number, buckets: number) =>
      dailyCompleteness({
        date: '2026-06-01',
        timeZone: 'Europe/Istanbul',
        pollIntervalS: 30,
        receivedSamples: received,
        bucketsWithData: buckets,
      });
    expect(day(288, 288).completeness).toBe(1);
    // Six hours missing: 216 of 288 buckets.
    expect(day(216, 216).completeness).toBeCloseTo(0.75, 12);
  });

  it('counts a day held as hourly rollups complete at one sample an hour, and its missing hours as gaps', () => {
    const day = (received: number, hours: number) =>
      dailyCompleteness({
        date: '2026-06-01',
        timeZone: 'Europe/Istanbul',
        pollIntervalS: 30,
        receivedSamples: received,
        bucketsWithData: hours,
        bucketS: 3_600,
      });
    expect(day(24, 24)).toMatchObject({ expectedIntervalS: 3_600, expectedSamples: 24, completeness: 1 });
    expect(day(18, 18).completeness).toBeCloseTo(0.75, 12);
    // Counted in 5-minute buckets, the same hours would be a twelfth of a day.
    expect(
      dailyCompleteness({
        ...{ date: '2026-06-01', timeZone: 'Europe/Istanbul' },
        pollIntervalS: 30,
        receivedSamples: 24,
        bucketsWithData: 24,
      }).completeness,
    ).toBeCloseTo(1 / 12, 12);
  });
});
