import { describe, expect, it } from 'vitest';
import { detectReplayedDays } from './replay';
import { FIVE_MIN, HOUR, konyaDay, poaSeries, powerSeries } from './synthetic-day';
import type { PlantDay, PlantDayInput, SignalSeries } from './types';

const DAY = 86_400_000;

/** Yesterday's series moved onto today's clock (+ offsetMs): what a replaying logger sends. */
function replayed(yesterday: SignalSeries, plant: PlantDay, offsetMs = 0): SignalSeries {
  return {
    ...yesterday,
    readings: yesterday.readings
      .map((r) => ({ ts: r.ts + DAY + offsetMs, value: r.value }))
      .filter((r) => r.ts >= plant.dayStartMs && r.ts < plant.dayEndMs),
  };
}

describe('replayed days', () => {
  const today = konyaDay('2026-04-15');
  const yesterday = konyaDay('2026-04-14');
  const input = (series: SignalSeries[], earlier: SignalSeries[]): PlantDayInput => ({
    plant: today,
    series,
    earlierDays: [{ dayStartMs: yesterday.dayStartMs, series: earlier }],
    neighbours: [],
  });

  it('finds nothing when two clear days follow each other', () => {
    expect(
      detectReplayedDays(input([powerSeries(today, 240, 200)], [powerSeries(yesterday, 240, 200)])),
    ).toEqual([]);
    expect(detectReplayedDays(input([poaSeries(today)], [poaSeries(yesterday)]))).toEqual([]);
  });

  it("flags today's power when it is yesterday's readings again", () => {
    const old = powerSeries(yesterday, 240, 200);
    const flags = detectReplayedDays(input([replayed(old, today)], [old]));
    expect(flags).toEqual([
      expect.objectContaining({
        reason: 'replayed_day',
        signalId: 10,
        fromMs: today.dayStartMs,
        toMs: today.dayEndMs,
      }),
    ]);
    expect(flags[0]!.detail).toMatchObject({ daysBack: 1, offsetMinutes: 0 });
    expect(flags[0]!.detail.matchedReadings).toBeGreaterThan(100);
  });

  it('flags a replay shifted by an hour and tells the offset, two days back', () => {
    const twoBack = konyaDay('2026-04-13');
    const old = poaSeries(twoBack);
    const copy = {
      ...old,
      readings: old.readings.map((r) => ({ ts: r.ts + 2 * DAY + HOUR, value: r.value })),
    };
    const flags = detectReplayedDays({
      plant: today,
      series: [copy],
      earlierDays: [
        { dayStartMs: yesterday.dayStartMs, series: [poaSeries(yesterday)] },
        { dayStartMs: twoBack.dayStartMs, series: [old] },
      ],
      neighbours: [],
    });
    expect(flags.map((f) => f.detail)).toEqual([
      { daysBack: 2, offsetMinutes: 60, matchedReadings: expect.any(Number) },
    ]);
  });

  it('does not flag a counter, whose quantised steps repeat on similar days', () => {
    const flat = (plant: PlantDay): SignalSeries => ({
      ...powerSeries(plant, 240, 200),
      kind: 'energy_counter',
      readings: Array.from({ length: 288 }, (_, i) => ({
        ts: plant.dayStartMs + i * FIVE_MIN,
        value: 1000 + i,
      })),
    });
    expect(detectReplayedDays(input([flat(today)], [flat(yesterday)]))).toEqual([]);
  });

  it('does not flag a setpoint or status that holds a few values every day', () => {
    const held = (plant: PlantDay): SignalSeries => ({
      ...powerSeries(plant, 240, 200),
      kind: 'other',
      // A power limit at 100 % that steps to 60 % for an hour at noon, alike on both days.
      readings: Array.from({ length: 288 }, (_, i) => ({
        ts: plant.dayStartMs + i * FIVE_MIN,
        value: i >= 144 && i < 156 ? 60 : 100,
      })),
    });
    expect(detectReplayedDays(input([held(today)], [held(yesterday)]))).toEqual([]);
  });
});
