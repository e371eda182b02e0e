import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRecord, DeviceStringsAnswer } from '@solar/shared';
import { makeUser, pairs, save, type TestUser } from '../../test/org-fixtures';
import { istanbulDate, istanbulInstant, makePlantWithDay, type PlantWithDay } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { StringHealthService } from './string-health.service';

const DAY_MS = 86_400_000;
const STRINGS = 6;
/** Every string of the low inverter carries this share of its peers' current from 10:00 to 13:00. */
const LOW_SHARE = 0.55;

/**
 * Three inverters of one plant with the same rating and six strings each, reporting every 5 minutes from
 * 06:00 to 18:00 under a sine sky (1000 W/m² at noon). Every string of the second carries 55 % from 10:00 to
 * 13:00, a fault common to the inverter (all its strings soiled alike, or a DC-side fault): its own median
 * falls with its strings, so only the plant-wide median of strings of the same configuration finds it.
 */
describe(`string health against the plant's strings (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let operator: TestUser;
  let plant: PlantWithDay;
  let inverters: number[];
  let service: StringHealthService;
  const day = istanbulDate(Date.now() - 5 * DAY_MS);
  const at = (h: number, m = 0) => istanbulInstant(day, h * 60 + m);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'Plant strings' });
    const third = await save(t, admin.token, '/api/devices/0', {
      plant_id: plant.tree.plantId,
      protocol: 'http',
      poll_interval_s: 300,
      name: 'INV-03',
      type: 'inverter',
      rated_power_kw: 50,
    });
    inverters = [...plant.inverters, third.id];
    const currents = new Map<number, number[]>();
    for (const inv of inverters) {
      const ids: number[] = [];
      for (let n = 1; n <= STRINGS; n++) ids.push(await plant.addSignal(inv, `string${n}_dc_current`));
      currents.set(inv, ids);
      await plant.addSignal(inv, 'dc_voltage');
    }
    const voltage = new Map<number, number>();
    for (const inv of inverters) {
      const list = (
        await t.http.get('/api/signals', {
          token: admin.token,
          query: { device_id: String(inv), q: 'dc_voltage' },
        })
      ).json<{ items: { id: number; key: string }[] }>();
      voltage.set(inv, list.items.find((s) => s.key === 'dc_voltage')!.id);
    }
    const points = [];
    for (let m = 6 * 60; m <= 18 * 60; m += 5) {
      const ts = istanbulInstant(day, m);
      const g = 1000 * Math.sin((Math.PI * (m - 360)) / 720);
      points.push({ signal_id: plant.signals.poa, ts, value: g });
      inverters.forEach((inv, i) => {
        const low = i === 1 && ts >= at(10) && ts < at(13);
        currents.get(inv)!.forEach((id, k) => {
          const current = (9 * g * (1 + 0.01 * (k - 2.5 + i))) / 1000;
          points.push({ signal_id: id, ts, value: low ? LOW_SHARE * current : current });
        });
        points.push({ signal_id: voltage.get(inv)!, ts, value: 600 });
      });
    }
    await plant.ingest(points);
    await t.background()?.alarms;
    service = new StringHealthService(t.ctx);
    operator = await makeUser(t, {
      companyId: plant.tree.companyId,
      permissions: pairs(['dashboard', 'alarm']),
    });
  });
  afterAll(() => t.close());

  const alarmsOf = async (device: number) => {
    const res = await t.http.get('/api/alarms', {
      token: operator.token,
      query: { device_id: String(device) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AlarmRecord[]>().filter((a) => a.message.startsWith('alarms.msg.string'));
  };

  it('raises one alarm on the inverter whose strings are all low, which its own median cannot see', async () => {
    const noon = await service.evaluate(t.ctx.alarmEngine, at(12));
    expect(noon.open).toBe(1);
    expect(await alarmsOf(inverters[0]!)).toEqual([]);
    expect(await alarmsOf(inverters[2]!)).toEqual([]);
    const [raised, ...more] = await alarmsOf(inverters[1]!);
    expect(more).toEqual([]);
    expect(raised).toMatchObject({
      device_id: inverters[1],
      tag_id: null,
      source: 'performance',
      message: 'alarms.msg.stringsPlantFault',
      started_at: new Date(at(10)).toISOString(),
      cleared_at: null,
    });
    expect(raised!.message_params).toMatchObject({ count: STRINGS, total: STRINGS });
    expect(raised!.message_params.ratio).toBeGreaterThanOrEqual(53);
    expect(raised!.message_params.ratio).toBeLessThanOrEqual(57);
    expect(raised!.message_params.energy).toBeGreaterThan(0);
    await service.evaluate(t.ctx.alarmEngine, at(12, 30));
    expect(await alarmsOf(inverters[1]!)).toHaveLength(1);
    expect((await service.evaluate(t.ctx.alarmEngine, at(15))).open).toBe(0);
    const [cleared] = await alarmsOf(inverters[1]!);
    expect(cleared).toMatchObject({ id: raised!.id, cleared_at: new Date(at(13)).toISOString() });
  });

  it("answers each string's ratio to the plant's strings beside its ratio to its own inverter's", async () => {
    const answer = async (device: number) => {
      const res = await t.http.get(`/api/devices/${device}/strings`, {
        token: operator.token,
        query: { date: day },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DeviceStringsAnswer>();
    };
    const low = await answer(inverters[1]!);
    expect(low.plant_peers).toEqual({ inverters: 3, strings: 3 * STRINGS });
    expect(low.faults).toEqual([]);
    expect(low.plant_faults.map((f) => f.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(low.plant_faults[0]).toMatchObject({
      from: new Date(at(10)).toISOString(),
      to: new Date(at(13)).toISOString(),
    });
    const slot = 11 * 4;
    for (const s of low.strings) {
      expect(s.ratio[slot]).toBeGreaterThan(0.95);
      expect(s.plant_ratio[slot]).toBeGreaterThan(LOW_SHARE - 0.03);
      expect(s.plant_ratio[slot]).toBeLessThan(LOW_SHARE + 0.03);
      expect(s.plant_ratio[3 * 4]).toBeNull();
    }
    const healthy = await answer(inverters[0]!);
    expect(healthy.plant_faults).toEqual([]);
    expect(healthy.strings[0]!.plant_ratio[slot]).toBeGreaterThan(0.9);
  });

  it('has no plant-wide reference for an inverter with fewer than two peers like it', async () => {
    await save(t, admin.token, `/api/devices/${inverters[2]}`, {
      plant_id: plant.tree.plantId,
      protocol: 'http',
      poll_interval_s: 300,
      name: 'INV-03',
      type: 'inverter',
      rated_power_kw: 60,
    });
    const res = await t.http.get(`/api/devices/${inverters[1]}/strings`, {
      token: operator.token,
      query: { date: day },
    });
    const answer = res.json<DeviceStringsAnswer>();
    expect(answer).toMatchObject({ plant_peers: null, plant_faults: [] });
    expect(answer.strings[0]!.plant_ratio.every((r) => r === null)).toBe(true);
  });
});
