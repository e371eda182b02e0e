import { describe, expect, it } from 'vitest';
import { detectGaps } from './gaps';
import { FIVE_MIN, HOUR, at, konyaDay, poaSeries, series, timestamps } from './synthetic-day';
import type { PlantDay } from './types';

/** A local day in Berlin, whose clocks change on 2026-03-29 (23 h) and 2026-10-25 (25 h). */
function berlinDay(startIso: string, hours: number): PlantDay {
  const dayStartMs = Date.parse(startIso);
  return {
    ...konyaDay(),
    timeZone: 'Europe/Berlin',
    latitude: 52.5,
    longitude: 13.4,
    dayStartMs,
    dayEndMs: dayStartMs + hours * HOUR,
  };
}

describe('gap detector', () => {
  it('finds nothing on a complete day', () => {
    const plant = konyaDay();
    expect(detectGaps(poaSeries(plant), plant)).toEqual([]);
  });

  it('reports an hour without readings as 12 missing 5-minute readings over that hour', () => {
    const plant = konyaDay();
    const s = poaSeries(plant);
    s.readings.splice(at(plant, 10), 12);
    const flags = detectGaps(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      reason: 'gap',
      fromMs: plant.dayStartMs + 10 * HOUR,
      toMs: plant.dayStartMs + 11 * HOUR,
      readings: 0,
      detail: { missing: 12 },
    });
  });

  it('reports a missing start and end of the day', () => {
    const plant = konyaDay();
    const s = poaSeries(plant);
    s.readings = s.readings.slice(at(plant, 1), at(plant, 23));
    const flags = detectGaps(s, plant);
    expect(flags.map((f) => f.detail.missing)).toEqual([12, 12]);
    expect(flags[0]!.fromMs).toBe(plant.dayStartMs);
    expect(flags[1]!.toMs).toBe(plant.dayEndMs);
  });

  it('expects 276 readings on the 23-hour spring DST day and 300 on the 25-hour autumn day', () => {
    const spring = berlinDay('2026-03-28T23:00:00Z', 23);
    const springReadings = timestamps(spring).map((ts) => ({ ts, value: 1 }));
    expect(springReadings).toHaveLength(276);
    expect(detectGaps(series('temperature_ambient', springReadings), spring)).toEqual([]);

    const autumn = berlinDay('2026-10-24T22:00:00Z', 25);
    const autumnReadings = timestamps(autumn).map((ts) => ({ ts, value: 1 }));
    expect(autumnReadings).toHaveLength(300);
    expect(detectGaps(series('temperature_ambient', autumnReadings), autumn)).toEqual([]);
    // A logger that stops after 24 h of the 25-hour day misses its last hour.
    const flags = detectGaps(series('temperature_ambient', autumnReadings.slice(0, 288)), autumn);
    expect(flags).toEqual([
      expect.objectContaining({
        fromMs: autumn.dayEndMs - HOUR,
        toMs: autumn.dayEndMs,
        detail: { missing: 12 },
      }),
    ]);
  });

  it('does nothing when the interval is unknown', () => {
    const plant = konyaDay();
    expect(detectGaps(series('ac_power', [], { expectedIntervalMs: null }), plant)).toEqual([]);
    expect(
      detectGaps(
        series('ac_power', [{ ts: plant.dayStartMs, value: 0 }], { expectedIntervalMs: FIVE_MIN }),
        plant,
      ),
    ).toEqual([expect.objectContaining({ detail: { missing: 287 } })]);
  });

  it('makes one sparse stretch of data that comes every 5 minutes from a device meant to report every 30 s', () => {
    const plant = konyaDay();
    const readings = timestamps(plant).map((ts) => ({ ts, value: 1 }));
    const flags = detectGaps(series('ac_power', readings, { expectedIntervalMs: 30_000 }), plant);
    expect(flags).toHaveLength(1);
    // From the first missing 30-s slot after midnight's reading to the day's end: 288 readings there,
    // 9 of every 10 slots missing, and the 11 after the last reading at 23:55.
    expect(flags[0]).toMatchObject({
      fromMs: plant.dayStartMs + 30_000,
      toMs: plant.dayEndMs,
      readings: 287,
      detail: { missing: 287 * 9 + 9 },
    });
  });

  it('keeps gaps apart when three readings or more stand between them', () => {
    const plant = konyaDay();
    const s = poaSeries(plant);
    // Two missing hours with three readings between them (10:00-11:00 out, 11:00-11:10 in, 11:15-12:15 out).
    s.readings = s.readings.filter((x) => {
      const h = (x.ts - plant.dayStartMs) / HOUR;
      return !((h >= 10 && h < 11) || (h >= 11.25 && h < 12.25));
    });
    const flags = detectGaps(s, plant);
    expect(flags.map((f) => [f.fromMs, f.toMs, f.readings, f.detail.missing])).toEqual([
      [plant.dayStartMs + 10 * HOUR, plant.dayStartMs + 11 * HOUR, 0, 12],
      [plant.dayStartMs + 11.25 * HOUR, plant.dayStartMs + 12.25 * HOUR, 0, 12],
    ]);
    // Two readings between them: one stretch holding those two.
    s.readings = s.readings.filter((x) => x.ts !== plant.dayStartMs + 11 * HOUR + 10 * 60_000);
    expect(detectGaps(s, plant).map((f) => [f.fromMs, f.toMs, f.readings, f.detail.missing])).toEqual([
      [plant.dayStartMs + 10 * HOUR, plant.dayStartMs + 12.25 * HOUR, 2, 25],
    ]);
  });
});
