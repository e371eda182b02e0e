import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type Role, type RoleList } from '@solar/shared';
import { makeUser, pairs, save, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`roles (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/roles', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RoleList>();
  };

  it('creates, reads, updates and deletes a role with its permissions', async () => {
    const created = await save<Role>(t, admin.token, '/api/roles/0', {
      name: 'Operator Plus',
      description: 'Reads plants and alarms',
      permissions: [
        { page: 'plant', method: 'view' },
        { page: 'alarm', method: 'view' },
        { page: 'plant', method: 'view' },
      ],
    });
    expect(created).toMatchObject({
      name: 'Operator Plus',
      is_admin: false,
      user_count: 0,
      permissions: [
        { page: 'alarm', method: 'view' },
        { page: 'plant', method: 'view' },
      ],
    });
    expect((await t.http.get(`/api/roles/${created.id}`, { token: admin.token })).json()).toEqual(created);
    const updated = await save<Role>(t, admin.token, `/api/roles/${created.id}`, {
      name: 'Operator Plus',
      permissions: [{ page: 'fault', method: 'update' }],
    });
    expect(updated).toMatchObject({ description: null, permissions: [{ page: 'fault', method: 'update' }] });
    expect((await t.http.delete(`/api/roles/${created.id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await t.http.get(`/api/roles/${created.id}`, { token: admin.token })).statusCode).toBe(404);
    const perms = await t.ctx.db
      .selectFrom('role_permissions')
      .selectAll()
      .where('role_id', '=', created.id)
      .execute();
    expect(perms).toEqual([]);
  });

  it('lists with paging, sorting and search', async () => {
    for (const name of ['Lr Alpha', 'Lr Beta', 'Lr Gamma'])
      await save(t, admin.token, '/api/roles/0', { name });
    expect(await list({ q: 'lr ', sort: '-name', pageSize: '2' })).toMatchObject({
      total: 3,
      items: [{ name: 'Lr Gamma' }, { name: 'Lr Beta' }],
    });
    expect((await list({ q: 'lr ', pageSize: '2', page: '2' })).items.map((r) => r.name)).toEqual([
      'Lr Gamma',
    ]);
  });

  it('refuses a duplicate name (409) and bad permissions (400)', async () => {
    await save(t, admin.token, '/api/roles/0', { name: 'Unique Role' });
    const dup = await t.http.post('/api/roles/0', { name: 'unique role' }, { token: admin.token });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ errors: { name: ['validation.duplicate'] } });
    const bad = await t.http.post(
      '/api/roles/0',
      { name: 'Bad', permissions: [{ page: 'nowhere', method: 'view' }] },
      { token: admin.token },
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ errors: object }>().errors)).toContain('permissions.0.page');
    const noName = await t.http.post('/api/roles/0', { permissions: [] }, { token: admin.token });
    expect(noName.json()).toMatchObject({ errors: { name: ['validation.required'] } });
  });

  it('refuses to delete a role still assigned (409) and the administrator role', async () => {
    const role = await save<Role>(t, admin.token, '/api/roles/0', { name: 'Assigned' });
    const user = await makeUser(t, {});
    await t.ctx.db.updateTable('users').set({ role_id: role.id }).where('id', '=', user.id).execute();
    expect((await t.http.get(`/api/roles/${role.id}`, { token: admin.token })).json()).toMatchObject({
      user_count: 1,
    });
    const res = await t.http.delete(`/api/roles/${role.id}`, { token: admin.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ detail: 'errors.roleInUse' });

    const adminRole = await t.ctx.db
      .insertInto('roles')
      .values({ name: 'Spare Admin', description: null, is_admin: 1, created_at: 0, updated_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const locked = await t.http.delete(`/api/roles/${adminRole.id}`, { token: admin.token });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toMatchObject({ detail: 'errors.adminRoleLocked' });
    // The administrator role keeps every pair whatever the body says.
    const kept = await save<Role>(t, admin.token, `/api/roles/${adminRole.id}`, {
      name: 'Spare Admin',
      permissions: [],
    });
    expect(kept.permissions).toHaveLength(ALL_PERMISSIONS.length);
  });

  it('lets only the admin change roles; the view pair reads them', async () => {
    const manager = await makeUser(t, { permissions: pairs(['role_management']) });
    const role = await save<Role>(t, admin.token, '/api/roles/0', { name: 'Target' });
    expect((await t.http.post('/api/roles/0', { name: 'Mine' }, { token: manager.token })).statusCode).toBe(
      403,
    );
    expect(
      (await t.http.post(`/api/roles/${role.id}`, { name: 'Mine' }, { token: manager.token })).statusCode,
    ).toBe(403);
    expect((await t.http.delete(`/api/roles/${role.id}`, { token: manager.token })).statusCode).toBe(403);
    expect((await t.http.get(`/api/roles/${role.id}`, { token: manager.token })).json()).toMatchObject({
      name: 'Target',
    });
    const nobody = await makeUser(t, { permissions: [] });
    expect((await t.http.get('/api/roles', { token: nobody.token })).statusCode).toBe(403);
  });
});
