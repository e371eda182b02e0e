import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryCatalogAnswer } from '@solar/shared';
import {
  makeTree,
  makeUser,
  ORG_PAGES,
  pairs,
  save,
  type TestUser,
  type Tree,
} from '../../test/org-fixtures';
import { createTestApp, DEMO, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`telemetry catalog (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let other: Tree;
  let meterId: number;
  let offPlantId: number;

  const catalog = (token: string | undefined, query: Record<string, string> = {}) =>
    t.http.get('/api/telemetry/catalog', { token, query });
  const ok = async (token: string, query: Record<string, string> = {}) => {
    const res = await catalog(token, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TelemetryCatalogAnswer>();
  };
  /** Active plants in the database, with their company, straight from the tables. */
  const activePlants = () =>
    t.ctx.db
      .selectFrom('plants')
      .innerJoin('fields', 'fields.id', 'plants.field_id')
      .select(['plants.id', 'fields.company_id'])
      .where('plants.is_active', '=', 1)
      .execute();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Cat');
    other = await makeTree(t, admin.token, 'Far');
    // Beside the tree's inverter "Cat INV-01" (signal "AC Power"): a meter under it with two signals,
    // one inactive; an inactive device with an active signal; an inactive signal on the inverter.
    meterId = (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: tree.plantId,
        parent_device_id: tree.deviceId,
        name: 'Cat A-Meter',
        type: 'meter',
        protocol: 'http',
      })
    ).id;
    await save(t, admin.token, '/api/signals/0', {
      device_id: meterId,
      key: 'total_energy',
      name: 'Energy',
      unit: 'kWh',
      is_counter: true,
    });
    await save(t, admin.token, '/api/signals/0', {
      device_id: meterId,
      key: 'old',
      name: 'Old',
      is_active: false,
    });
    await save(t, admin.token, '/api/signals/0', {
      device_id: tree.deviceId,
      key: 'dc_power',
      name: 'DC Power',
      unit: 'kW',
    });
    await save(t, admin.token, '/api/signals/0', {
      device_id: tree.deviceId,
      key: 'off',
      name: 'Bff',
      is_active: false,
    });
    const offDevice = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Cat B-Off',
      type: 'meter',
      protocol: 'http',
      is_active: false,
    });
    await save(t, admin.token, '/api/signals/0', { device_id: offDevice.id, key: 'x', name: 'X' });
    offPlantId = (
      await save(t, admin.token, '/api/plants/0', {
        field_id: tree.fieldId,
        name: 'Cat Plant Off',
        time_zone: 'Europe/Istanbul',
        is_active: false,
      })
    ).id;
  });
  afterAll(() => t.close());

  it('answers the admin every active plant with its field and time zone, and no devices without plant_id', async () => {
    const answer = await ok(admin.token);
    expect(answer.devices).toBeUndefined();
    expect(answer.plants.map((p) => p.id).sort((a, b) => a - b)).toEqual(
      (await activePlants()).map((p) => p.id).sort((a, b) => a - b),
    );
    expect(answer.plants).toContainEqual({
      id: tree.plantId,
      name: 'Cat Plant',
      field_name: 'Cat Field',
      time_zone: 'Europe/Istanbul',
    });
    expect(answer.plants.map((p) => p.id)).toContain(other.plantId);
    expect(answer.plants.map((p) => p.id)).not.toContain(offPlantId);
  });

  it('answers a plant its active devices by name, each with its active signals by name', async () => {
    const answer = await ok(admin.token, { plant_id: String(tree.plantId) });
    expect(answer.devices).toEqual([
      {
        id: meterId,
        name: 'Cat A-Meter',
        type: 'meter',
        parent_device_id: tree.deviceId,
        signals: [
          { id: expect.any(Number), key: 'total_energy', name: 'Energy', unit: 'kWh', is_counter: true },
        ],
      },
      {
        id: tree.deviceId,
        name: 'Cat INV-01',
        type: 'inverter',
        parent_device_id: null,
        signals: [
          { id: tree.signalId, key: 'ac_power', name: 'AC Power', unit: 'kW', is_counter: false },
          { id: expect.any(Number), key: 'dc_power', name: 'DC Power', unit: 'kW', is_counter: false },
        ],
      },
    ]);
    expect(answer.plants.map((p) => p.id)).toContain(tree.plantId);
    // An inactive plant is not offered, so it is not answered either.
    expect((await catalog(admin.token, { plant_id: String(offPlantId) })).statusCode).toBe(404);
  });

  it('keeps a company user to the own company: other plants are left out and answer 404', async () => {
    const operator = await makeUser(t, {
      companyId: tree.companyId,
      permissions: [{ page: 'dashboard', method: 'view' }],
    });
    expect((await ok(operator.token)).plants.map((p) => p.id)).toEqual([tree.plantId]);
    const own = await ok(operator.token, { plant_id: String(tree.plantId) });
    expect(own.devices?.map((d) => d.id)).toEqual([meterId, tree.deviceId]);
    for (const id of [other.plantId, 999_999]) {
      const res = await catalog(operator.token, { plant_id: String(id) });
      expect(res.statusCode, String(id)).toBe(404);
    }
  });

  it('answers the demo operator only the plants of company 1', async () => {
    const token = await t.http.login(DEMO.operator.email, DEMO.operator.password);
    const plants = await activePlants();
    const ofCompany1 = plants.filter((p) => p.company_id === 1).map((p) => p.id);
    expect(ofCompany1.length).toBeGreaterThan(0);
    const answer = await ok(token);
    expect(answer.plants.map((p) => p.id).sort((a, b) => a - b)).toEqual(ofCompany1.sort((a, b) => a - b));
    const first = await ok(token, { plant_id: String(ofCompany1[0]!) });
    expect(first.devices?.length).toBeGreaterThan(0);
    const elsewhere = plants.find((p) => p.company_id !== 1)!;
    expect((await catalog(token, { plant_id: String(elsewhere.id) })).statusCode).toBe(404);
  });

  it('refuses a token without dashboard view (403), no token (401) and a bad plant_id (400)', async () => {
    const manager = await makeUser(t, { companyId: tree.companyId, permissions: pairs(ORG_PAGES) });
    const denied = await catalog(manager.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ detail: 'errors.forbidden' });
    expect((await catalog(undefined)).statusCode).toBe(401);
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await catalog(admin.token, { plant_id: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ errors: { plant_id: expect.any(Array) } });
    }
  });

  it('shows the route with its answer schema in the OpenAPI document', async () => {
    const res = await t.http.get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    const get = doc.paths['/api/telemetry/catalog']?.get;
    expect(get?.responses['200']).toBeDefined();
    expect(JSON.stringify(get)).toContain('field_name');
  });
});
