import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  CollectorsHealth,
  Device,
  IngestCountsAnswer,
  LatestValue,
  PlantKpisAnswer,
  PlantPowerAnswer,
  SignalList,
  SunspecApplyAnswer,
  SunspecDiscoverAnswer,
  SunspecTemplatesAnswer,
} from '@solar/shared';
import {
  startSunSpecServer,
  sunspecScaleFactors,
  type SunSpecServer,
  type SunSpecUnit,
} from '@solar/simulator';
import { modbusCollectorStatus } from '../../collectors/modbus/leased-poller';
import { startModbusPoller, type DeviceStateEvent } from '../../collectors/modbus/modbus-poller';
import { startFakeModbusServer, type FakeModbusServer } from '../../collectors/test/fake-modbus-server';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { quietLog as quiet, until as waitUntil } from '../../test/collector-helpers';

/** Polling waits of this file: Modbus rounds are slower than MQTT deliveries. */
const until = (check: () => boolean | Promise<boolean>, timeoutMs = 15_000) =>
  waitUntil(check, timeoutMs, 50);

const INVERTER: SunSpecUnit = {
  unitId: 1,
  kind: 'inverter',
  manufacturer: 'Example',
  model: 'INV-100',
  serial: 'S1',
  ratedPowerW: 100_000,
};
const METER: SunSpecUnit = { unitId: 2, kind: 'meter', manufacturer: 'Example', model: 'MTR', serial: 'S2' };
const WEATHER: SunSpecUnit = {
  unitId: 3,
  kind: 'weather',
  manufacturer: 'Example',
  model: 'WS',
  serial: 'S3',
};

/** What the server serves for `value` at scale factor `sf`, in kW/kWh: rounded to the register's resolution. */
const served = (value: number, sf: number) => (Math.round(value / 10 ** sf) * 10 ** sf) / 1000;

describe(`SunSpec over Modbus TCP (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let sim: SunSpecServer;
  let plain: FakeModbusServer;
  let inverter: Device;
  let meter: Device;

  beforeAll(async () => {
    // A failed discovery is answered at the deadline (sunspec-network.test.ts); a short one keeps this quick.
    t = await createTestApp({
      deviceNetworks: { extraAllowed: ['127.0.0.0/8'], cameraDeadlineMs: 1_000, modbusDeadlineMs: 1_000 },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'SunSpec');
    sim = await startSunSpecServer({ host: '127.0.0.1', port: 0, units: [INVERTER, METER, WEATHER] });
    plain = await startFakeModbusServer();
    plain.units.set(1, new Map([[40000, 1]]));
    const device = (name: string, type: string, slave_id: number, port = sim.port) =>
      save<Device>(t, admin.token, '/api/devices/0', {
        plant_id: tree.plantId,
        name,
        type,
        protocol: 'modbus_tcp',
        ip: '127.0.0.1',
        port,
        slave_id,
        poll_interval_s: 1,
      });
    inverter = await device('SS INV-01', 'inverter', 1);
    meter = await device('SS MTR-01', 'meter', 2);
  });
  afterAll(async () => {
    await sim?.close();
    await plain?.close();
    await t.close();
  });

  const post = (path: string, body?: unknown, token = admin.token) => t.http.post(path, body, { token });

  it('lists the shipped templates and models', async () => {
    const res = await t.http.get('/api/sunspec/templates', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<SunspecTemplatesAnswer>();
    expect(answer.templates.map((x) => x.id)).toEqual([
      'sunspec-inverter',
      'sunspec-meter',
      'sunspec-weather',
    ]);
    expect(answer.models.map((m) => m.id)).toEqual([1, 103, 160, 203, 302, 303, 307]);
    expect(answer.models.find((m) => m.id === 302)!.signals.map((s) => s.key)).toEqual([
      'ghi',
      'poa_irradiance',
    ]);
    expect(answer.models.find((m) => m.id === 303)!.signals).toEqual([
      {
        key: 'module_temperature',
        name: 'Module Temperature',
        unit: '°C',
        is_counter: false,
        point: 'temp[1].TmpBOM',
      },
    ]);
    const m103 = answer.models.find((m) => m.id === 103)!;
    expect(m103.signals.find((s) => s.key === 'total_energy')).toMatchObject({
      unit: 'kWh',
      is_counter: true,
    });
  });

  it('discovers the models of each unit', async () => {
    const inv = await post(`/api/devices/${inverter.id}/sunspec/discover`);
    expect(inv.statusCode, inv.body).toBe(200);
    const found = inv.json<SunspecDiscoverAnswer>();
    expect(found.base_address).toBe(40000);
    expect(found.models.map((m) => [m.id, m.supported])).toEqual([
      [1, true],
      [103, true],
      [160, true],
    ]);
    expect(found.models[0]).toMatchObject({ address: 40002, length: 66, label: 'Common' });
    const mtr = await post(`/api/devices/${meter.id}/sunspec/discover`);
    expect(mtr.json<SunspecDiscoverAnswer>().models.map((m) => m.id)).toEqual([1, 203]);
  });

  it('answers clear problems for unreachable and silent (alike), non-SunSpec and non-Modbus devices', async () => {
    const closed = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Closed port',
      type: 'inverter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: 1,
      slave_id: 1,
    });
    const refused = await post(`/api/devices/${closed.id}/sunspec/discover`);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ detail: 'errors.deviceUnreachable' });

    const notSunSpec = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Plain Modbus',
      type: 'meter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: plain.port,
      slave_id: 1,
    });
    const res422 = await post(`/api/devices/${notSunSpec.id}/sunspec/discover`);
    expect(res422.statusCode).toBe(422);
    expect(res422.json()).toMatchObject({ detail: 'errors.notSunSpec' });

    plain.online = false;
    const silent = await post(`/api/devices/${notSunSpec.id}/sunspec/discover`);
    plain.online = true;
    // Silent and closed look the same (sunspec-network.test.ts).
    expect(silent.statusCode).toBe(502);
    expect(silent.body).toBe(refused.body);

    const http = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Cam',
      type: 'camera',
      protocol: 'http',
    });
    expect((await post(`/api/devices/${http.id}/sunspec/discover`)).statusCode).toBe(409);
    expect((await post('/api/devices/999999/sunspec/discover')).statusCode).toBe(404);

    // Another company's user does not see the device; a user without the permission is refused.
    const other = await makeTree(t, admin.token, 'SunSpecOther');
    const outsider = await makeUser(t, {
      companyId: other.companyId,
      permissions: pairs(['device_management']),
    });
    expect(
      (await post(`/api/devices/${inverter.id}/sunspec/discover`, undefined, outsider.token)).statusCode,
    ).toBe(404);
    expect(
      (await post(`/api/devices/${inverter.id}/sunspec/apply`, { models: [103] }, outsider.token)).statusCode,
    ).toBe(404);
    const viewer = await makeUser(t, { permissions: pairs(['device_management'], ['view']) });
    expect(
      (await post(`/api/devices/${inverter.id}/sunspec/discover`, undefined, viewer.token)).statusCode,
    ).toBe(403);
    expect((await t.http.post(`/api/devices/${inverter.id}/sunspec/discover`)).statusCode).toBe(401);
  });

  it('validates the apply body', async () => {
    for (const body of [
      {},
      { models: [] },
      { models: [999] },
      { models: [103, 103] },
      { models: [103], discovered: true },
      { discovered: false },
      { models: [103], base_address: 12 },
      [1],
    ]) {
      const res = await post(`/api/devices/${inverter.id}/sunspec/apply`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('creates signals from the templates, polls them with the right scaling, and tracks communication loss', async () => {
    const applied = await post(`/api/devices/${inverter.id}/sunspec/apply`, { discovered: true });
    expect(applied.statusCode, applied.body).toBe(200);
    const answer = applied.json<SunspecApplyAnswer>();
    expect(answer.models).toEqual([1, 103, 160]);
    expect(answer.created.map((c) => c.key)).toEqual(
      expect.arrayContaining(['ac_power', 'total_energy', 'mppt2_dc_power', 'status_code']),
    );
    expect(answer.skipped).toEqual([]);
    // Again: every key is there already and left alone.
    const again = (
      await post(`/api/devices/${inverter.id}/sunspec/apply`, { discovered: true })
    ).json<SunspecApplyAnswer>();
    expect(again.created).toEqual([]);
    expect(again.skipped.length).toBe(answer.created.length);
    // The meter from the standard layout, without asking it.
    const meterApplied = await post(`/api/devices/${meter.id}/sunspec/apply`, { models: [1, 203] });
    expect(meterApplied.json<SunspecApplyAnswer>().created.map((c) => c.key)).toEqual(
      expect.arrayContaining(['active_power', 'export_energy', 'import_energy']),
    );
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'sunspec_apply')
      .where('entity_id', '=', inverter.id)
      .execute();
    expect(audit.length).toBe(2);

    sim.setValues(INVERTER.unitId, { W: 51_234, WH: 123_456_789, St: 4 });
    sim.setValues(METER.unitId, { W: 12_345, TotWhExp: 5_000_123 });
    const invSf = sunspecScaleFactors(INVERTER);
    const mtrSf = sunspecScaleFactors(METER);

    const events: DeviceStateEvent[] = [];
    const poller = startModbusPoller(t.ctx, quiet, {
      timeoutMs: 300,
      excludeDeviceIds: (id) => id !== inverter.id && id !== meter.id,
    });
    poller.onDeviceState((e) => events.push(e));
    const latest = async (deviceId: number) => {
      const res = await t.http.get('/api/telemetry/latest', {
        token: admin.token,
        query: { device_id: String(deviceId) },
      });
      return new Map(res.json<{ items: LatestValue[] }>().items.map((v) => [v.key, v.value]));
    };
    try {
      await until(
        async () =>
          (await latest(inverter.id)).has('ac_power') && (await latest(meter.id)).has('active_power'),
      );
      const inv = await latest(inverter.id);
      expect(inv.get('ac_power')).toBeCloseTo(served(51_234, invSf.W_SF!), 9);
      expect(inv.get('total_energy')).toBeCloseTo(served(123_456_789, invSf.WH_SF!), 9);
      expect(inv.get('status_code')).toBe(4);
      const mtr = await latest(meter.id);
      expect(mtr.get('active_power')).toBeCloseTo(served(12_345, mtrSf.W_SF!), 9);
      expect(mtr.get('export_energy')).toBeCloseTo(served(5_000_123, mtrSf.TotWh_SF!), 9);
      expect(poller.states().get(inverter.id)).toMatchObject({ state: 'online', missedPolls: 0 });

      // Silent for 3 polls: lost, in memory, in device_status and as an event; the meter stays online.
      sim.setOnline(INVERTER.unitId, false);
      await until(() => poller.states().get(inverter.id)?.state === 'lost');
      expect(poller.states().get(inverter.id)!.missedPolls).toBeGreaterThanOrEqual(3);
      expect(poller.states().get(meter.id)!.state).toBe('online');
      // The poller holds the new state before its device_status write commits: wait for the row.
      const commState = async () =>
        (
          await t.ctx.db
            .selectFrom('device_status')
            .select('comm_state')
            .where('device_id', '=', inverter.id)
            .executeTakeFirstOrThrow()
        ).comm_state;
      await until(async () => (await commState()) === 'lost');

      // The admin sees each device's poll times: the silent one waits out its 300 ms timeout on every poll,
      // the meter answers at once; the operator may not look.
      const detach = t.ctx.collectors.attach('modbus', modbusCollectorStatus(t.ctx.lease, poller));
      const health = await t.http.get('/api/health/collectors', { token: admin.token });
      expect(health.statusCode, health.body).toBe(200);
      const modbus = health.json<CollectorsHealth>().modbus!;
      expect(modbus.polling_here).toBe(t.ctx.lease.isHeld());
      const silent = modbus.devices.find((d) => d.device_id === inverter.id)!;
      const answering = modbus.devices.find((d) => d.device_id === meter.id)!;
      expect(silent).toMatchObject({
        state: 'lost',
        device_name: inverter.name,
        plant_id: tree.plantId,
        plant_name: expect.any(String),
        poll_interval_s: 1,
      });
      expect(silent.failed_polls).toBeGreaterThanOrEqual(3);
      expect(silent.polls).toBeGreaterThan(silent.failed_polls);
      expect(silent.max_poll_ms).toBeGreaterThanOrEqual(250);
      expect(silent.last_poll_ms).toBeGreaterThanOrEqual(250);
      expect(silent.last_error).toBeTruthy();
      expect(answering).toMatchObject({ state: 'online', failed_polls: 0 });
      // Faster than a poll that waits out the timeout, measured alongside it (a fixed 250 ms failed once in
      // a CI run, 256.7 ms, when the PostgreSQL suite's parallel files held the event loop). The two units
      // share one connection (one server address), so a meter poll that starts while the silent unit's
      // waits out its timeout queues behind it and takes that wait too (302.9 ms against 300.8 in a CI
      // run): below two such waits. A meter poll that timed out itself would have failed (failed_polls 0).
      expect(answering.p95_poll_ms).toBeLessThan(2 * silent.last_poll_ms!);
      expect(Date.parse(answering.last_poll_at!)).toBeGreaterThan(Date.now() - 10_000);
      const panelViewer = await makeUser(t, { permissions: pairs(['admin_panel'], ['view']) });
      expect((await t.http.get('/api/health/collectors', { token: panelViewer.token })).statusCode).toBe(403);
      detach();
      // The event follows the device_status write (listeners may read it), so it can trail the state in memory.
      await until(() =>
        events.some((e) => e.deviceId === inverter.id && e.state === 'lost' && e.previous === 'online'),
      );

      sim.setOnline(INVERTER.unitId, true);
      sim.setValues(INVERTER.unitId, { W: 20_000 });
      await until(() => poller.states().get(inverter.id)?.state === 'online');
      await until(async () => (await latest(inverter.id)).get('ac_power') === served(20_000, invSf.W_SF!));
      // The values are stored before the status is written and the event sent: on PostgreSQL the event may
      // still be on its way here (a CI run failed on an immediate check).
      await until(() =>
        events.some((e) => e.deviceId === inverter.id && e.state === 'online' && e.previous === 'lost'),
      );

      // A value outside the signal's bounds is refused like on every other way in, and counted.
      const status = (
        await t.http.get('/api/signals', {
          token: admin.token,
          query: { device_id: String(inverter.id), q: 'status_code' },
        })
      ).json<SignalList>().items[0]!;
      const {
        id: statusId,
        device_name: _n,
        plant_id: _p,
        created_at: _c,
        updated_at: _u,
        ...statusBody
      } = status;
      await save(t, admin.token, `/api/signals/${statusId}`, { ...statusBody, max_value: 4 });
      await poller.reload();
      sim.setValues(INVERTER.unitId, { St: 5 });
      const outOfRange = async () =>
        (await t.http.get(`/api/devices/${inverter.id}/ingest-counts`, { token: admin.token }))
          .json<IngestCountsAnswer>()
          .items.find((i) => i.reason === 'out_of_range')?.count ?? 0;
      await until(async () => (await outOfRange()) >= 1);
      expect((await latest(inverter.id)).get('status_code')).toBe(4);
      expect(
        await t.ctx.db
          .selectFrom('telemetry_raw')
          .select('value')
          .where('signal_id', '=', statusId)
          .where('value', '>', 4)
          .execute(),
      ).toEqual([]);

      // Deactivated while running: polled no more after a reload, its state unknown.
      await save(t, admin.token, `/api/devices/${meter.id}`, {
        plant_id: tree.plantId,
        name: meter.name,
        type: 'meter',
        protocol: 'modbus_tcp',
        ip: '127.0.0.1',
        port: sim.port,
        slave_id: 2,
        poll_interval_s: 1,
        is_active: false,
      });
      await poller.reload();
      expect(poller.states().has(meter.id)).toBe(false);
      const meterRow = await t.ctx.db
        .selectFrom('device_status')
        .selectAll()
        .where('device_id', '=', meter.id)
        .executeTakeFirstOrThrow();
      expect(meterRow.comm_state).toBe('unknown');
    } finally {
      await poller.stop();
    }
  });
  it('reads plane-of-array irradiance and module temperature from models 302/303, and the KPIs use that POA', async () => {
    const plant = await save<{ id: number }>(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'SunSpec POA',
      time_zone: 'Europe/Istanbul',
      dc_capacity_kwp: 100,
      latitude: 37.7,
      longitude: 33.5,
      tilt_deg: 30,
      azimuth_deg: 180,
    });
    const station = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: plant.id,
      name: 'SS WS-01',
      type: 'weather_station',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: sim.port,
      slave_id: WEATHER.unitId,
      poll_interval_s: 1,
    });
    const found = (await post(`/api/devices/${station.id}/sunspec/discover`)).json<SunspecDiscoverAnswer>();
    expect(found.models.map((m) => [m.id, m.supported])).toEqual([
      [1, true],
      [307, true],
      [302, true],
      [303, true],
    ]);
    const applied = await post(`/api/devices/${station.id}/sunspec/apply`, { discovered: true });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<SunspecApplyAnswer>().created.map((c) => c.key)).toEqual([
      'ambient_temperature',
      'wind_speed',
      'ghi',
      'poa_irradiance',
      'module_temperature',
    ]);

    sim.setValues(WEATHER.unitId, {
      TmpAmb: 21.4,
      WndSpd: 3,
      'repeating[1].GHI': 610,
      'repeating[1].POAI': 812,
      'temp[1].TmpBOM': 47.3,
    });
    const poller = startModbusPoller(t.ctx, quiet, {
      timeoutMs: 300,
      excludeDeviceIds: (id) => id !== station.id,
    });
    try {
      const latest = async () => {
        const res = await t.http.get('/api/telemetry/latest', {
          token: admin.token,
          query: { device_id: String(station.id) },
        });
        return new Map(res.json<{ items: LatestValue[] }>().items.map((v) => [v.key, v.value]));
      };
      await until(async () => (await latest()).has('module_temperature'));
      const values = await latest();
      expect(values.get('poa_irradiance')).toBe(812);
      expect(values.get('ghi')).toBe(610);
      expect(values.get('module_temperature')).toBeCloseTo(47.3, 9);
      expect(values.get('ambient_temperature')).toBeCloseTo(21.4, 9);
    } finally {
      await poller.stop();
    }

    // Today's KPIs take the station's measured POA (not GHI transposed): its 5-minute mean and the insolation.
    const power = await t.http.get(`/api/plants/${plant.id}/power`, { token: admin.token });
    expect(power.statusCode, power.body).toBe(200);
    const answer = power.json<PlantPowerAnswer>();
    expect(answer.irradiance_source).toBe('measured');
    const withPoa = answer.points.filter((p) => p.poa_w_m2 !== null);
    expect(withPoa.length).toBeGreaterThanOrEqual(1);
    for (const p of withPoa) expect(p.poa_w_m2).toBe(812);
    await vi.waitFor(
      async () => {
        const kpis = await t.http.get(`/api/plants/${plant.id}/kpis`, {
          token: admin.token,
          query: { period: 'day' },
        });
        expect(kpis.statusCode, kpis.body).toBe(200);
        const k = kpis.json<PlantKpisAnswer>();
        expect(k.irradiance_source).toBe('measured');
        expect(k.irradiation_kwh_m2).toBeGreaterThan(0);
      },
      { timeout: 5_000, interval: 50 },
    );
  });
});
