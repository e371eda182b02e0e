import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, DeviceList } from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`devices (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Devices');
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/devices', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DeviceList>();
  };
  const base = () => ({ plant_id: tree.plantId, name: 'Dev', type: 'inverter' });
  const tcp = () => ({ ...base(), protocol: 'modbus_tcp', ip: '192.168.1.20', port: 502, slave_id: 1 });

  it('creates, reads, updates and deletes a device for each protocol', async () => {
    const created = await save<Device>(t, admin.token, '/api/devices/0', {
      ...tcp(),
      brand: 'Huawei',
      model: 'SUN2000-100KTL-M1',
      serial_number: 'HV123',
      rated_power_kw: 100,
      // Settings of another protocol are dropped.
      baud_rate: 9600,
      mqtt_topic: 'x/y',
    });
    expect(created).toMatchObject({
      protocol: 'modbus_tcp',
      ip: '192.168.1.20',
      port: 502,
      slave_id: 1,
      baud_rate: null,
      mqtt_topic: null,
      plant_name: 'Devices Plant',
      // The web shows the device's times (its ingest key's) on its plant's clock.
      plant_time_zone: 'Europe/Istanbul',
      field_id: tree.fieldId,
      company_id: tree.companyId,
      poll_interval_s: 60,
    });
    expect((await t.http.get(`/api/devices/${created.id}`, { token: admin.token })).json()).toEqual(created);

    const rtu = await save<Device>(t, admin.token, `/api/devices/${created.id}`, {
      ...base(),
      protocol: 'modbus_rtu',
      slave_id: 247,
      baud_rate: 115200,
    });
    expect(rtu).toMatchObject({
      protocol: 'modbus_rtu',
      ip: null,
      port: null,
      slave_id: 247,
      baud_rate: 115200,
    });
    const mqtt = await save<Device>(t, admin.token, `/api/devices/${created.id}`, {
      ...base(),
      protocol: 'mqtt',
      mqtt_topic: 'solar/+/inverter/#',
    });
    expect(mqtt).toMatchObject({ protocol: 'mqtt', slave_id: null, mqtt_topic: 'solar/+/inverter/#' });
    const camera = await save<Device>(t, admin.token, `/api/devices/${created.id}`, {
      ...base(),
      type: 'camera',
      protocol: 'http',
      snapshot_url: 'http://10.0.0.50/snapshot.jpg',
      stream_url: 'rtsp://10.0.0.50:554/stream1',
    });
    expect(camera).toMatchObject({
      type: 'camera',
      protocol: 'http',
      mqtt_topic: null,
      stream_url: 'rtsp://10.0.0.50:554/stream1',
    });
    // A unique local IPv6 address (fc00::/7, a default device network; link-local fe80:: is refused).
    const v6 = await save<Device>(t, admin.token, `/api/devices/${created.id}`, {
      ...tcp(),
      ip: 'fd00::1',
      port: 0,
    });
    expect(v6).toMatchObject({ ip: 'fd00::1', port: 0 });

    expect((await t.http.delete(`/api/devices/${created.id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await t.http.get(`/api/devices/${created.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it('validates each connection setting and names the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...tcp(), ip: '300.1.1.1' }, 'ip', 'validation.invalidIp'],
      [{ ...tcp(), ip: 'fe80:::1' }, 'ip', 'validation.invalidIp'],
      [{ ...tcp(), ip: undefined }, 'ip', 'validation.required'],
      [{ ...tcp(), port: 65536 }, 'port', 'validation.portRange'],
      [{ ...tcp(), port: -1 }, 'port', 'validation.portRange'],
      [{ ...tcp(), slave_id: -1 }, 'slave_id', 'validation.unitIdRange'],
      [{ ...tcp(), slave_id: 248 }, 'slave_id', 'validation.unitIdRange'],
      // Over RTU address 0 is a broadcast no slave answers; over TCP it is the gateway itself.
      [
        { ...base(), protocol: 'modbus_rtu', slave_id: 0, baud_rate: 9600 },
        'slave_id',
        'validation.slaveIdRange',
      ],
      [
        { ...base(), protocol: 'modbus_rtu', slave_id: 1, baud_rate: 1234 },
        'baud_rate',
        'validation.baudRate',
      ],
      [{ ...base(), protocol: 'modbus_rtu', baud_rate: 9600 }, 'slave_id', 'validation.slaveIdRange'],
      [{ ...base(), protocol: 'mqtt' }, 'mqtt_topic', 'validation.required'],
      [{ ...base(), protocol: 'mqtt', mqtt_topic: 'a/b#' }, 'mqtt_topic', 'validation.invalidValue'],
      [{ ...base(), protocol: 'smoke_signals' }, 'protocol', 'validation.invalidValue'],
      [{ ...base() }, 'protocol', 'validation.invalidValue'],
      [{ ...base(), protocol: 'http', type: 'toaster' }, 'type', 'validation.invalidValue'],
      [{ ...base(), protocol: 'http', name: '' }, 'name', 'validation.required'],
      [
        { ...base(), protocol: 'http', snapshot_url: 'javascript:alert(1)' },
        'snapshot_url',
        'validation.invalidUrl',
      ],
      [{ ...base(), protocol: 'http', poll_interval_s: 0 }, 'poll_interval_s', 'validation.outOfRange'],
      [{ ...base(), protocol: 'http', rated_power_kw: -5 }, 'rated_power_kw', 'validation.outOfRange'],
      [{ ...base(), protocol: 'http', plant_id: undefined }, 'plant_id', 'validation.required'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.http.post('/api/devices/0', body, { token: admin.token });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field], JSON.stringify(body)).toContain(
        message,
      );
    }
  });

  it('keeps the topology inside one plant and free of loops', async () => {
    const transformer = await save<Device>(t, admin.token, '/api/devices/0', {
      ...base(),
      name: 'TR-1',
      type: 'transformer',
      protocol: 'http',
    });
    const inverter = await save<Device>(t, admin.token, '/api/devices/0', {
      ...tcp(),
      name: 'INV-2',
      parent_device_id: transformer.id,
    });
    const box = await save<Device>(t, admin.token, '/api/devices/0', {
      ...base(),
      name: 'SB-1',
      type: 'string_box',
      protocol: 'http',
      parent_device_id: inverter.id,
    });
    expect((await list({ parent_device_id: String(transformer.id) })).items.map((d) => d.id)).toEqual([
      inverter.id,
    ]);

    // A loop (transformer under its own string box) and self-parenting are refused.
    for (const parent of [box.id, transformer.id]) {
      const res = await t.http.post(
        `/api/devices/${transformer.id}`,
        { ...base(), name: 'TR-1', type: 'transformer', protocol: 'http', parent_device_id: parent },
        { token: admin.token },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errors: { parent_device_id: ['validation.invalidValue'] } });
    }
    // A parent in another plant is refused.
    const other = await makeTree(t, admin.token, 'OtherPlant');
    const cross = await t.http.post(
      '/api/devices/0',
      { ...tcp(), plant_id: other.plantId, parent_device_id: transformer.id },
      { token: admin.token },
    );
    expect(cross.statusCode).toBe(400);
    // A parent that does not exist: 404.
    expect(
      (await t.http.post('/api/devices/0', { ...tcp(), parent_device_id: 999999 }, { token: admin.token }))
        .statusCode,
    ).toBe(404);

    // Deleting a device with child devices is refused (409), and moving it to another plant too.
    const del = await t.http.delete(`/api/devices/${transformer.id}`, { token: admin.token });
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({
      detail: 'errors.hasChildren',
      errors: { devices: ['errors.hasChildren'] },
    });
    const move = await t.http.post(
      `/api/devices/${inverter.id}`,
      { ...tcp(), plant_id: other.plantId },
      { token: admin.token },
    );
    expect(move.statusCode).toBe(409);
    // Bottom up it works.
    for (const id of [box.id, inverter.id, transformer.id]) {
      expect((await t.http.delete(`/api/devices/${id}`, { token: admin.token })).statusCode).toBe(204);
    }
  });

  it('refuses to delete a device with signals (409)', async () => {
    const res = await t.http.delete(`/api/devices/${tree.deviceId}`, { token: admin.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errors: { signals: ['errors.hasChildren'] } });
  });

  it('lists with paging, sorting and the plant, type, protocol and is_active filters', async () => {
    const plant = await save(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'List Plant',
      time_zone: 'Europe/Istanbul',
    });
    const mk = (name: string, type: string, protocol: Record<string, unknown>, is_active = true) =>
      save(t, admin.token, '/api/devices/0', { plant_id: plant.id, name, type, is_active, ...protocol });
    await mk('Ld INV-01', 'inverter', { protocol: 'modbus_tcp', ip: '10.1.1.1', port: 502, slave_id: 1 });
    await mk(
      'Ld INV-02',
      'inverter',
      { protocol: 'modbus_tcp', ip: '10.1.1.2', port: 502, slave_id: 2 },
      false,
    );
    await mk('Ld MET-01', 'meter', { protocol: 'modbus_rtu', slave_id: 3, baud_rate: 9600 });
    await mk('Ld WS-01', 'weather_station', { protocol: 'mqtt', mqtt_topic: 'ws/1' });
    const plantId = String(plant.id);
    expect((await list({ plant_id: plantId })).total).toBe(4);
    expect((await list({ plant_id: plantId, type: 'inverter' })).items.map((d) => d.name)).toEqual([
      'Ld INV-01',
      'Ld INV-02',
    ]);
    expect((await list({ plant_id: plantId, protocol: 'mqtt' })).items.map((d) => d.name)).toEqual([
      'Ld WS-01',
    ]);
    expect((await list({ plant_id: plantId, is_active: 'false' })).items.map((d) => d.name)).toEqual([
      'Ld INV-02',
    ]);
    expect(
      (await list({ plant_id: plantId, sort: '-name', pageSize: '2', page: '2' })).items.map((d) => d.name),
    ).toEqual(['Ld INV-02', 'Ld INV-01']);
    expect((await list({ q: 'ld met' })).items.map((d) => d.name)).toEqual(['Ld MET-01']);
    expect(
      (await list({ company_id: String(tree.companyId), field_id: String(tree.fieldId) })).total,
    ).toBeGreaterThanOrEqual(5);
    const bad = await t.http.get('/api/devices', { token: admin.token, query: { type: 'toaster' } });
    expect(bad.statusCode).toBe(400);
  });
});
