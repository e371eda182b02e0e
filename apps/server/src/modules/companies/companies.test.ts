import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, CompanyList } from '@solar/shared';
import { makeTree, makeUser, pairs, save, snapshot, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`companies (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/companies', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CompanyList>();
  };

  it('creates, reads, updates and deletes a company', async () => {
    const created = await save<Company>(t, admin.token, '/api/companies/0', {
      name: '  Crud Enerji A.Ş. ',
      tax_number: '1234567890',
      tax_office: 'Selçuklu',
      address: 'Konya',
      phone: '+90 332 111 22 33',
      email: 'crud@example.com',
    });
    expect(created).toMatchObject({ name: 'Crud Enerji A.Ş.', is_active: true, email: 'crud@example.com' });
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);

    const read = await t.http.get(`/api/companies/${created.id}`, { token: admin.token });
    expect(read.json()).toEqual(created);

    const updated = await save<Company>(t, admin.token, `/api/companies/${created.id}`, {
      name: 'Crud Enerji',
      is_active: false,
      phone: '',
    });
    expect(updated).toMatchObject({
      id: created.id,
      name: 'Crud Enerji',
      is_active: false,
      phone: null,
      tax_number: null,
    });

    const del = await t.http.delete(`/api/companies/${created.id}`, { token: admin.token });
    expect(del.statusCode).toBe(204);
    expect((await t.http.get(`/api/companies/${created.id}`, { token: admin.token })).statusCode).toBe(404);
    expect((await t.http.delete(`/api/companies/${created.id}`, { token: admin.token })).statusCode).toBe(
      404,
    );
    expect(
      (await t.http.post(`/api/companies/${created.id}`, { name: 'x' }, { token: admin.token })).statusCode,
    ).toBe(404);
  });

  it('lists with paging, sorting, search and the is_active filter', async () => {
    for (const [name, active] of [
      ['Pg Alpha', true],
      ['Pg Beta', false],
      ['Pg Gamma', true],
      ['Pg Delta', true],
      ['Pg Epsilon_%', true],
    ] as const) {
      await save(t, admin.token, '/api/companies/0', { name, is_active: active });
    }
    const first = await list({ q: 'pg ', pageSize: '2', sort: 'name' });
    expect(first.total).toBe(5);
    expect(first.items.map((c) => c.name)).toEqual(['Pg Alpha', 'Pg Beta']);
    const third = await list({ q: 'pg ', pageSize: '2', page: '3', sort: 'name' });
    expect(third.items.map((c) => c.name)).toEqual(['Pg Gamma']);
    const desc = await list({ q: 'Pg ', sort: '-name' });
    expect(desc.items.map((c) => c.name)).toEqual([
      'Pg Gamma',
      'Pg Epsilon_%',
      'Pg Delta',
      'Pg Beta',
      'Pg Alpha',
    ]);
    const inactive = await list({ q: 'pg ', is_active: 'false' });
    expect(inactive.items.map((c) => c.name)).toEqual(['Pg Beta']);
    // LIKE wildcards in the search text are literal.
    expect((await list({ q: '_%' })).items.map((c) => c.name)).toEqual(['Pg Epsilon_%']);
    expect((await list({ q: 'no such company' })).total).toBe(0);
    const byId = await list({ q: 'pg ', sort: '-id', pageSize: '1' });
    expect(byId.items[0]!.name).toBe('Pg Epsilon_%');
  });

  it('refuses bad list queries with 400 naming the parameter', async () => {
    for (const [query, field] of [
      [{ pageSize: '201' }, 'pageSize'],
      [{ pageSize: '0' }, 'pageSize'],
      [{ page: '0' }, 'page'],
      [{ page: 'x' }, 'page'],
      [{ sort: 'password_hash' }, 'sort'],
      [{ is_active: 'maybe' }, 'is_active'],
    ] as const) {
      const res = await t.http.get('/api/companies', { token: admin.token, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toContain(field);
    }
  });

  it('validates the body and names each bad field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'name', 'validation.required'],
      [{ name: '   ' }, 'name', 'validation.required'],
      [{ name: 'x'.repeat(201) }, 'name', 'validation.tooLong'],
      [{ name: 'Co', email: 'not-an-email' }, 'email', 'validation.invalidEmail'],
      [{ name: 'Co', phone: 'abc' }, 'phone', 'validation.invalidPhone'],
      [{ name: 'Co', is_active: 'yes' }, 'is_active', 'validation.invalidValue'],
      [{ name: 'Co\u0000' }, 'name', 'validation.invalidValue'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.http.post('/api/companies/0', body, { token: admin.token });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field], JSON.stringify(body)).toContain(
        message,
      );
    }
    expect((await t.http.post('/api/companies/abc', { name: 'Co' }, { token: admin.token })).statusCode).toBe(
      400,
    );
    expect((await t.http.post('/api/companies/-1', { name: 'Co' }, { token: admin.token })).statusCode).toBe(
      400,
    );
  });

  it('refuses to delete a company that still has fields or users (409 errors.hasChildren)', async () => {
    const tree = await makeTree(t, admin.token, 'Parent');
    const res = await t.http.delete(`/api/companies/${tree.companyId}`, { token: admin.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      detail: 'errors.hasChildren',
      errors: { fields: ['errors.hasChildren'] },
    });

    const lonely = await save(t, admin.token, '/api/companies/0', { name: 'With User' });
    await makeUser(t, { companyId: lonely.id });
    const withUser = await t.http.delete(`/api/companies/${lonely.id}`, { token: admin.token });
    expect(withUser.statusCode).toBe(409);
    expect(withUser.json()).toMatchObject({ errors: { users: ['errors.hasChildren'] } });
  });

  describe('admin-only changes', () => {
    it('refuses create, update and delete to a non-admin holding every pair (403), changing nothing', async () => {
      const tree = await makeTree(t, admin.token, 'Own');
      const manager = await makeUser(t, {
        companyId: tree.companyId,
        permissions: pairs(['company_management']),
      });
      const before = await snapshot(t);
      expect(
        (await t.http.post('/api/companies/0', { name: 'Mine' }, { token: manager.token })).statusCode,
      ).toBe(403);
      expect(
        (await t.http.post(`/api/companies/${tree.companyId}`, { name: 'Renamed' }, { token: manager.token }))
          .statusCode,
      ).toBe(403);
      expect(
        (await t.http.delete(`/api/companies/${tree.companyId}`, { token: manager.token })).statusCode,
      ).toBe(403);
      expect(await snapshot(t)).toEqual(before);
    });

    it('lets a non-admin read only their own company', async () => {
      const own = await makeTree(t, admin.token, 'Reader');
      const other = await makeTree(t, admin.token, 'Stranger');
      const reader = await makeUser(t, {
        companyId: own.companyId,
        permissions: pairs(['company_management'], ['view']),
        units: [{ unit_type: 'plant', unit_id: own.plantId }],
      });
      const mine = await t.http.get(`/api/companies/${own.companyId}`, { token: reader.token });
      expect(mine.statusCode).toBe(200);
      expect(mine.json<Company>().name).toBe('Reader Co');
      expect(
        (await t.http.get(`/api/companies/${other.companyId}`, { token: reader.token })).statusCode,
      ).toBe(404);
      const all = await list({}, reader.token);
      expect(all).toMatchObject({ total: 1, items: [{ id: own.companyId }] });
    });

    it('shows nothing to a non-admin without a company', async () => {
      const orphan = await makeUser(t, { companyId: null });
      expect(await list({}, orphan.token)).toEqual({ items: [], total: 0 });
    });
  });
});
