import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRecord, DeviceStringsAnswer } from '@solar/shared';
import { makeUser, pairs, type TestUser } from '../../test/org-fixtures';
import { istanbulDate, istanbulInstant, makePlantWithDay, type PlantWithDay } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { StringHealthService } from './string-health.service';

const DAY_MS = 86_400_000;
const STRINGS = 6;
const FAULTY = 3;

/**
 * INV-01 of the hand-worked plant gets six strings (current and voltage) and reports them every 5 minutes
 * from 06:00 to 18:00 of an Istanbul day, with the weather station's irradiance a sine peaking at
 * 1000 W/m² at noon; string 3 reads 0.05 A from 10:00 to 13:00 (an open string) while its siblings carry
 * about 9 A at 1000 W/m². The engine, run at 12:00 and at 15:00 of that day, raises and clears its alarm.
 */
describe(`string health engine, alarm and API (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: PlantWithDay;
  let operator: TestUser;
  let outsider: TestUser;
  let noDashboard: TestUser;
  let service: StringHealthService;
  const day = istanbulDate(Date.now() - 5 * DAY_MS);
  const at = (h: number, m = 0) => istanbulInstant(day, h * 60 + m);
  const currents: number[] = [];
  /** The energy string 3 lost, worked out from the currents posted: (median of the others − 0.05 A) × 600 V. */
  let truthKwh = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'Strings' });
    const other = await makePlantWithDay(t, admin, { name: 'Other strings' });
    const inv = plant.inverters[0];
    const voltages: number[] = [];
    for (let n = 1; n <= STRINGS; n++) {
      currents.push(await plant.addSignal(inv, `string${n}_dc_current`));
      voltages.push(await plant.addSignal(inv, `string${n}_dc_voltage`));
    }
    const points = [];
    for (let m = 6 * 60; m <= 18 * 60; m += 5) {
      const ts = istanbulInstant(day, m);
      const g = 1000 * Math.sin((Math.PI * (m - 360)) / 720);
      points.push({ signal_id: plant.signals.poa, ts, value: g });
      const values = Array.from({ length: STRINGS }, (_, k) => (9 * g * (1 + 0.01 * (k - 2.5))) / 1000);
      const open = ts >= at(10) && ts < at(13);
      if (open) {
        const others = values.filter((_, k) => k !== FAULTY - 1).sort((a, b) => a - b);
        // Six strings: the median is the mean of the 3rd and 4th values of all six, the open one lowest.
        const sorted = [0.05, ...others];
        const median = (sorted[2]! + sorted[3]!) / 2;
        truthKwh += ((median - 0.05) * 600 * (5 / 60)) / 1000;
        values[FAULTY - 1] = 0.05;
      }
      values.forEach((value, k) => {
        points.push({ signal_id: currents[k]!, ts, value });
        points.push({ signal_id: voltages[k]!, ts, value: 600 });
      });
    }
    await plant.ingest(points);
    await t.background()?.alarms;
    service = new StringHealthService(t.ctx);
    operator = await makeUser(t, {
      companyId: plant.tree.companyId,
      permissions: pairs(['dashboard', 'alarm']),
    });
    outsider = await makeUser(t, {
      companyId: other.tree.companyId,
      permissions: pairs(['dashboard', 'alarm']),
    });
    noDashboard = await makeUser(t, { companyId: plant.tree.companyId, permissions: pairs(['alarm']) });
  });
  afterAll(() => t.close());

  const stringAlarms = async () => {
    const res = await t.http.get('/api/alarms', {
      token: operator.token,
      query: { device_id: String(plant.inverters[0]) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AlarmRecord[]>().filter((a) => a.message.startsWith('alarms.msg.stringFault'));
  };

  it('raises an alarm on the inverter naming the open string, and clears it when the string recovers', async () => {
    expect(await stringAlarms()).toEqual([]);
    const noon = await service.evaluate(t.ctx.alarmEngine, at(12));
    // The demo's inverter with strings is judged too (it has no readings here): at least this one.
    expect(noon.inverters).toBeGreaterThanOrEqual(1);
    expect(noon.open).toBe(1);
    const [raised, ...more] = await stringAlarms();
    expect(more).toEqual([]);
    expect(raised).toMatchObject({
      device_id: plant.inverters[0],
      tag_id: currents[FAULTY - 1],
      source: 'performance',
      message: 'alarms.msg.stringFault',
      started_at: new Date(at(10)).toISOString(),
      cleared_at: null,
    });
    expect(raised!.message_params).toMatchObject({ string: FAULTY, ratio: 1 });
    // Lost so far (10:00 to 12:00): about two thirds of the whole fault's loss, whose peak is at noon.
    expect(raised!.message_params.energy).toBeGreaterThan(0.5 * truthKwh);
    expect(raised!.message_params.energy).toBeLessThan(0.8 * truthKwh);
    // Judged again, the same fault raises nothing more.
    await service.evaluate(t.ctx.alarmEngine, at(12, 30));
    expect(await stringAlarms()).toHaveLength(1);

    expect((await service.evaluate(t.ctx.alarmEngine, at(15))).open).toBe(0);
    const [cleared] = await stringAlarms();
    expect(cleared).toMatchObject({ id: raised!.id, cleared_at: new Date(at(13)).toISOString() });
  });

  it("answers the day's strings, their ratios and the fault with its energy lost", async () => {
    const res = await t.http.get(`/api/devices/${plant.inverters[0]}/strings`, {
      token: operator.token,
      query: { date: day },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<DeviceStringsAnswer>();
    expect(answer).toMatchObject({ device_id: plant.inverters[0], time_zone: 'Europe/Istanbul', date: day });
    expect(answer.intervals).toHaveLength(96);
    expect(answer.intervals[0]).toBe(new Date(at(0)).toISOString());
    expect(answer.strings.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6]);
    const s3 = answer.strings[2]!;
    const slot = (h: number) => h * 4;
    // Night: no data is null, not zero; and no judgement.
    expect(s3.current_a[slot(3)]).toBeNull();
    expect(s3.ratio[slot(3)]).toBeNull();
    // 06:00–07:00 has data but too little light to judge.
    expect(s3.current_a[slot(6) + 2]).toBeGreaterThan(0);
    expect(s3.ratio[slot(6) + 2]).toBeNull();
    expect(s3.current_a[slot(11)]).toBeCloseTo(0.05, 3);
    expect(s3.ratio[slot(11)]).toBeLessThan(0.01);
    expect(answer.strings[0]!.ratio[slot(11)]).toBeGreaterThan(0.95);
    expect(answer.faults).toHaveLength(1);
    const [fault] = answer.faults;
    expect(fault).toMatchObject({
      n: FAULTY,
      from: new Date(at(10)).toISOString(),
      to: new Date(at(13)).toISOString(),
    });
    // 5-minute means of the same points: the loss within 1 % of the hand-worked truth.
    expect(Math.abs(fault!.energy_lost_kwh! - truthKwh) / truthKwh).toBeLessThan(0.01);
  });

  it('refuses what it must: 401, 403, 404 outside the company or for another device type, 400 for a bad date', async () => {
    const url = `/api/devices/${plant.inverters[0]}/strings`;
    expect((await t.http.get(url)).statusCode).toBe(401);
    expect((await t.http.get(url, { token: noDashboard.token })).statusCode).toBe(403);
    expect((await t.http.get(url, { token: outsider.token })).statusCode).toBe(404);
    const station = await t.http.get(`/api/devices/${plant.weatherStation}/strings`, {
      token: operator.token,
    });
    expect(station.statusCode).toBe(404);
    const bad = await t.http.get(url, { token: operator.token, query: { date: '2026-02-30' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('validation.');
    // An inverter without strings answers its day with none.
    const inv2 = await t.http.get(`/api/devices/${plant.inverters[1]}/strings`, {
      token: operator.token,
      query: { date: day },
    });
    expect(inv2.statusCode, inv2.body).toBe(200);
    expect(inv2.json<DeviceStringsAnswer>()).toMatchObject({ strings: [], faults: [] });
  });
});
