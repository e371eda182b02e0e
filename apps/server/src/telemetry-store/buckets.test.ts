import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  bucketRun,
  dayAlignedToHours,
  dayBucket,
  dayRange,
  datesUntil,
  dayStart,
  floorBucket,
  localDate,
  nextDate,
} from './buckets';

const H = 3_600_000;

describe('bucket math', () => {
  it('floors to epoch-aligned buckets, negative times included', () => {
    expect(floorBucket(Date.UTC(2026, 10, 23, 10, 7, 59, 999), 300_000)).toBe(Date.UTC(2026, 10, 23, 10, 5));
    expect(floorBucket(Date.UTC(2026, 10, 23, 10, 5), 300_000)).toBe(Date.UTC(2026, 10, 23, 10, 5));
    expect(floorBucket(-1, 300_000)).toBe(-300_000);
    expect(bucketOf(Date.UTC(2026, 0, 1, 13, 59), '1h', 'UTC')).toBe(Date.UTC(2026, 0, 1, 13));
    expect(Object.is(floorBucket(-300_000, 300_000), -300_000)).toBe(true);
  });

  it('floors a run of instants as floorBucket does, in order or not, bucket edges and negatives included', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const run = bucketRun(300_000);
    let ts = Date.UTC(2026, 10, 27) - 1;
    const instants = [-300_001, -300_000, -1, 0, 299_999, 300_000, ts, ts + 1, ts + 300_000, ts];
    for (let i = 0; i < 5_000; i++) {
      // Mostly forward by up to a minute, sometimes back by up to ten: runs and jumps both.
      ts += random() < 0.9 ? Math.floor(random() * 60_000) : -Math.floor(random() * 600_000);
      instants.push(ts, ts - (ts % 300_000));
    }
    for (const t of instants) expect(run(t), String(t)).toBe(floorBucket(t, 300_000));
  });

  it('starts an Istanbul day at 21:00 UTC the day before (UTC+3 all year)', () => {
    expect(dayStart('2026-06-15', 'Europe/Istanbul')).toBe(Date.UTC(2026, 5, 14, 21));
    expect(dayStart('2026-01-15', 'Europe/Istanbul')).toBe(Date.UTC(2026, 0, 14, 21));
    expect(localDate(Date.UTC(2026, 5, 14, 20, 59, 59, 999), 'Europe/Istanbul')).toBe('2026-06-14');
    expect(localDate(Date.UTC(2026, 5, 14, 21), 'Europe/Istanbul')).toBe('2026-06-15');
    expect(dayBucket(Date.UTC(2026, 5, 15, 12), 'Europe/Istanbul')).toBe(Date.UTC(2026, 5, 14, 21));
  });

  it('gives Skopje 23- and 25-hour days at the DST changes (EU rules: last Sunday of March/October)', () => {
    // 2026-03-29: clocks go 02:00 → 03:00 CET → CEST.
    expect(dayRange(Date.UTC(2026, 2, 29, 12), 'Europe/Skopje')).toEqual([
      Date.UTC(2026, 2, 28, 23),
      Date.UTC(2026, 2, 29, 22),
    ]);
    // 2026-10-25: clocks go 03:00 → 02:00 CEST → CET.
    const [start, end] = dayRange(Date.UTC(2026, 9, 25, 12), 'Europe/Skopje');
    expect([start, end]).toEqual([Date.UTC(2026, 9, 24, 22), Date.UTC(2026, 9, 25, 23)]);
    expect(end - start).toBe(25 * H);
    expect(dayStart('2026-07-01', 'Europe/Skopje')).toBe(Date.UTC(2026, 5, 30, 22));
  });

  it('finds the first instant of a day that has no midnight and handles :30 zones', () => {
    // Chile springs forward at 00:00 local: 2026-09-06 starts at 01:00 (-03:00) = 04:00 UTC.
    expect(dayStart('2026-09-06', 'America/Santiago')).toBe(Date.UTC(2026, 8, 6, 4));
    expect(dayStart('2026-01-01', 'Asia/Kolkata')).toBe(Date.UTC(2025, 11, 31, 18, 30));
    expect(dayAlignedToHours(Date.UTC(2026, 0, 1), 'Asia/Kolkata')).toBe(false);
    expect(dayAlignedToHours(Date.UTC(2026, 0, 1), 'Europe/Skopje')).toBe(true);
  });

  it('steps calendar dates across month and leap-year ends', () => {
    expect(nextDate('2028-02-28')).toBe('2028-02-29');
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
  });

  it('lists the dates of a span as nextDate steps them, across leap years and year ends', () => {
    const stepped: string[] = [];
    for (let date = '2027-12-01'; date < '2029-03-02'; date = nextDate(date)) stepped.push(date);
    expect(datesUntil('2027-12-01', '2029-03-02')).toEqual(stepped);
    expect(datesUntil('2028-02-29', '2028-03-01')).toEqual(['2028-02-29']);
    expect(datesUntil('2026-05-01', '2026-05-01')).toEqual([]);
    expect(datesUntil('9999-12-30', '9999-12-31')).toEqual(['9999-12-30']);
    expect(() => datesUntil('2020-01-01', '2030-01-01', 366)).toThrow(RangeError);
  });
});
