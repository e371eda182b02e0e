import { describe, expect, it } from 'vitest';
import { instantOfLocalTime, localDateParts, localWallTime, zoneOffsetMs } from './time-zone';

const H = 3_600_000;

describe('zoneOffsetMs', () => {
  it('gives the fixed offsets of zones without DST, including a :45 zone', () => {
    expect(zoneOffsetMs(Date.UTC(2026, 0, 15, 12), 'Europe/Istanbul')).toBe(3 * H);
    expect(zoneOffsetMs(Date.UTC(2026, 6, 15, 12), 'Europe/Istanbul')).toBe(3 * H);
    expect(zoneOffsetMs(Date.UTC(2026, 6, 15, 12), 'Asia/Kathmandu')).toBe(5.75 * H);
    expect(zoneOffsetMs(Date.UTC(2026, 6, 15, 12), 'UTC')).toBe(0);
  });

  it("follows Berlin's DST changes to the second (2026-03-29 01:00 UTC and 2026-10-25 01:00 UTC)", () => {
    const spring = Date.UTC(2026, 2, 29, 1);
    expect(zoneOffsetMs(spring - 1000, 'Europe/Berlin')).toBe(1 * H);
    expect(zoneOffsetMs(spring, 'Europe/Berlin')).toBe(2 * H);
    const autumn = Date.UTC(2026, 9, 25, 1);
    expect(zoneOffsetMs(autumn - 1000, 'Europe/Berlin')).toBe(2 * H);
    expect(zoneOffsetMs(autumn, 'Europe/Berlin')).toBe(1 * H);
  });

  it('ignores the milliseconds of the instant', () => {
    expect(zoneOffsetMs(Date.UTC(2026, 0, 1) + 999, 'Europe/Skopje')).toBe(1 * H);
  });
});

describe('localDateParts', () => {
  it('gives the local date where it differs from the UTC date', () => {
    // 22:30 UTC on New Year's Eve is already 1 January in Istanbul (+3) and still 31 December in UTC.
    expect(localDateParts(Date.UTC(2026, 11, 31, 22, 30), 'Europe/Istanbul')).toEqual({
      year: 2027,
      month: 1,
      day: 1,
      offsetMs: 3 * H,
    });
    expect(localDateParts(Date.UTC(2026, 11, 31, 22, 30), 'America/New_York').day).toBe(31);
  });
});

describe('localWallTime and instantOfLocalTime', () => {
  it("read and write a wall-clock time on the zone's clock, each the other's inverse", () => {
    const at = Date.parse('2026-11-29T04:00:00Z');
    expect(localWallTime(at, 'Europe/Istanbul')).toBe('2026-11-29T07:00:00');
    expect(localWallTime(at, 'America/New_York')).toBe('2026-11-28T23:00:00');
    expect(instantOfLocalTime('2026-11-29', '07:00', 'Europe/Istanbul')).toBe(at);
    expect(instantOfLocalTime('2026-11-28', '23:00', 'America/New_York')).toBe(at);
  });
});
