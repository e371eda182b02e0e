import { describe, expect, it } from 'vitest';
import { detectClockFault, profileShift, utcOffsetMinutes } from './clock';
import { HOUR, konyaDay, poaSeries, powerSeries } from './synthetic-day';
import type { PlantDay } from './types';

/** A plant near Munich; Europe/Berlin keeps summer time (UTC+2) from late March to late October. */
function bavaria(isoDate: string, offsetHours: number): PlantDay {
  const dayStartMs = Date.parse(`${isoDate}T00:00:00Z`) - offsetHours * HOUR;
  return {
    ...konyaDay(),
    timeZone: 'Europe/Berlin',
    latitude: 48.1,
    longitude: 11.6,
    dayStartMs,
    dayEndMs: dayStartMs + 24 * HOUR,
  };
}

describe('clock faults', () => {
  it('knows the zones: Istanbul +3 all year, Berlin +1 in winter and +2 in summer', () => {
    expect(utcOffsetMinutes('Europe/Istanbul', Date.parse('2026-01-10T12:00:00Z'))).toBe(180);
    expect(utcOffsetMinutes('Europe/Istanbul', Date.parse('2026-07-10T12:00:00Z'))).toBe(180);
    expect(utcOffsetMinutes('Europe/Berlin', Date.parse('2026-01-10T12:00:00Z'))).toBe(60);
    expect(utcOffsetMinutes('Europe/Berlin', Date.parse('2026-07-10T12:00:00Z'))).toBe(120);
  });

  it('finds a clear day aligned with the sun', () => {
    const plant = konyaDay();
    expect(Math.abs(profileShift(poaSeries(plant), plant)!.shiftMinutes)).toBeLessThanOrEqual(5);
    expect(detectClockFault(poaSeries(plant), plant)).toEqual([]);
    expect(detectClockFault(powerSeries(plant, 300, 200), plant)).toEqual([]);
  });

  it('flags power an hour late and irradiance two hours early as clock shifts, with the shift', () => {
    const plant = konyaDay('2026-04-15');
    const late = detectClockFault(powerSeries(plant, 240, 200, {}, HOUR), plant);
    expect(late).toEqual([
      expect.objectContaining({
        reason: 'clock_shift',
        fromMs: plant.dayStartMs,
        toMs: plant.dayEndMs,
        readings: 288,
      }),
    ]);
    expect(late[0]!.detail.shiftMinutes).toBe(60);
    const early = detectClockFault(poaSeries(plant, {}, -2 * HOUR), plant);
    expect(early.map((f) => [f.reason, f.detail.shiftMinutes])).toEqual([['clock_shift', -120]]);
  });

  it('leaves a 30-minute offset alone (not whole hours: a different fault or a wrong longitude)', () => {
    const plant = konyaDay('2026-04-15');
    expect(detectClockFault(poaSeries(plant, {}, 30 * 60_000), plant)).toEqual([]);
  });

  it('calls an hour early in summer in a DST zone a DST error, and an hour early in winter a clock shift', () => {
    const summer = bavaria('2026-07-10', 2);
    expect(
      detectClockFault(poaSeries(summer, {}, -HOUR), summer).map((f) => [f.reason, f.detail.shiftMinutes]),
    ).toEqual([['dst_error', -60]]);
    const winter = bavaria('2026-01-10', 1);
    expect(detectClockFault(poaSeries(winter, {}, -HOUR), winter).map((f) => f.reason)).toEqual([
      'clock_shift',
    ]);
    expect(detectClockFault(poaSeries(winter, {}, HOUR), winter).map((f) => f.reason)).toEqual(['dst_error']);
  });

  it('calls an hour on the day the clocks change a DST error', () => {
    const start = Date.parse('2026-03-28T23:00:00Z');
    const spring: PlantDay = { ...bavaria('2026-03-29', 1), dayStartMs: start, dayEndMs: start + 23 * HOUR };
    expect(detectClockFault(poaSeries(spring, {}, HOUR), spring).map((f) => f.reason)).toEqual(['dst_error']);
    expect(detectClockFault(poaSeries(spring), spring)).toEqual([]);
    const autumnStart = Date.parse('2026-10-24T22:00:00Z');
    const autumn: PlantDay = { ...spring, dayStartMs: autumnStart, dayEndMs: autumnStart + 25 * HOUR };
    expect(detectClockFault(poaSeries(autumn), autumn)).toEqual([]);
    expect(detectClockFault(poaSeries(autumn, {}, -HOUR), autumn).map((f) => f.reason)).toEqual([
      'dst_error',
    ]);
  });
});
