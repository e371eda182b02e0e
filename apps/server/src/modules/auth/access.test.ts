import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@solar/shared';
import { hashPassword } from '../../lib/password';
import { makeUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/** A concrete URL for a route pattern: every parameter 1 (or 0 where asked), wildcards a plain segment. */
function urlOf(pattern: string, id: number): string {
  return pattern.replace(/:\w+(\([^)]*\))?/g, String(id)).replace(/\*/g, 'x');
}

/**
 * Walks every /api route registered, including the ones other modules add later: a permission route
 * refuses a token whose role lacks the pair (403) and a call without a token (401); an authenticated
 * route refuses a call without a token.
 */
describe(`route access table (${dialectUnderTest})`, () => {
  let t: TestApp;
  let noRights: string;

  beforeAll(async () => {
    t = await createTestApp();
    const now = Date.now();
    const role = await t.ctx.db
      .insertInto('roles')
      .values({ name: 'Yetkisiz', description: null, is_admin: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('users')
      .values({
        name: 'Yetkisiz',
        surname: 'Kullanıcı',
        username: 'yetkisiz',
        telephone: '+90 555 999 99 99',
        email: 'yetkisiz@example.com',
        password_hash: await hashPassword('Yetkisiz!1', 10),
        language_id: 1,
        is_active: 1,
        role_id: role.id,
        company_id: null,
        tokens_valid_after: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    noRights = await t.http.login('yetkisiz@example.com', 'Yetkisiz!1');
  });
  afterAll(() => t.close());

  it('declares access on every /api route and covers the users calls', () => {
    const routes = t.app.accessTable.map((r) => `${r.method} ${r.url.toLowerCase()}`);
    for (const expected of [
      'POST /api/users/login',
      'GET /api/users',
      'GET /api/users/:id',
      'POST /api/users/:id',
      'POST /api/users/profile/:id',
      'POST /api/users/:id/password',
      'GET /api/users/dashboard',
      'POST /api/users/dashboard',
      'POST /api/users/resetpasswordrequest',
      'POST /api/users/checkresetpasswordrequest',
      'POST /api/users/resetpassword',
    ]) {
      expect(routes).toContain(expected);
    }
  });

  it('refuses a token without the permission (403) and no token (401) on every permission route', async () => {
    const permissionRoutes = t.app.accessTable.filter((r) => r.access.kind === 'permission');
    expect(permissionRoutes.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const route of permissionRoutes) {
      const upsert = route.access.kind === 'permission' && route.access.method === 'upsert';
      for (const id of upsert ? [0, 1] : [1]) {
        const url = urlOf(route.url, id);
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
        const denied = await t.http.call(route.method, url, { token: noRights, body });
        if (denied.statusCode !== 403)
          failures.push(`${route.method} ${url} with no rights: ${denied.statusCode}`);
        else expect(denied.json()).toMatchObject({ detail: 'errors.forbidden' });
        const anonymous = await t.http.call(route.method, url, { body });
        if (anonymous.statusCode !== 401)
          failures.push(`${route.method} ${url} without a token: ${anonymous.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('admits only the administrator to the administrator routes, declared in the table (access.admin)', async () => {
    const adminRoutes = t.app.accessTable
      .filter((r) => r.access.kind === 'permission' && r.access.adminOnly)
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    // The routes that answered 403 to anyone but the administrator before the check became data: none may
    // lose it (a route added here on purpose is added to the list).
    expect(adminRoutes).toEqual(
      [
        'GET /api/admin/settings',
        'POST /api/admin/settings',
        'POST /api/admin/settings/logo',
        'DELETE /api/admin/settings/logo',
        'POST /api/admin/settings/test-mail',
        'GET /api/admin/co2-factors',
        'POST /api/admin/co2-factors/:country',
        'DELETE /api/admin/co2-factors/:country',
        'GET /api/audit',
        'GET /api/admin/audit/export',
        'GET /api/health/collectors',
        'GET /api/admin/system',
        'GET /api/admin/backup',
        'GET /api/admin/sessions',
        'POST /api/admin/users/:id/revoke-sessions',
        'POST /api/companies/:id',
        'DELETE /api/companies/:id',
        'POST /api/roles/:id',
        'DELETE /api/roles/:id',
      ].sort(),
    );
    // Every pair of every page, without being the administrator: still 403, before the body is read.
    const everything = await makeUser(t, { permissions: ALL_PERMISSIONS });
    const failures: string[] = [];
    for (const route of t.app.accessTable.filter(
      (r) => r.access.kind === 'permission' && r.access.adminOnly,
    )) {
      for (const id of route.url.includes(':id') ? [0, 1] : [1]) {
        const url = urlOf(route.url, id);
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
        const res = await t.http.call(route.method, url, { token: everything.token, body });
        if (res.statusCode !== 403) failures.push(`${route.method} ${url}: ${res.statusCode}`);
        else expect(res.json()).toMatchObject({ detail: 'errors.forbidden' });
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses no credentials (401), a bad X-Api-Key (401) and a token without the permission (403) on every ingest route', async () => {
    const ingestRoutes = t.app.accessTable.filter((r) => r.access.kind === 'ingest');
    expect(ingestRoutes.map((r) => `${r.method} ${r.url}`)).toContain('POST /api/telemetry');
    const failures: string[] = [];
    for (const route of ingestRoutes) {
      const url = urlOf(route.url, 1);
      const body = { points: [{ signal_id: 1, ts: 0, value: 1 }] };
      const checks: [string, Parameters<typeof t.http.call>[2], number][] = [
        ['no credentials', { body }, 401],
        ['a bad key', { body, headers: { 'x-api-key': 'sk_wrong' }, xsrf: false }, 401],
        ['no rights', { body, token: noRights }, 403],
      ];
      for (const [what, options, status] of checks) {
        const res = await t.http.call(route.method, url, options);
        if (res.statusCode !== status)
          failures.push(`${route.method} ${url} with ${what}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a call without a token on every authenticated route', async () => {
    const failures: string[] = [];
    for (const route of t.app.accessTable.filter((r) => r.access.kind === 'authenticated')) {
      const url = urlOf(route.url, 1);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const res = await t.http.call(route.method, url, { body });
      if (res.statusCode !== 401) failures.push(`${route.method} ${url}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
