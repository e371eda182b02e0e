import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList } from '@solar/shared';
import { makeUser, pairs, save, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`audit (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
  });
  afterAll(() => t.close());

  const audit = async (query: Record<string, string>) => {
    const res = await t.http.get('/api/audit', { token: admin.token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuditList>();
  };

  it('records every create, update and delete with before and after, for each resource', async () => {
    const company = await save(t, admin.token, '/api/companies/0', { name: 'Audit Co' });
    const field = await save(t, admin.token, '/api/fields/0', {
      company_id: company.id,
      name: 'Audit Field',
    });
    const plant = await save(t, admin.token, '/api/plants/0', {
      field_id: field.id,
      name: 'Audit Plant',
      time_zone: 'UTC',
    });
    const device = await save(t, admin.token, '/api/devices/0', {
      plant_id: plant.id,
      name: 'Audit Device',
      type: 'meter',
      protocol: 'http',
    });
    const signal = await save(t, admin.token, '/api/signals/0', {
      device_id: device.id,
      key: 'power',
      name: 'P',
    });
    const role = await save(t, admin.token, '/api/roles/0', { name: 'Audit Role' });
    const steps: [string, string, number, Record<string, unknown>][] = [
      ['company', 'companies', company.id, { name: 'Audit Co 2' }],
      ['field', 'fields', field.id, { company_id: company.id, name: 'Audit Field 2' }],
      ['plant', 'plants', plant.id, { field_id: field.id, name: 'Audit Plant 2', time_zone: 'UTC' }],
      [
        'device',
        'devices',
        device.id,
        { plant_id: plant.id, name: 'Audit Device 2', type: 'meter', protocol: 'http' },
      ],
      ['signal', 'signals', signal.id, { device_id: device.id, key: 'power', name: 'P2' }],
      ['role', 'roles', role.id, { name: 'Audit Role 2' }],
    ];
    for (const [, path, id, body] of steps) await save(t, admin.token, `/api/${path}/${id}`, body);
    // Delete bottom-up so that every delete succeeds.
    for (const [, path, id] of [...steps].reverse()) {
      expect((await t.http.delete(`/api/${path}/${id}`, { token: admin.token })).statusCode).toBe(204);
    }

    for (const [entity, , id] of steps) {
      const { items, total } = await audit({ entity, entity_id: String(id) });
      expect(total, entity).toBe(3);
      const [del, upd, crt] = items;
      expect(crt).toMatchObject({ action: 'create', user_id: admin.id, before: null, after: { id } });
      expect(upd).toMatchObject({ action: 'update', before: { id }, after: { id } });
      expect(del).toMatchObject({ action: 'delete', before: { id }, after: null });
      expect(crt!.user_name).toMatch(/^Test /);
      expect(crt!.ip).toBeTruthy();
    }
    const company2 = (await audit({ entity: 'company', entity_id: String(company.id) })).items[1]!;
    expect(company2.before).toMatchObject({ name: 'Audit Co' });
    expect(company2.after).toMatchObject({ name: 'Audit Co 2' });
  });

  it('filters by user and time and pages', async () => {
    const other = await makeUser(t, { admin: true });
    await save(t, other.token, '/api/companies/0', { name: 'By Other' });
    const mine = await audit({ user_id: String(other.id) });
    expect(mine).toMatchObject({ total: 1, items: [{ entity: 'company', action: 'create' }] });
    expect((await audit({ from: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
    expect((await audit({ to: '2000-01-01' })).total).toBe(0);
    const all = await audit({});
    expect((await audit({ pageSize: '1', page: '2' })).items[0]).toEqual(all.items[1]);
    const bad = await t.http.get('/api/audit', { token: admin.token, query: { from: 'yesterday' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: { from: ['validation.invalidDate'] } });
  });

  it('is for the admin only, even with the admin_panel pair', async () => {
    const viewer = await makeUser(t, { permissions: pairs(['admin_panel']) });
    expect((await t.http.get('/api/audit', { token: viewer.token })).statusCode).toBe(403);
    expect((await t.http.get('/api/audit')).statusCode).toBe(401);
  });

  it('writes no audit row when a change is refused', async () => {
    const before = (await audit({})).total;
    await t.http.post('/api/companies/0', { name: '' }, { token: admin.token });
    await t.http.delete('/api/companies/999999', { token: admin.token });
    expect((await audit({})).total).toBe(before);
  });
});
