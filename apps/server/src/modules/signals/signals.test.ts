import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Signal, SignalList } from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`signals (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Signals');
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/signals', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SignalList>();
  };
  const body = () => ({
    device_id: tree.deviceId,
    key: 'total_energy',
    name: 'Total Energy',
    unit: 'kWh',
    data_type: 'uint32',
    register_type: 'holding',
    address: 32106,
    word_order: 'big',
    scale: 0.01,
    is_counter: true,
  });

  it('creates, reads, updates and deletes a signal', async () => {
    const created = await save<Signal>(t, admin.token, '/api/signals/0', body());
    expect(created).toMatchObject({
      ...body(),
      device_name: 'Signals INV-01',
      plant_id: tree.plantId,
      is_active: true,
    });
    expect((await t.http.get(`/api/signals/${created.id}`, { token: admin.token })).json()).toEqual(created);
    const updated = await save<Signal>(t, admin.token, `/api/signals/${created.id}`, {
      ...body(),
      scale: 1,
      register_type: null,
      address: null,
      is_counter: 0,
    });
    expect(updated).toMatchObject({ scale: 1, register_type: null, address: null, is_counter: false });
    expect((await t.http.delete(`/api/signals/${created.id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await t.http.get(`/api/signals/${created.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it('keeps validity bounds, and removes them again (each side empty takes the unit default)', async () => {
    const created = await save<Signal>(t, admin.token, '/api/signals/0', {
      ...body(),
      key: 'bounded',
      min_value: -2.5,
      max_value: 120,
    });
    expect(created).toMatchObject({ min_value: -2.5, max_value: 120 });
    expect((await t.http.get(`/api/signals/${created.id}`, { token: admin.token })).json()).toMatchObject({
      min_value: -2.5,
      max_value: 120,
    });
    const cleared = await save<Signal>(t, admin.token, `/api/signals/${created.id}`, {
      ...body(),
      key: 'bounded',
      min_value: null,
    });
    expect(cleared).toMatchObject({ min_value: null, max_value: null });
    // A signal saved without bounds, as every one before them was, has none of its own.
    const plain = await save<Signal>(t, admin.token, '/api/signals/0', { ...body(), key: 'unbounded' });
    expect(plain).toMatchObject({ min_value: null, max_value: null });
  });

  it('keeps a state map, shows it where the signal is readable and edits it where signals are editable', async () => {
    const stateMap = { '0': 4, '21760': 7, '33024': 5 };
    const created = await save<Signal>(t, admin.token, '/api/signals/0', {
      ...body(),
      key: 'vendor_state',
      data_type: 'uint16',
      is_counter: false,
      value_map: stateMap,
    });
    expect(created.value_map).toEqual(stateMap);
    const path = `/api/signals/${created.id}`;
    // A form that does not send the map (the signal drawer) keeps it; null removes it.
    const renamed = await save<Signal>(t, admin.token, path, {
      ...body(),
      key: 'vendor_state',
      name: 'Vendor state',
      is_counter: false,
    });
    expect(renamed.value_map).toEqual(stateMap);
    expect((await list({ device_id: String(tree.deviceId), q: 'vendor_state' })).items[0]!.value_map).toEqual(
      stateMap,
    );
    // A reader of the company sees the map but cannot change it; another company's editor does not find it.
    const viewer = await makeUser(t, {
      companyId: tree.companyId,
      permissions: [{ page: 'device_signals', method: 'view' }],
    });
    expect((await t.http.get(path, { token: viewer.token })).json<Signal>().value_map).toEqual(stateMap);
    const edit = { ...body(), key: 'vendor_state', is_counter: false, value_map: { '1': 8 } };
    expect((await t.http.post(path, edit, { token: viewer.token })).statusCode).toBe(403);
    const other = await makeTree(t, admin.token, 'ValueMapOther');
    const stranger = await makeUser(t, { companyId: other.companyId });
    expect((await t.http.get(path, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.http.post(path, edit, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.http.get(path, { token: admin.token })).json<Signal>().value_map).toEqual(stateMap);
    const editor = await makeUser(t, { companyId: tree.companyId });
    expect((await save<Signal>(t, editor.token, path, edit)).value_map).toEqual({ '1': 8 });
    const cleared = await save<Signal>(t, admin.token, path, { ...edit, value_map: null });
    expect(cleared.value_map).toBeNull();
    const stored = await t.ctx.db
      .selectFrom('signals')
      .select('value_map')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.value_map).toBeNull();
  });

  it('refuses a bad state map with a translatable message (400) and stores nothing', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 257 }, (_, i) => [String(i), 1]));
    const cases: [unknown, string][] = [
      [{ running: 4 }, 'validation.invalidKey'],
      [{ '1.5': 4 }, 'validation.invalidKey'],
      [{ '1': 4.5 }, 'validation.invalidNumber'],
      [{ '1': 'fault' }, 'validation.invalidNumber'],
      [{ '1': 1e16 }, 'validation.outOfRange'],
      [[4, 7], 'validation.invalidValue'],
      ['{"1":4}', 'validation.invalidValue'],
      [tooMany, 'validation.tooMany'],
    ];
    for (const [valueMap, message] of cases) {
      const res = await t.http.post(
        '/api/signals/0',
        { ...body(), key: 'bad_map', value_map: valueMap },
        { token: admin.token },
      );
      expect(res.statusCode, JSON.stringify(valueMap)).toBe(400);
      // The map's own errors under `value_map`, an entry's under `value_map.<key>`.
      const messages = Object.entries(res.json<{ errors: Record<string, string[]> }>().errors)
        .filter(([field]) => field === 'value_map' || field.startsWith('value_map.'))
        .flatMap(([, list]) => list);
      expect(messages, JSON.stringify(valueMap)).toContain(message);
    }
    expect((await list({ device_id: String(tree.deviceId), q: 'bad_map' })).total).toBe(0);
  });

  it('keeps keys unique per device (409), but the same key on another device is fine', async () => {
    const dup = await t.http.post('/api/signals/0', { ...body(), key: 'ac_power' }, { token: admin.token });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      detail: 'errors.duplicate',
      errors: { key: ['validation.duplicate'] },
    });
    const other = await makeTree(t, admin.token, 'SecondDevice');
    await save(t, admin.token, '/api/signals/0', {
      ...body(),
      device_id: other.deviceId,
      key: 'daily_energy',
    });
    await save(t, admin.token, '/api/signals/0', { ...body(), key: 'daily_energy' });
    // Renaming onto a taken key is refused too; saving a signal with its own key is not.
    const own = await save<Signal>(t, admin.token, '/api/signals/0', { ...body(), key: 'dc_power' });
    await save(t, admin.token, `/api/signals/${own.id}`, { ...body(), key: 'dc_power', name: 'DC Power' });
    const rename = await t.http.post(
      `/api/signals/${own.id}`,
      { ...body(), key: 'ac_power' },
      { token: admin.token },
    );
    expect(rename.statusCode).toBe(409);
  });

  it('validates the body and names each bad field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...body(), key: 'AC Power' }, 'key', 'validation.invalidKey'],
      [{ ...body(), key: '' }, 'key', 'validation.required'],
      [{ ...body(), name: undefined }, 'name', 'validation.required'],
      [{ ...body(), data_type: 'float128' }, 'data_type', 'validation.invalidValue'],
      [{ ...body(), register_type: 'memory' }, 'register_type', 'validation.invalidValue'],
      [{ ...body(), address: 65536 }, 'address', 'validation.outOfRange'],
      [{ ...body(), word_order: 'middle' }, 'word_order', 'validation.invalidValue'],
      [{ ...body(), scale: 0 }, 'scale', 'validation.outOfRange'],
      [{ ...body(), address: '' }, 'address', 'validation.invalidNumber'],
      [{ ...body(), device_id: 0 }, 'device_id', 'validation.required'],
      [{ ...body(), unit: 'x'.repeat(21) }, 'unit', 'validation.tooLong'],
      [{ ...body(), min_value: 10, max_value: 5 }, 'max_value', 'validation.rangeOrder'],
      [{ ...body(), min_value: -1e308 }, 'min_value', 'validation.outOfRange'],
      [{ ...body(), max_value: 'high' }, 'max_value', 'validation.invalidNumber'],
    ];
    for (const [b, field, message] of cases) {
      const res = await t.http.post('/api/signals/0', b, { token: admin.token });
      expect(res.statusCode, JSON.stringify(b)).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field], JSON.stringify(b)).toContain(
        message,
      );
    }
    expect(
      (await t.http.post('/api/signals/0', { ...body(), device_id: 999999 }, { token: admin.token }))
        .statusCode,
    ).toBe(404);
  });

  it('lists with paging, sorting and the device, plant and is_active filters', async () => {
    const device = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Weather',
      type: 'weather_station',
      protocol: 'mqtt',
      mqtt_topic: 'ws/list',
    });
    for (const [key, unit, active] of [
      ['irradiance', 'W/m²', true],
      ['module_temperature', '°C', true],
      ['ambient_temperature', '°C', false],
      ['wind_speed', 'm/s', true],
    ] as const) {
      await save(t, admin.token, '/api/signals/0', {
        device_id: device.id,
        key,
        name: key,
        unit,
        is_active: active,
      });
    }
    const deviceId = String(device.id);
    expect((await list({ device_id: deviceId })).items.map((s) => s.key)).toEqual([
      'ambient_temperature',
      'irradiance',
      'module_temperature',
      'wind_speed',
    ]);
    expect((await list({ device_id: deviceId, is_active: '0' })).items.map((s) => s.key)).toEqual([
      'ambient_temperature',
    ]);
    expect(
      (await list({ device_id: deviceId, q: 'temperature', sort: '-key' })).items.map((s) => s.key),
    ).toEqual(['module_temperature', 'ambient_temperature']);
    expect((await list({ device_id: deviceId, pageSize: '3', page: '2' })).items.map((s) => s.key)).toEqual([
      'wind_speed',
    ]);
    expect((await list({ plant_id: String(tree.plantId) })).total).toBeGreaterThanOrEqual(5);
  });
});
