import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantKpisAnswer } from '@solar/shared';
import { makeUser, save, type TestUser } from '../../test/org-fixtures';
import {
  istanbulDate,
  istanbulInstant,
  makePlantWithDay,
  MORNING,
  morningPoints,
  PLANT_DAY_KWP,
  type PlantWithDay,
  type TelemetryPoint,
} from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY = 86_400_000;
/** The meter exports what the two inverters make: 2 × 3.5 kWh per 5-minute interval. */
const STEP_KWH = 3.5;
const METER_STEP_KWH = 2 * STEP_KWH;
const JUMP_KWH = 80;
/** 24 intervals of 800 W/m² for 5 minutes: 1.6 kWh/m². */
const IRRADIATION = (MORNING.intervals * MORNING.poaWm2 * (5 / 60)) / 1000;

/**
 * A plant whose meter counter jumps 80 kWh in 41 s in the middle of a morning (a restart that rewrites
 * the register), and a day whose meter claims more than the plant's 100 kW AC can deliver in a day: the KPI
 * answers count neither as production, and say what they excluded and why.
 */
describe(`kpi excluded energy (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: PlantWithDay;
  let meterExport: number;
  const now = Date.now();
  const d1 = istanbulDate(now - 3 * DAY);
  const d2 = istanbulDate(now - 2 * DAY);

  const kpis = async (query: Record<string, string>) => {
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/kpis`, { token: admin.token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlantKpisAnswer>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'Excluded' });
    const meter = (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: plant.tree.plantId,
        name: 'METER-1',
        type: 'meter',
        protocol: 'http',
        poll_interval_s: 300,
      })
    ).id;
    meterExport = await plant.addSignal(meter, 'export_energy', true);

    const day = (date: string) => ({ date, stepKwh: [STEP_KWH, STEP_KWH] as const });
    const points: TelemetryPoint[] = morningPoints(plant, [day(d1), day(d2)]);
    // Day 1: the meter follows the inverters, read every 5 minutes from 10:00 to 12:00; 41 s after the
    // 11:00 reading it has jumped 80 kWh (7 MW on a 100 kW plant) and counts on from there.
    // The 11:00 reading itself arrives last, after its successors (a logger's backlog): the store then
    // recomputes the counter's buckets from raw, and must judge the steps the same way.
    let late: TelemetryPoint | undefined;
    let counter = 50_000;
    for (let i = 0; i <= MORNING.intervals; i++) {
      const ts = istanbulInstant(d1, MORNING.startMinute + 5 * i);
      if (i > 0) counter += METER_STEP_KWH;
      if (i === 12) late = { signal_id: meterExport, ts, value: counter };
      else points.push({ signal_id: meterExport, ts, value: counter });
      if (i === 12) {
        counter += JUMP_KWH;
        points.push({ signal_id: meterExport, ts: ts + 41_000, value: counter });
      }
    }
    // Day 2: 10.5 kWh every 5 minutes all day and night, each step within what 100 kW can make in 5
    // minutes (12 kWh with the margin), but 3,024 kWh in a day the sun shines about 10 hours of.
    for (let i = 0; i <= 288; i++) {
      const ts = istanbulInstant(d2, 5 * i);
      if (i > 0) counter += 10.5;
      points.push({
        signal_id: meterExport,
        ts: Math.min(ts, istanbulInstant(d2, 24 * 60) - 1),
        value: counter,
      });
    }
    await plant.ingest(points);
    await plant.ingest([late!]);
  });
  afterAll(() => t.close());

  it('counts the day without the jump, and says 80 kWh were excluded as counter_jump', async () => {
    const k = await kpis({ period: 'day', date: d1 });
    const energy = MORNING.intervals * METER_STEP_KWH; // 168
    expect(k.energy_source).toBe('meter');
    expect(k.energy_kwh).toBeCloseTo(energy, 6);
    expect(k.irradiation_kwh_m2).toBeCloseTo(IRRADIATION, 6);
    // PR as without the jump: 168 / 120 / 1.6 = 0.875 (with it, it would have been 1.29).
    expect(k.pr).toBeCloseTo(energy / PLANT_DAY_KWP / IRRADIATION, 6);
    expect(k.excluded_energy_kwh).toEqual({
      counter_jump: JUMP_KWH,
      day_energy_impossible: 0,
      replayed_day: 0,
      total: JUMP_KWH,
    });
  });

  it('reports an impossible day as excluded, not as production', async () => {
    const k = await kpis({ period: 'day', date: d2 });
    expect(k.energy_kwh).toBeNull();
    expect(k.pr).toBeNull();
    expect(k.excluded_energy_kwh.counter_jump).toBe(0);
    expect(k.excluded_energy_kwh.day_energy_impossible).toBeCloseTo(288 * 10.5, 6);
  });

  it('sums what a month excluded, per reason', async () => {
    const month = await kpis({ period: 'month', date: d1 });
    const sameMonth = d1.slice(0, 7) === d2.slice(0, 7);
    expect(month.excluded_energy_kwh.counter_jump).toBeCloseTo(JUMP_KWH, 6);
    if (sameMonth) {
      expect(month.excluded_energy_kwh.day_energy_impossible).toBeCloseTo(288 * 10.5, 6);
      expect(month.excluded_energy_kwh.total).toBeCloseTo(JUMP_KWH + 288 * 10.5, 6);
      expect(month.energy_kwh).toBeCloseTo(MORNING.intervals * METER_STEP_KWH, 6);
    }
  });
});
