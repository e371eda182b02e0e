import { describe, expect, it } from 'vitest';
import { detectClockAgainstPeers, detectClockFault, profileShift, utcOffsetMinutes } from './clock';
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

  describe("against the plant's other inverters, under clouds", () => {
    const day = konyaDay('2026-11-20');
    /** The same cloud over every inverter: a factor per hour and 5-minute knot, 0.15…1, fixed. */
    const cloud = (ts: number) => 0.15 + 0.85 * Math.abs(Math.sin(ts / 1_700_000) * Math.cos(ts / 5_300_000));
    /** Inverter n of the plant; its logger stamps `lateMs` late (the reading of t arrives stamped t + late). */
    const cloudyInverter = (n: number, lateMs = 0) => {
      const clear = powerSeries(day, 60, 50, { signalId: 10 + n, deviceId: n }, lateMs);
      return {
        ...clear,
        readings: clear.readings.map((r) => ({ ts: r.ts, value: r.value * cloud(r.ts - lateMs) })),
      };
    };

    it('flags the inverter an hour late that the sun cannot judge, and none of its peers', () => {
      const all = [cloudyInverter(1, HOUR), cloudyInverter(2), cloudyInverter(3), cloudyInverter(4)];
      // Under these clouds the profile does not match the clear sky: the sun's check says nothing.
      expect(all.flatMap((s) => detectClockFault(s, day))).toEqual([]);
      const flags = all.flatMap((s) => detectClockAgainstPeers(s, all, day));
      expect(flags).toEqual([
        expect.objectContaining({
          reason: 'clock_shift',
          deviceId: 1,
          fromMs: day.dayStartMs,
          toMs: day.dayEndMs,
        }),
      ]);
      expect(flags[0]!.detail).toMatchObject({ shiftMinutes: 60, peers: 3 });
    });

    it('judges nothing with fewer than two peers, and nothing when all share one clock', () => {
      const pair = [cloudyInverter(1, HOUR), cloudyInverter(2)];
      expect(pair.flatMap((s) => detectClockAgainstPeers(s, pair, day))).toEqual([]);
      const same = [cloudyInverter(1), cloudyInverter(2), cloudyInverter(3)];
      expect(same.flatMap((s) => detectClockAgainstPeers(s, same, day))).toEqual([]);
    });
  });
});
