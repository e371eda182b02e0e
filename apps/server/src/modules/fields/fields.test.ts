import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Field, FieldList } from '@solar/shared';
import { makeTree, makeUser, pairs, save, snapshot, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`fields (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let companyId: number;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    companyId = (await save(t, admin.token, '/api/companies/0', { name: 'Fields Co' })).id;
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/fields', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FieldList>();
  };

  it('creates, reads, updates and deletes a field', async () => {
    const created = await save<Field>(t, admin.token, '/api/fields/0', {
      company_id: companyId,
      name: 'Karapınar',
      city: 'Konya',
      district: 'Karapınar',
      latitude: 37.7161,
      longitude: 33.551,
    });
    expect(created).toMatchObject({
      company_id: companyId,
      company_name: 'Fields Co',
      latitude: 37.7161,
      is_active: true,
    });
    expect((await t.http.get(`/api/fields/${created.id}`, { token: admin.token })).json()).toEqual(created);
    const updated = await save<Field>(t, admin.token, `/api/fields/${created.id}`, {
      company_id: companyId,
      name: 'Karapınar 2',
      latitude: null,
    });
    expect(updated).toMatchObject({ name: 'Karapınar 2', latitude: null, city: null });
    expect((await t.http.delete(`/api/fields/${created.id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await t.http.get(`/api/fields/${created.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it('lists with paging, sorting and the company, is_active and search filters', async () => {
    const other = (await save(t, admin.token, '/api/companies/0', { name: 'Other Fields Co' })).id;
    for (const [name, city, company, active] of [
      ['Lf A', 'Konya', companyId, true],
      ['Lf B', 'Antalya', companyId, false],
      ['Lf C', 'Kayseri', companyId, true],
      ['Lf D', 'Štip', other, true],
    ] as const) {
      await save(t, admin.token, '/api/fields/0', { company_id: company, name, city, is_active: active });
    }
    expect((await list({ q: 'lf ', company_id: String(companyId) })).total).toBe(3);
    expect((await list({ q: 'lf ', company_id: String(other) })).items.map((f) => f.name)).toEqual(['Lf D']);
    expect((await list({ q: 'lf ', is_active: '0' })).items.map((f) => f.name)).toEqual(['Lf B']);
    expect((await list({ q: 'kayseri' })).items.map((f) => f.name)).toEqual(['Lf C']);
    const page = await list({ q: 'lf ', sort: '-name', pageSize: '3', page: '2' });
    expect(page).toMatchObject({ total: 4, items: [{ name: 'Lf A' }] });
    const byCompany = await list({ q: 'lf ', sort: '-company_name', pageSize: '1' });
    expect(byCompany.items[0]!.name).toBe('Lf D');
  });

  it('validates the body and names each bad field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ company_id: companyId }, 'name', 'validation.required'],
      [{ name: 'F' }, 'company_id', 'validation.required'],
      [{ company_id: companyId, name: 'F', latitude: 91 }, 'latitude', 'validation.latitudeRange'],
      [{ company_id: companyId, name: 'F', latitude: -90.5 }, 'latitude', 'validation.latitudeRange'],
      [{ company_id: companyId, name: 'F', longitude: 181 }, 'longitude', 'validation.longitudeRange'],
      [{ company_id: companyId, name: 'F', latitude: 'north' }, 'latitude', 'validation.invalidNumber'],
      [{ company_id: 'abc', name: 'F' }, 'company_id', 'validation.invalidNumber'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.http.post('/api/fields/0', body, { token: admin.token });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field], JSON.stringify(body)).toContain(
        message,
      );
    }
  });

  it('answers 404 for a field under a company that does not exist', async () => {
    const res = await t.http.post(
      '/api/fields/0',
      { company_id: 99999, name: 'Nowhere' },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(404);
  });

  it('refuses to delete a field with plants (409)', async () => {
    const tree = await makeTree(t, admin.token, 'FieldParent');
    const res = await t.http.delete(`/api/fields/${tree.fieldId}`, { token: admin.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      detail: 'errors.hasChildren',
      errors: { plants: ['errors.hasChildren'] },
    });
  });

  it('lets a user narrowed to one field edit it but not create or delete fields (403)', async () => {
    const tree = await makeTree(t, admin.token, 'Narrow');
    const sibling = await save<Field>(t, admin.token, '/api/fields/0', {
      company_id: tree.companyId,
      name: 'Sibling',
    });
    const user = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['field_management']),
      units: [{ unit_type: 'field', unit_id: tree.fieldId }],
    });
    expect((await list({}, user.token)).items.map((f) => f.id)).toEqual([tree.fieldId]);
    expect((await t.http.get(`/api/fields/${sibling.id}`, { token: user.token })).statusCode).toBe(404);
    await save(t, user.token, `/api/fields/${tree.fieldId}`, {
      company_id: tree.companyId,
      name: 'Narrow Renamed',
    });
    const before = await snapshot(t);
    const create = await t.http.post(
      '/api/fields/0',
      { company_id: tree.companyId, name: 'New' },
      { token: user.token },
    );
    expect(create.statusCode).toBe(403);
    expect((await t.http.delete(`/api/fields/${tree.fieldId}`, { token: user.token })).statusCode).toBe(403);
    expect(await snapshot(t)).toEqual(before);
  });
});
