import { describe, expect, it } from 'vitest';
import { instantOfLocalTime } from '@solar/shared';
import {
  latestRunAtOrBefore,
  nextRunAt,
  reportPeriod,
  retryDelayMs,
  runToDeliver,
  type ScheduleRule,
} from './schedule-times';

const SKOPJE = 'Europe/Skopje';
const daily = (localTime: string, timeZone = SKOPJE): ScheduleRule => ({
  frequency: 'daily',
  localTime,
  weekday: 1,
  timeZone,
});
const iso = (ms: number) => new Date(ms).toISOString();

/** Every run instant from `fromMs` on, `count` of them, by chaining nextRunAt. */
function runs(rule: ScheduleRule, fromMs: number, count: number): number[] {
  const out: number[] = [];
  let at = fromMs;
  for (let i = 0; i < count; i++) out.push((at = nextRunAt(rule, at)));
  return out;
}

describe('schedule times', () => {
  it('reads a local time in the zone', () => {
    // Skopje is UTC+1 in winter, UTC+2 in summer.
    expect(iso(instantOfLocalTime('2026-01-15', '07:00', SKOPJE))).toBe('2026-01-15T06:00:00.000Z');
    expect(iso(instantOfLocalTime('2026-07-15', '07:00', SKOPJE))).toBe('2026-07-15T05:00:00.000Z');
    expect(iso(instantOfLocalTime('2026-07-15', '07:00', 'Asia/Kolkata'))).toBe('2026-07-15T01:30:00.000Z');
  });

  it('runs a time the spring-forward gap skips once, just past the gap', () => {
    // 2026-03-29: 02:00 CET → 03:00 CEST in Skopje; 02:30 does not exist that day.
    expect(iso(instantOfLocalTime('2026-03-29', '02:30', SKOPJE))).toBe('2026-03-29T01:30:00.000Z');
    const at = runs(daily('02:30'), Date.parse('2026-03-27T12:00:00Z'), 4).map(iso);
    expect(at).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('runs a time the fall-back overlap repeats once, at its first occurrence', () => {
    // 2026-10-25: 03:00 CEST → 02:00 CET; 02:30 happens twice (00:30Z and 01:30Z).
    const at = runs(daily('02:30'), Date.parse('2026-10-23T12:00:00Z'), 4).map(iso);
    expect(at).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('has exactly one daily run per local date across a whole year of DST changes', () => {
    for (const localTime of ['00:00', '02:30', '03:00', '07:00', '23:59']) {
      const year = runs(daily(localTime), Date.parse('2025-12-31T23:00:00Z'), 400);
      const dates = year.map((ms) => new Intl.DateTimeFormat('en-CA', { timeZone: SKOPJE }).format(ms));
      expect(new Set(dates).size, localTime).toBe(400);
      for (let i = 1; i < dates.length; i++) {
        const gapDays = (Date.parse(dates[i]!) - Date.parse(dates[i - 1]!)) / 86_400_000;
        expect(gapDays, `${localTime} after ${dates[i - 1]}`).toBe(1);
      }
    }
  });

  it('runs weekly on the weekday and monthly on the 1st', () => {
    const weekly: ScheduleRule = { frequency: 'weekly', localTime: '08:00', weekday: 1, timeZone: SKOPJE };
    // 2026-11-25 is a Wednesday; the next Monday is 2026-11-30.
    expect(iso(nextRunAt(weekly, Date.parse('2026-11-25T10:00:00Z')))).toBe('2026-11-30T07:00:00.000Z');
    const monthly: ScheduleRule = { ...weekly, frequency: 'monthly' };
    expect(iso(nextRunAt(monthly, Date.parse('2026-11-25T10:00:00Z')))).toBe('2026-12-01T07:00:00.000Z');
    expect(iso(nextRunAt(monthly, Date.parse('2026-12-01T07:00:00Z')))).toBe('2027-01-01T07:00:00.000Z');
  });

  it('reports on the period before the run', () => {
    const at = Date.parse('2026-12-01T07:00:00Z');
    expect(reportPeriod(daily('08:00'), at)).toEqual({ from: '2026-11-30', to: '2026-11-30' });
    expect(reportPeriod({ ...daily('08:00'), frequency: 'weekly' }, at)).toEqual({
      from: '2026-11-24',
      to: '2026-11-30',
    });
    expect(reportPeriod({ ...daily('08:00'), frequency: 'monthly' }, at)).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('collapses runs missed while down into the newest one', () => {
    const rule = daily('07:00');
    const pending = Date.parse('2026-11-20T06:00:00Z');
    const now = Date.parse('2026-11-25T09:00:00Z');
    expect(iso(latestRunAtOrBefore(rule, now)!)).toBe('2026-11-25T06:00:00.000Z');
    expect(iso(runToDeliver(rule, pending, now))).toBe('2026-11-25T06:00:00.000Z');
    // Not yet at today's run: the pending one stands.
    expect(runToDeliver(rule, pending, Date.parse('2026-11-20T06:30:00Z'))).toBe(pending);
  });

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4, 5, 10].map(retryDelayMs)).toEqual([
      60_000, 120_000, 240_000, 480_000, 960_000, 3_600_000,
    ]);
  });
});
