import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeTree,
  makeUser,
  save,
  snapshot,
  validBodies,
  type TestUser,
  type Tree,
} from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { companyReach, scopeOf } from './scope';

describe('scopeOf', () => {
  it('gives the admin everything and narrows others to their company and units', () => {
    expect(scopeOf({ isAdmin: true, companyId: null, units: [] })).toEqual({ all: true });
    expect(scopeOf({ isAdmin: false, companyId: 3, units: [] })).toMatchObject({ wholeCompany: true });
    const narrowed = scopeOf({
      isAdmin: false,
      companyId: 3,
      units: [
        { unit_type: 'field', unit_id: 7 },
        { unit_type: 'plant', unit_id: 9 },
      ],
    });
    expect(narrowed).toEqual({ all: false, companyId: 3, wholeCompany: false, fieldIds: [7], plantIds: [9] });
    // A unit of another company does not widen the scope to it.
    expect(
      scopeOf({ isAdmin: false, companyId: 3, units: [{ unit_type: 'company', unit_id: 4 }] }),
    ).toMatchObject({
      wholeCompany: false,
    });
    expect(scopeOf({ isAdmin: false, companyId: null, units: [] })).toMatchObject({ wholeCompany: false });
    expect(companyReach(narrowed, 3)).toBe('narrowed');
    expect(companyReach(narrowed, 4)).toBe('hidden');
    expect(companyReach({ all: true }, 4)).toBe('whole');
  });
});

const RESOURCES = ['companies', 'fields', 'plants', 'devices', 'signals'] as const;
type Resource = (typeof RESOURCES)[number];
const idOf = (tree: Tree, r: Resource) =>
  ({
    companies: tree.companyId,
    fields: tree.fieldId,
    plants: tree.plantId,
    devices: tree.deviceId,
    signals: tree.signalId,
  })[r];

describe(`tenant isolation (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let a: Tree;
  let b: Tree;
  let userA: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    a = await makeTree(t, admin.token, 'Alpha');
    b = await makeTree(t, admin.token, 'Bravo');
    userA = await makeUser(t, { companyId: a.companyId });
  });
  afterAll(() => t.close());

  it('answers 404 to reads of company B records, and lists hold none of them', async () => {
    for (const r of RESOURCES) {
      const res = await t.http.get(`/api/${r}/${idOf(b, r)}`, { token: userA.token });
      expect(res.statusCode, r).toBe(404);
      expect(res.body, r).not.toContain('Bravo');
      expect((await t.http.get(`/api/${r}/${idOf(a, r)}`, { token: userA.token })).statusCode, r).toBe(200);
      const list = await t.http.get(`/api/${r}`, { token: userA.token, query: { pageSize: '200' } });
      expect(list.statusCode).toBe(200);
      expect(list.body, r).not.toContain('Bravo');
    }
    // Filtering by company B's ids finds nothing.
    for (const [r, query] of [
      ['fields', { company_id: b.companyId }],
      ['plants', { field_id: b.fieldId }],
      ['plants', { company_id: b.companyId }],
      ['devices', { plant_id: b.plantId }],
      ['signals', { device_id: b.deviceId }],
    ] as const) {
      const res = await t.http.get(`/api/${r}`, {
        token: userA.token,
        query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      });
      expect(res.json(), `${r} ${JSON.stringify(query)}`).toEqual({ items: [], total: 0 });
    }
  });

  it('refuses every write that touches company B (404, 403 for admin-only companies) and changes nothing', async () => {
    const before = await snapshot(t);
    const wrong: string[] = [];
    const expectRefused = async (label: string, call: Promise<{ statusCode: number }>, expected = 404) => {
      const { statusCode } = await call;
      if (statusCode !== expected) wrong.push(`${label}: ${statusCode}`);
    };
    const ownBodies = validBodies(a);
    const foreignBodies = validBodies(b);
    for (const r of RESOURCES) {
      const expected = r === 'companies' ? 403 : 404;
      // Update a B record, with a body pointing at A's parents and with one pointing at B's.
      await expectRefused(
        `update ${r}`,
        t.http.post(`/api/${r}/${idOf(b, r)}`, ownBodies[r], { token: userA.token }),
        expected,
      );
      await expectRefused(
        `update ${r} (B parents)`,
        t.http.post(`/api/${r}/${idOf(b, r)}`, foreignBodies[r], { token: userA.token }),
        expected,
      );
      await expectRefused(
        `delete ${r}`,
        t.http.delete(`/api/${r}/${idOf(b, r)}`, { token: userA.token }),
        expected,
      );
      // Create under a parent of B.
      await expectRefused(
        `create ${r} under B`,
        t.http.post(`/api/${r}/0`, foreignBodies[r], { token: userA.token }),
        expected,
      );
      // Move an A record under a parent of B.
      if (r !== 'companies') {
        await expectRefused(
          `move ${r} to B`,
          t.http.post(`/api/${r}/${idOf(a, r)}`, foreignBodies[r], { token: userA.token }),
        );
      }
    }
    // A device of A whose parent device is in B.
    await expectRefused(
      'device with parent in B',
      t.http.post(
        '/api/devices/0',
        { plant_id: a.plantId, name: 'X', type: 'inverter', protocol: 'http', parent_device_id: b.deviceId },
        { token: userA.token },
      ),
    );
    expect(wrong).toEqual([]);
    expect(await snapshot(t)).toEqual(before);
  });

  it('narrows a user with units: one field, or one plant', async () => {
    const secondField = await save(t, admin.token, '/api/fields/0', {
      company_id: a.companyId,
      name: 'Alpha Field 2',
    });
    const plantInSecond = await save(t, admin.token, '/api/plants/0', {
      field_id: secondField.id,
      name: 'Alpha Plant 2',
      time_zone: 'Europe/Istanbul',
    });
    const deviceInSecond = await save(t, admin.token, '/api/devices/0', {
      plant_id: plantInSecond.id,
      name: 'Alpha Meter 2',
      type: 'meter',
      protocol: 'http',
    });
    await save(t, admin.token, '/api/signals/0', { device_id: deviceInSecond.id, key: 'p', name: 'P' });

    const ids = async (token: string, r: Resource) =>
      (await t.http.get(`/api/${r}`, { token, query: { pageSize: '200' } }))
        .json<{ items: { id: number }[] }>()
        .items.map((i) => i.id)
        .sort((x, y) => x - y);

    const fieldUser = await makeUser(t, {
      companyId: a.companyId,
      units: [{ unit_type: 'field', unit_id: secondField.id }],
    });
    expect(await ids(fieldUser.token, 'fields')).toEqual([secondField.id]);
    expect(await ids(fieldUser.token, 'plants')).toEqual([plantInSecond.id]);
    expect(await ids(fieldUser.token, 'devices')).toEqual([deviceInSecond.id]);
    expect(await ids(fieldUser.token, 'signals')).toHaveLength(1);
    expect((await t.http.get(`/api/plants/${a.plantId}`, { token: fieldUser.token })).statusCode).toBe(404);
    // A field unit user may add plants to that field, not to the other one.
    await save(t, fieldUser.token, '/api/plants/0', {
      field_id: secondField.id,
      name: 'Added',
      time_zone: 'UTC',
    });
    const other = await t.http.post(
      '/api/plants/0',
      { field_id: a.fieldId, name: 'No', time_zone: 'UTC' },
      { token: fieldUser.token },
    );
    expect(other.statusCode).toBe(404);

    const plantUser = await makeUser(t, {
      companyId: a.companyId,
      units: [{ unit_type: 'plant', unit_id: a.plantId }],
    });
    expect(await ids(plantUser.token, 'plants')).toEqual([a.plantId]);
    expect(await ids(plantUser.token, 'devices')).toEqual([a.deviceId]);
    expect(await ids(plantUser.token, 'signals')).toEqual([a.signalId]);
    expect(await ids(plantUser.token, 'companies')).toEqual([a.companyId]);
    expect(
      (await t.http.get(`/api/devices/${deviceInSecond.id}`, { token: plantUser.token })).statusCode,
    ).toBe(404);

    // A unit of another company reaches nothing there, and nothing at home either.
    const strayUser = await makeUser(t, {
      companyId: a.companyId,
      units: [{ unit_type: 'plant', unit_id: b.plantId }],
    });
    expect(await ids(strayUser.token, 'plants')).toEqual([]);
    expect((await t.http.get(`/api/plants/${b.plantId}`, { token: strayUser.token })).statusCode).toBe(404);

    // A company unit for the own company is the whole company.
    const companyUser = await makeUser(t, {
      companyId: a.companyId,
      units: [{ unit_type: 'company', unit_id: a.companyId }],
    });
    expect(await ids(companyUser.token, 'fields')).toEqual([a.fieldId, secondField.id].sort((x, y) => x - y));
  });
});
