import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission, UserUnit } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser } from '../../test/org-fixtures';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/**
 * Account takeover by a narrowed manager (outside attack, 2026-11-28): a user may manage only users whose
 * scope lies within their own and whose role grants nothing they lack. The matrix: three managers (a
 * plant, a field, the whole company) × five target scopes × two roles × every user-managing route.
 */

type ScopeName = 'wholeCompany' | 'field' | 'plant' | 'anotherPlant' | 'anotherCompany';
type ManagerName = 'plantManager' | 'fieldManager' | 'companyManager';
type RoleName = 'subset' | 'superset';
const SCOPES: ScopeName[] = ['wholeCompany', 'field', 'plant', 'anotherPlant', 'anotherCompany'];
const MANAGERS: ManagerName[] = ['plantManager', 'fieldManager', 'companyManager'];
const ROLES: RoleName[] = ['subset', 'superset'];

/** Which target scopes each manager's own scope contains (plant 1 lies in field 1; "another plant" does not). */
const WITHIN: Record<ManagerName, ScopeName[]> = {
  plantManager: ['plant'],
  fieldManager: ['field', 'plant'],
  companyManager: ['wholeCompany', 'field', 'plant', 'anotherPlant'],
};

const MANAGER_PERMISSIONS: Permission[] = [
  ...pairs(['user_management'], ['view', 'create', 'update']),
  ...pairs(['plant'], ['view']),
];
const ROLE_PERMISSIONS: Record<RoleName, Permission[]> = {
  subset: pairs(['plant'], ['view']),
  superset: [...MANAGER_PERMISSIONS, ...pairs(['role_management'], ['view'])],
};

type Route = 'update' | 'deactivate' | 'password' | 'email' | 'create';
const ROUTES: Route[] = ['update', 'deactivate', 'password', 'email', 'create'];

describe(`user manageability by scope and role (${dialectUnderTest})`, { timeout: 300_000 }, () => {
  let t: TestApp;
  let companyA: number;
  let companyB: number;
  const units = {} as Record<ScopeName, UserUnit[]>;
  const managers = {} as Record<ManagerName, TestUser>;

  beforeAll(async () => {
    // A cheaper password hash: allowed password changes hash (the cost is not what is tested).
    t = await createTestApp({ scryptLogN: 10 });
    const admin = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    const a = await makeTree(t, admin, 'A');
    const b = await makeTree(t, admin, 'B');
    companyA = a.companyId;
    companyB = b.companyId;
    const field2 = await save(t, admin, '/api/fields/0', { company_id: companyA, name: 'A Field 2' });
    const plant3 = await save(t, admin, '/api/plants/0', {
      field_id: field2.id,
      name: 'A Plant 3',
      time_zone: 'Europe/Istanbul',
    });
    units.wholeCompany = [];
    units.field = [{ unit_type: 'field', unit_id: a.fieldId }];
    units.plant = [{ unit_type: 'plant', unit_id: a.plantId }];
    units.anotherPlant = [{ unit_type: 'plant', unit_id: plant3.id }];
    units.anotherCompany = [];
    const managerUnits: Record<ManagerName, UserUnit[]> = {
      plantManager: units.plant,
      fieldManager: units.field,
      companyManager: [],
    };
    for (const name of MANAGERS) {
      managers[name] = await makeUser(t, {
        companyId: companyA,
        permissions: MANAGER_PERMISSIONS,
        units: managerUnits[name],
      });
    }
  });
  afterAll(() => t.close());

  const companyOf = (scope: ScopeName) => (scope === 'anotherCompany' ? companyB : companyA);

  async function target(scope: ScopeName, role: RoleName) {
    const user = await makeUser(t, {
      companyId: companyOf(scope),
      permissions: ROLE_PERMISSIONS[role],
      units: units[scope],
    });
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['role_id', 'email', 'username'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { ...user, roleId: row.role_id, email: row.email, username: row.username };
  }

  /** One call of `route` by the manager on a fresh target of (scope, role); answers the status. */
  async function attempt(manager: TestUser, route: Route, scope: ScopeName, role: RoleName) {
    const victim = await target(scope, role);
    const profile = {
      name: 'Taken',
      surname: 'Over',
      username: victim.username,
      telephone: '+90 555 000 00 01',
      email: victim.email,
    };
    const upsert = { ...profile, role_id: victim.roleId, user_units: units[scope], is_active: true };
    const token = manager.token;
    switch (route) {
      case 'update':
        return (await t.http.post(`/api/users/${victim.id}`, upsert, { token })).statusCode;
      case 'deactivate':
        return (await t.http.post(`/api/users/${victim.id}`, { ...upsert, is_active: false }, { token }))
          .statusCode;
      case 'password':
        return (await t.http.post(`/api/users/${victim.id}/password`, { password: 'Taken!Over1' }, { token }))
          .statusCode;
      case 'email':
        return (
          await t.http.post(
            `/api/users/profile/${victim.id}`,
            { ...profile, email: `attacker-${victim.id}@evil.example.com` },
            { token },
          )
        ).statusCode;
      case 'create': {
        const body = {
          ...profile,
          username: `new-${victim.username}`,
          email: `new-${victim.email}`,
          role_id: victim.roleId,
          user_units: units[scope],
          company_id: companyOf(scope),
          password: 'Brand!New1',
        };
        return (await t.http.post('/api/users/0', body, { token })).statusCode;
      }
    }
  }

  function expected(manager: ManagerName, route: Route, scope: ScopeName, role: RoleName): number {
    // Another company's users are out of sight (404); creating in it is refused (403).
    if (scope === 'anotherCompany') return route === 'create' ? 403 : 404;
    return role === 'subset' && WITHIN[manager].includes(scope) ? 200 : 403;
  }

  for (const manager of MANAGERS) {
    it(`${manager}: manages exactly the users within its scope whose role it holds`, async () => {
      const wrong: string[] = [];
      for (const route of ROUTES) {
        for (const scope of SCOPES) {
          for (const role of ROLES) {
            const status = await attempt(managers[manager], route, scope, role);
            const want = expected(manager, route, scope, role);
            if (status !== want) wrong.push(`${route} ${scope} ${role}: ${status}, expected ${want}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('a refused takeover changes nothing: password, email and the victim’s sessions stay', async () => {
    const victim = await target('wholeCompany', 'subset');
    const before = await t.ctx.db
      .selectFrom('users')
      .select(['password_hash', 'email', 'token_version'])
      .where('id', '=', victim.id)
      .executeTakeFirstOrThrow();
    const token = managers.plantManager.token;
    const refused = await t.http.post(
      `/api/users/${victim.id}/password`,
      { password: 'Taken!Over1' },
      { token },
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ detail: 'errors.userOutOfScope' });
    const after = await t.ctx.db
      .selectFrom('users')
      .select(['password_hash', 'email', 'token_version'])
      .where('id', '=', victim.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await t.http.get(`/api/users/${victim.id}`, { token: victim.token })).statusCode).toBe(200);
  });
});
