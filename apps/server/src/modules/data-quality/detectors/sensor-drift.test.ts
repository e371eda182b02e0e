import { describe, expect, it } from 'vitest';
import { detectSensorDrift, theilSen } from './sensor-drift';
import { konyaDay, poaSeries, powerSeries } from './synthetic-day';
import type { PlantDay, SignalSeries } from './types';

const DAY = 86_400_000;
/** Days of history before the checked day. */
const DAYS = 20;

/**
 * A checked day and the 20 days before it on a clear spring sky: one POA sensor and two 500 kW inverters
 * of 600 kWp each (so no clipping: PR 0.85 keeps them below 90 %). `sensor(n)` and `power(n)` scale the
 * readings of the day n days before the checked one (0: the checked day); each day also carries a small
 * fixed day-to-day wobble of ±0.4 % on the power (weather, temperature).
 */
function scenario(sensor: (n: number) => number, power: (n: number) => number) {
  const plant = konyaDay('2026-04-15');
  const dayOf = (n: number): PlantDay => ({
    ...plant,
    dayStartMs: plant.dayStartMs - n * DAY,
    dayEndMs: plant.dayEndMs - n * DAY,
  });
  const wobble = (n: number) => 1 + 0.004 * Math.sin(n * 2.1);
  const build = (n: number) => {
    const d = dayOf(n);
    const g = poaSeries(d);
    g.readings.forEach((r) => (r.value *= sensor(n)));
    const inverters = [1, 2].map((i) => powerSeries(d, 600, 500, { signalId: 10 * i, deviceId: i }));
    for (const s of inverters) s.readings.forEach((r) => (r.value *= power(n) * wobble(n)));
    return [g, ...inverters];
  };
  const today = build(0);
  const history: SignalSeries[] = today.map((s) => ({ ...s, readings: [] }));
  for (let n = DAYS; n >= 1; n--) build(n).forEach((s, i) => history[i]!.readings.push(...s.readings));
  return { plant, irradiance: today[0]!, power: today.slice(1), history };
}

const run = (s: ReturnType<typeof scenario>) => detectSensorDrift(s.irradiance, s.power, s.plant, s.history);

describe('irradiance sensor drift over days', () => {
  it('finds nothing on a steady plant and sensor', () => {
    expect(
      run(
        scenario(
          () => 1,
          () => 1,
        ),
      ),
    ).toEqual([]);
  });

  it('flags a sensor that reads 1.5 % lower each of the last days (dirt on its dome)', () => {
    const flags = run(
      scenario(
        (n) => (n <= 3 ? 1 - 0.015 * (4 - n) : 1),
        () => 1,
      ),
    );
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ reason: 'irradiance_power_drift', signalId: 100 });
    // Day 0 reads 6 % low: the ratio is 1/0.94 of the baseline.
    expect(flags[0]!.detail.risePct).toBeGreaterThan(5);
    expect(flags[0]!.detail.risePct).toBeLessThan(8);
    expect(flags[0]!.detail.slopePctPerDay).toBeGreaterThan(1);
    expect(flags[0]!.detail.days).toBe(DAYS - 2);
    expect(flags[0]!.fromMs).toBeGreaterThanOrEqual(
      scenario(
        () => 1,
        () => 1,
      ).plant.dayStartMs,
    );
  });

  it('does not flag soiled modules: the power falls, the sensor is right, the ratio falls', () => {
    expect(
      run(
        scenario(
          () => 1,
          (n) => (n <= 3 ? 1 - 0.015 * (4 - n) : 1),
        ),
      ),
    ).toEqual([]);
  });

  it('does not flag a rain that washed the modules: the ratio rose in one step, not day after day', () => {
    expect(
      run(
        scenario(
          () => 1,
          (n) => (n <= 2 ? 1.06 : 1),
        ),
      ),
    ).toEqual([]);
  });

  it('leaves a day far from the rest (a replayed or stuck sensor) out of the comparison', () => {
    // Yesterday's sensor read half (a replayed cloudy day): compared, its ratio would break the climb.
    const dirt = (n: number) => (n === 1 ? 0.5 : n <= 3 ? 1 - 0.015 * (4 - n) : 1);
    const flags = run(scenario(dirt, () => 1));
    expect(flags.map((f) => f.reason)).toEqual(['irradiance_power_drift']);
    expect(flags[0]!.detail.days).toBe(DAYS - 3);
  });

  it('does not judge without a baseline of earlier days', () => {
    const s = scenario(
      (n) => (n <= 3 ? 1 - 0.015 * (4 - n) : 1),
      () => 1,
    );
    expect(detectSensorDrift(s.irradiance, s.power, s.plant, [])).toEqual([]);
  });

  it('Theil–Sen: the median pairwise slope, robust to one outlier', () => {
    expect(theilSen([0, 1, 2, 3, 4], [0, 1, 2, 30, 4])).toBe(1);
  });
});
