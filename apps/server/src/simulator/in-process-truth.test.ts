import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as simulator from '@solar/simulator';
import { createTestApp, type TestApp } from '../test/test-app';
import { demoDataFaultSchedule, startInProcessSimulator } from './in-process-simulator';
import type { InProcessSimulator } from './in-process-simulator';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const STEP = 15 * MIN;

/** Stored raw points of the signals with this key on one device, by time. */
async function storedSeries(t: TestApp, deviceId: number, key: string): Promise<Map<number, number>> {
  const rows = await t.ctx.db
    .selectFrom('telemetry_raw')
    .innerJoin('signals', 'signals.id', 'telemetry_raw.signal_id')
    .select(['telemetry_raw.ts', 'telemetry_raw.value'])
    .where('signals.device_id', '=', deviceId)
    .where('signals.key', '=', key)
    .orderBy('telemetry_raw.ts')
    .execute();
  return new Map(rows.map((r) => [Number(r.ts), Number(r.value)]));
}

describe('in-process simulator: ground truth and one weather per field', () => {
  let t: TestApp;
  let sim: InProcessSimulator;
  let endMs = 0;
  beforeAll(async () => {
    t = await createTestApp();
    sim = await startInProcessSimulator(t.ctx, t.app.log, {
      simulator,
      backfillDays: 1,
      intervalMs: 60_000,
      backfillStepMs: STEP,
      schedule: () => [],
      dataFaults: (end) => {
        endMs = end;
        return [
          {
            plant: 0,
            device: { type: 'weather_station', index: 0 },
            kind: 'stuck_sensor',
            signalKey: 'irradiance',
            fromMs: end - 20 * HOUR,
            toMs: end - 14 * HOUR,
          },
          {
            plant: 0,
            device: { type: 'inverter', index: 0 },
            kind: 'counter_reset',
            signalKey: 'total_energy',
            fromMs: end - 12 * HOUR,
            toMs: end - 12 * HOUR,
          },
          // Before the history: left out.
          {
            plant: 0,
            device: { type: 'inverter', index: 1 },
            kind: 'spikes',
            signalKey: 'ac_power',
            fromMs: end - 3 * DAY,
            toMs: end - 2 * DAY,
          },
        ];
      },
    });
    await sim.backfilled;
    await sim.stop();
  });
  afterAll(() => t.close());

  it('records the injected faults with their devices and periods, leaving out those before the history', () => {
    const truth = sim.truth();
    expect(truth.length).toBe(6);
    const faults = truth[0]!.dataFaults;
    expect(faults.map((f) => [f.kind, f.reason])).toEqual([
      ['stuck_sensor', 'stale'],
      ['counter_reset', 'counter_reset'],
    ]);
    expect(faults[0]!.fromMs).toBe(endMs - 20 * HOUR);
    for (const plant of truth.slice(1)) expect(plant.dataFaults).toEqual([]);
    // Degradation and soiling are known for every plant.
    for (const plant of truth) {
      expect(Object.keys(plant.degradationPerYear).length).toBeGreaterThan(0);
      expect(plant.soilingRatio(endMs)).toBeLessThanOrEqual(1);
      expect(plant.commissionedMs).toBeLessThan(endMs);
    }
  });

  it('stores a stuck irradiance sensor as one repeated value within the period only', async () => {
    const fault = sim.truth()[0]!.dataFaults[0]!;
    const series = await storedSeries(t, Number(fault.deviceId), 'irradiance');
    const inside = [...series].filter(([ts]) => ts >= fault.fromMs && ts < fault.toMs).map(([, v]) => v);
    expect(inside.length).toBeGreaterThanOrEqual(20);
    expect(new Set(inside).size).toBe(1);
  });

  it("stores the counter reset at its time: the inverter's counter restarts from 0", async () => {
    const fault = sim.truth()[0]!.dataFaults[1]!;
    const series = await storedSeries(t, Number(fault.deviceId), 'total_energy');
    const [resetAt] = fault.instantsMs;
    expect(resetAt).toBeGreaterThanOrEqual(fault.fromMs);
    expect(series.get(resetAt!)).toBe(0);
    expect(series.get(resetAt! - STEP)!).toBeGreaterThan(1000);
  });

  it('gives the two plants of the Karapınar field the same sky: their pyranometers agree at every sample', async () => {
    const plants = await t.ctx.db.selectFrom('plants').select(['id', 'field_id']).orderBy('id').execute();
    const [a, b] = plants;
    expect(a!.field_id).toBe(b!.field_id);
    const stationOf = async (plantId: number) =>
      (
        await t.ctx.db
          .selectFrom('devices')
          .select('id')
          .where('plant_id', '=', plantId)
          .where('type', '=', 'weather_station')
          .executeTakeFirstOrThrow()
      ).id;
    const sa = await storedSeries(t, await stationOf(a!.id), 'irradiance');
    const sb = await storedSeries(t, await stationOf(b!.id), 'irradiance');
    const stuck = sim.truth()[0]!.dataFaults[0]!;
    let compared = 0;
    for (const [ts, va] of sa) {
      const vb = sb.get(ts);
      if (vb === undefined || va < 100 || (ts >= stuck.fromMs && ts < stuck.toMs)) continue;
      compared++;
      // Same cloud at the same minute: only tilt (30° against 28°) and sensor noise differ.
      expect(Math.abs(vb - va) / va).toBeLessThan(0.08);
    }
    expect(compared).toBeGreaterThan(5);
  });

  it("schedules the demo's data faults on one plant only, within a month of history", () => {
    const end = Date.UTC(2026, 10, 29, 9);
    const schedule = demoDataFaultSchedule(end);
    expect(new Set(schedule.map((f) => f.plant))).toEqual(new Set([2]));
    expect(new Set(schedule.map((f) => f.kind))).toEqual(new Set(simulator.DATA_FAULT_KINDS));
    for (const f of schedule) {
      expect(f.fromMs).toBeGreaterThan(end - 30 * DAY);
      expect(f.toMs).toBeLessThan(end);
    }
  });
});
