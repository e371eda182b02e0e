import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataQualityFlag, PlantKpisAnswer } from '@solar/shared';
import { makeUser, type TestUser } from '../../test/org-fixtures';
import {
  istanbulDate,
  istanbulInstant,
  makePlantWithDay,
  MORNING,
  PLANT_DAY_KWP,
  type PlantWithDay,
  type TelemetryPoint,
} from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY = 86_400_000;
const MIN = 60_000;
const STEP_KWH = 3.5;
const MORNING_KWH = MORNING.intervals * STEP_KWH; // 84 kWh per inverter
/** 24 intervals of 800 W/m² for 5 minutes: 1.6 kWh/m². */
const IRRADIATION = (MORNING.intervals * MORNING.poaWm2 * (5 / 60)) / 1000;

/**
 * A logger replays INV-01's first morning on the next day: its AC power repeats the earlier readings at the
 * same times, and its lifetime counter steps back to the earlier morning's start and climbs the same steps
 * again. Each step is plausible, so the telemetry store counts them: until the data-quality engine finds the
 * replay, the day's energy holds INV-01's 84 kWh twice over two days. Once the replayed_day flag is stored,
 * the KPIs leave that energy out and say so; accepted, it counts again.
 */
describe(`kpi replayed day (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: PlantWithDay;
  let inv1Power: number;
  // Five and six days ago: neither the data-quality job's yesterday nor its today, whatever the hour.
  const d1 = istanbulDate(Date.now() - 6 * DAY);
  const d2 = istanbulDate(Date.now() - 5 * DAY);

  const dayKpis = async () => {
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: d2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlantKpisAnswer>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'Replayed' });
    // The tree's own signal: INV-01's AC power in kW.
    inv1Power = plant.tree.signalId;
    const points: TelemetryPoint[] = [];
    const { totals, poa, moduleTemperature } = plant.signals;
    // Lifetime counters far from zero, as real ones are: a step back to the replayed start is then no reset.
    const counters = [50_000, 60_000];
    /** INV-01's power as a real morning reads it: varying, never repeating itself. */
    const power = (i: number) => Math.round((40 + 3 * Math.sin(i * 1.3) + i * 0.17) * 100) / 100;
    for (const date of [d1, d2]) {
      for (let i = 0; i <= MORNING.intervals; i++) {
        const ts = istanbulInstant(date, MORNING.startMinute + 5 * i);
        // INV-01 on d2 is the logger's replay of d1: the same counter values and the same power.
        points.push({ signal_id: totals[0], ts, value: counters[0]! + i * STEP_KWH });
        points.push({ signal_id: inv1Power, ts, value: power(i) });
        points.push({
          signal_id: totals[1],
          ts,
          value: counters[1]! + (date === d2 ? MORNING_KWH : 0) + i * STEP_KWH,
        });
        if (i > 0) {
          // The station's first morning reads 1 W/m² less: only INV-01 is replayed, not the irradiance.
          const poaWm2 = date === d1 ? MORNING.poaWm2 - 1 : MORNING.poaWm2;
          points.push({ signal_id: poa, ts: ts + MIN, value: poaWm2 });
          points.push({ signal_id: moduleTemperature, ts: ts + MIN, value: MORNING.moduleTemperatureC });
        }
      }
    }
    await plant.ingest(points);
  });
  afterAll(() => t.close());

  it('counts the replayed counter until the replay is found: each of its steps is plausible', async () => {
    const k = await dayKpis();
    expect(k.energy_kwh).toBeCloseTo(2 * MORNING_KWH, 6);
    expect(k.excluded_energy_kwh.replayed_day).toBe(0);
  });

  it('leaves the replayed device out once the engine flags it, and says how much and why', async () => {
    const recheck = await t.http.post(
      `/api/plants/${plant.tree.plantId}/data-quality/recheck`,
      { day: d2 },
      { token: admin.token },
    );
    expect(recheck.statusCode, recheck.body).toBe(200);
    // INV-01's power is flagged (and the station's constant module temperature, which carries no energy).
    const flags = await replayFlags();
    expect(flags.map((f) => [f.device_id, f.accepted_at])).toContainEqual([plant.inverters[0], null]);
    expect(flags.some((f) => f.device_id === plant.inverters[1])).toBe(false);

    const k = await dayKpis();
    expect(k.energy_source).toBe('inverters');
    expect(k.energy_kwh).toBeCloseTo(MORNING_KWH, 6);
    expect(k.pr).toBeCloseTo(MORNING_KWH / PLANT_DAY_KWP / IRRADIATION, 6);
    expect(k.excluded_energy_kwh.replayed_day).toBeCloseTo(MORNING_KWH, 6);
    expect(k.excluded_energy_kwh.total).toBeCloseTo(MORNING_KWH, 6);
    expect(k.excluded_energy_kwh.counter_jump).toBe(0);

    // The month sums it like the other reasons.
    const month = await t.http.get(`/api/plants/${plant.tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'month', date: d2 },
    });
    expect(month.json<PlantKpisAnswer>().excluded_energy_kwh.replayed_day).toBeCloseTo(MORNING_KWH, 6);
  });

  it('counts the energy again once an operator accepts the flag', async () => {
    const flag = (await replayFlags()).find((f) => f.signal_id === inv1Power);
    const accept = await t.http.post(
      `/api/data-quality/flags/${flag!.id}/accept`,
      { note: 'the logger re-sent a true day' },
      { token: admin.token },
    );
    expect(accept.statusCode, accept.body).toBe(200);
    const k = await dayKpis();
    expect(k.energy_kwh).toBeCloseTo(2 * MORNING_KWH, 6);
    expect(k.excluded_energy_kwh.replayed_day).toBe(0);
  });

  async function replayFlags(): Promise<DataQualityFlag[]> {
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/data-quality`, {
      token: admin.token,
      query: { from: d2, to: d2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ flags: DataQualityFlag[] }>().flags.filter((f) => f.reason === 'replayed_day');
  }
});
