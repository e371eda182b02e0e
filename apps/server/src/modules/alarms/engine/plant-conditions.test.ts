import { describe, expect, it } from 'vitest';
import { ALARM_PRIORITY } from '@solar/shared';
import { MSG } from './device-codes';
import {
  isFresh,
  judgePlant,
  noProductionHolds,
  noProductionKey,
  performanceKey,
  performanceVerdicts,
  type PlantConditionOptions,
  type PlantReadings,
  type Reading,
} from './plant-conditions';
import type { ConditionState } from './rule-eval';

const T0 = Date.UTC(2026, 5, 15, 10, 0, 0);
const INTERVAL_MS = 30_000;
const at = (value: number, ts = T0): Reading => ({ ts, value, intervalMs: INTERVAL_MS });

/** A plant of inverters 11, 12, 13 (10 kW each) and weather station 20. */
function plant(powerKw: number[], irradianceWm2: number | null, ts = T0): PlantReadings {
  return {
    plantId: 1,
    powerKw: new Map(powerKw.map((kw, i) => [11 + i, at(kw, ts)])),
    irradianceWm2: new Map(irradianceWm2 === null ? [] : [[20, at(irradianceWm2, ts)]]),
    ratedKw: new Map(powerKw.map((_, i) => [11 + i, 10])),
  };
}

const OPTIONS: PlantConditionOptions = {
  irradianceThresholdWm2: 200,
  noProductionDelayMs: 15 * 60_000,
  performanceThresholdPct: 15,
  performanceDelayMs: 30 * 60_000,
};

/** Judges the same readings at each time, carrying the states like the engine does. */
function run(readings: (now: number) => PlantReadings, times: number[], active = new Set<string>()) {
  const states = new Map<string, ConditionState>();
  const actions = [];
  for (const now of times) {
    const result = judgePlant(readings(now), states, (k) => active.has(k), now, OPTIONS);
    for (const [k, s] of result.states) states.set(k, s);
    actions.push(...result.actions);
  }
  return actions;
}

const minutes = (...m: number[]) => m.map((x) => T0 + x * 60_000);

describe('isFresh', () => {
  it('is fresh up to three expected intervals old, stale after', () => {
    expect(isFresh(at(1), T0 + 3 * INTERVAL_MS)).toBe(true);
    expect(isFresh(at(1), T0 + 3 * INTERVAL_MS + 1)).toBe(false);
    expect(isFresh(undefined, T0)).toBe(false);
  });
});

describe('noProductionHolds', () => {
  it('holds in sunshine when the inverters together give at most 1 % of their rating', () => {
    expect(noProductionHolds(plant([0.1, 0.1, 0.05], 600), T0, 200)).toEqual({
      holds: true,
      irradianceWm2: 600,
    });
    // 0.31 kW of 30 kW rated is just above 1 %.
    expect(noProductionHolds(plant([0.11, 0.1, 0.1], 600), T0, 200).holds).toBe(false);
  });

  it('does not hold at night or under thick cloud', () => {
    expect(noProductionHolds(plant([0, 0, 0], 150), T0, 200).holds).toBe(false);
  });

  it('cannot be judged without fresh irradiance or without a fresh inverter', () => {
    expect(noProductionHolds(plant([0, 0, 0], null), T0, 200).holds).toBeNull();
    const stale = plant([0, 0, 0], 600, T0 - 10 * 60_000);
    stale.irradianceWm2 = new Map([[20, at(600)]]);
    expect(noProductionHolds(stale, T0, 200).holds).toBeNull();
  });

  it('a negative reading (own consumption) does not cancel what the other inverters produce', () => {
    // 0.4 kW produced is above the 0.3 kW floor; summed with −0.5 it would fall below.
    expect(noProductionHolds(plant([-0.5, 0.2, 0.2], 600), T0, 200).holds).toBe(false);
  });
});

describe('performanceVerdicts', () => {
  it('marks an inverter more than the threshold below its peers’ median in daylight', () => {
    const verdicts = performanceVerdicts(plant([8, 10, 10], 700), T0, 15, 200);
    expect([...verdicts]).toEqual([
      [11, true],
      [12, false],
      [13, false],
    ]);
    // 9 kW is 10 % below: within the threshold.
    expect(performanceVerdicts(plant([9, 10, 10], 700), T0, 15, 200).get(11)).toBe(false);
  });

  it('at night every inverter is fine; with fewer than 3 reporting none can be judged', () => {
    expect([...performanceVerdicts(plant([0, 10, 10], 50), T0, 15, 200).values()]).toEqual([
      false,
      false,
      false,
    ]);
    expect([...performanceVerdicts(plant([0, 10], 700), T0, 15, 200).values()]).toEqual([null, null]);
  });

  it('without a weather station the peers’ median decides whether it is day', () => {
    expect(performanceVerdicts(plant([2, 10, 10], null), T0, 15, 200).get(11)).toBe(true);
  });

  it('a stale inverter is left out of the comparison', () => {
    const readings = plant([0, 10, 10, 10], 700);
    (readings.powerKw as Map<number, Reading>).set(11, at(0, T0 - 10 * 60_000));
    const verdicts = performanceVerdicts(readings, T0, 15, 200);
    expect(verdicts.has(11)).toBe(false);
    expect([...verdicts.values()]).toEqual([false, false, false]);
  });
});

describe('judgePlant', () => {
  it('raises no production once it held for the delay, with the irradiance, and clears when power returns', () => {
    const dark = run(() => plant([0, 0, 0], 650), minutes(0, 10, 14)).filter((a) => a.kind === 'raise');
    expect(dark).toEqual([]);
    const actions = run(
      (now) => (now < T0 + 20 * 60_000 ? plant([0, 0, 0], 650.4, now) : plant([5, 5, 5], 650, now)),
      minutes(0, 10, 15, 20),
    );
    expect(actions).toEqual([
      {
        kind: 'raise',
        key: noProductionKey(1),
        plantId: 1,
        deviceId: null,
        source: 'plant_no_production',
        priority: ALARM_PRIORITY.high,
        message: MSG.plantNoProduction,
        params: { irradiance: 650 },
        at: T0 + 15 * 60_000,
      },
      { kind: 'clear', key: noProductionKey(1), at: T0 + 20 * 60_000 },
    ]);
  });

  it('a short dip does not raise: the condition must hold without a break', () => {
    const actions = run(
      (now) => (now === T0 + 10 * 60_000 ? plant([5, 5, 5], 650, now) : plant([0, 0, 0], 650, now)),
      minutes(0, 10, 15, 20),
    );
    expect(actions.filter((a) => a.kind === 'raise')).toEqual([]);
  });

  it('raises underperformance on the weak inverter only after 30 minutes, medium priority', () => {
    const actions = run((now) => plant([7, 10, 10], 700, now), minutes(0, 29, 30, 31));
    expect(actions).toEqual([
      {
        kind: 'raise',
        key: performanceKey(11),
        plantId: 1,
        deviceId: 11,
        source: 'performance',
        priority: ALARM_PRIORITY.medium,
        message: MSG.underperformance,
        params: { threshold: 15 },
        at: T0 + 30 * 60_000,
      },
    ]);
  });

  it('an alarm stored before a restart is taken as raised: it clears, it is not raised again', () => {
    const active = new Set([performanceKey(11)]);
    const actions = run(
      (now) => (now < T0 + 5 * 60_000 ? plant([7, 10, 10], 700, now) : plant([10, 10, 10], 700, now)),
      minutes(0, 5),
      active,
    );
    expect(actions).toEqual([{ kind: 'clear', key: performanceKey(11), at: T0 + 5 * 60_000 }]);
  });

  it('silence judges nothing: stale data neither raises nor clears', () => {
    const active = new Set([noProductionKey(1)]);
    const actions = run(() => plant([0, 0, 0], 650, T0), minutes(0, 20, 40, 60), active);
    expect(actions).toEqual([]);
  });
});
