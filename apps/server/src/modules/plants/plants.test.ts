import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plant, PlantList } from '@solar/shared';
import { makeTree, makeUser, pairs, save, snapshot, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`plants (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Plants');
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/plants', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlantList>();
  };

  const full = () => ({
    field_id: tree.fieldId,
    name: 'Karapınar GES-1',
    dc_capacity_kwp: 960,
    ac_capacity_kw: 800,
    latitude: 37.7182,
    longitude: 33.5471,
    time_zone: 'Europe/Istanbul',
    commissioning_date: '2021-06-15',
    subscriber_numbers: ['4001238841', '4001238842'],
    tilt_deg: 30,
    azimuth_deg: 180,
  });

  it('creates, reads, updates and deletes a plant', async () => {
    const created = await save<Plant>(t, admin.token, '/api/plants/0', full());
    expect(created).toMatchObject({
      ...full(),
      field_name: 'Plants Field',
      company_id: tree.companyId,
      company_name: 'Plants Co',
      is_active: true,
    });
    expect((await t.http.get(`/api/plants/${created.id}`, { token: admin.token })).json()).toEqual(created);
    const updated = await save<Plant>(t, admin.token, `/api/plants/${created.id}`, {
      ...full(),
      time_zone: 'Europe/Skopje',
      subscriber_numbers: [],
      commissioning_date: null,
    });
    expect(updated).toMatchObject({
      time_zone: 'Europe/Skopje',
      subscriber_numbers: [],
      commissioning_date: null,
    });
    expect((await t.http.delete(`/api/plants/${created.id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await t.http.get(`/api/plants/${created.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it('lists with paging, sorting and the field, company and is_active filters', async () => {
    const otherField = await save(t, admin.token, '/api/fields/0', {
      company_id: tree.companyId,
      name: 'Second Field',
    });
    for (const [name, field, kwp, active] of [
      ['Lp 1', tree.fieldId, 100, true],
      ['Lp 2', tree.fieldId, 300, true],
      ['Lp 3', otherField.id, 200, false],
    ] as const) {
      await save(t, admin.token, '/api/plants/0', {
        field_id: field,
        name,
        dc_capacity_kwp: kwp,
        time_zone: 'Europe/Istanbul',
        is_active: active,
      });
    }
    expect((await list({ q: 'lp ', field_id: String(otherField.id) })).items.map((p) => p.name)).toEqual([
      'Lp 3',
    ]);
    expect((await list({ q: 'lp ', company_id: String(tree.companyId) })).total).toBe(3);
    expect((await list({ q: 'lp ', is_active: 'true' })).total).toBe(2);
    expect((await list({ q: 'lp ', sort: '-dc_capacity_kwp' })).items.map((p) => p.name)).toEqual([
      'Lp 2',
      'Lp 3',
      'Lp 1',
    ]);
    expect((await list({ q: 'lp ', sort: 'field_name', pageSize: '1' })).items[0]!.name).toBe('Lp 1');
    expect(
      (await list({ q: 'lp ', pageSize: '2', page: '2', sort: 'name' })).items.map((p) => p.name),
    ).toEqual(['Lp 3']);
  });

  it('validates the body and names each bad field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...full(), name: undefined }, 'name', 'validation.required'],
      [{ ...full(), time_zone: 'Mars/Olympus' }, 'time_zone', 'validation.invalidTimeZone'],
      [{ ...full(), time_zone: undefined }, 'time_zone', 'validation.invalidTimeZone'],
      [{ ...full(), latitude: 91 }, 'latitude', 'validation.latitudeRange'],
      [{ ...full(), longitude: -181 }, 'longitude', 'validation.longitudeRange'],
      [{ ...full(), commissioning_date: '2021-02-30' }, 'commissioning_date', 'validation.invalidDate'],
      [{ ...full(), commissioning_date: 'yesterday' }, 'commissioning_date', 'validation.invalidDate'],
      [{ ...full(), dc_capacity_kwp: -1 }, 'dc_capacity_kwp', 'validation.outOfRange'],
      [{ ...full(), tilt_deg: 91 }, 'tilt_deg', 'validation.outOfRange'],
      [{ ...full(), azimuth_deg: 361 }, 'azimuth_deg', 'validation.outOfRange'],
      [{ ...full(), latitude: '' }, 'latitude', 'validation.invalidNumber'],
      [{ ...full(), field_id: '12' }, 'field_id', 'validation.invalidNumber'],
      [{ ...full(), subscriber_numbers: [''] }, 'subscriber_numbers.0', 'validation.required'],
      [{ ...full(), subscriber_numbers: 'abc' }, 'subscriber_numbers', 'validation.invalidValue'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.http.post('/api/plants/0', body, { token: admin.token });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field], JSON.stringify(body)).toContain(
        message,
      );
    }
  });

  it('refuses to delete a plant with devices (409)', async () => {
    const res = await t.http.delete(`/api/plants/${tree.plantId}`, { token: admin.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      detail: 'errors.hasChildren',
      errors: { devices: ['errors.hasChildren'] },
    });
  });

  it('tells create from update: the create pair creates, the update pair updates (upsert)', async () => {
    const creator = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['plant_management'], ['view', 'create']),
    });
    const updater = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['plant_management'], ['view', 'update']),
    });
    const body = { field_id: tree.fieldId, name: 'Upsert Plant', time_zone: 'Europe/Istanbul' };
    const made = await save<Plant>(t, creator.token, '/api/plants/0', body);
    expect((await t.http.post(`/api/plants/${made.id}`, body, { token: creator.token })).statusCode).toBe(
      403,
    );
    expect((await t.http.post('/api/plants/0', body, { token: updater.token })).statusCode).toBe(403);
    await save(t, updater.token, `/api/plants/${made.id}`, { ...body, name: 'Upserted' });
    expect((await t.http.delete(`/api/plants/${made.id}`, { token: updater.token })).statusCode).toBe(403);
  });

  it('limits a user with one plant unit to that plant', async () => {
    const second = await save<Plant>(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'Unit Sibling',
      time_zone: 'Europe/Istanbul',
    });
    const user = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['plant_management', 'device_management', 'device_signals', 'field_management']),
      units: [{ unit_type: 'plant', unit_id: tree.plantId }],
    });
    expect(await list({}, user.token)).toMatchObject({ total: 1, items: [{ id: tree.plantId }] });
    expect((await t.http.get(`/api/plants/${second.id}`, { token: user.token })).statusCode).toBe(404);
    const devices = await t.http.get('/api/devices', { token: user.token });
    expect(
      devices.json<{ items: { plant_id: number }[] }>().items.every((d) => d.plant_id === tree.plantId),
    ).toBe(true);
    expect((await t.http.get('/api/fields', { token: user.token })).json()).toEqual({ items: [], total: 0 });
    // Editing the own plant in place works; moving it, creating or deleting plants does not.
    await save(t, user.token, `/api/plants/${tree.plantId}`, {
      field_id: tree.fieldId,
      name: 'Unit Plant',
      time_zone: 'Europe/Istanbul',
    });
    const before = await snapshot(t);
    const create = await t.http.post(
      '/api/plants/0',
      { field_id: tree.fieldId, name: 'More', time_zone: 'Europe/Istanbul' },
      { token: user.token },
    );
    expect(create.statusCode).toBe(404);
    expect((await t.http.delete(`/api/plants/${second.id}`, { token: user.token })).statusCode).toBe(404);
    expect((await t.http.delete(`/api/plants/${tree.plantId}`, { token: user.token })).statusCode).toBe(403);
    expect(await snapshot(t)).toEqual(before);
  });
});
