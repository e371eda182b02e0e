import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantList } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type Tree, type TestUser } from '../../test/org-fixtures';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/**
 * Authenticating a request costs ONE database round trip (plugins/auth.ts, one statement for the
 * session user, its permissions and its units), with no cache, so every change counts on the next request.
 */
describe(`authentication round trips (${dialectUnderTest})`, { timeout: 60_000 }, () => {
  // The statements of the request the test is making: Kysely's log hook runs in the caller's async context,
  // so background work (timers started before) never lands in a request's list.
  const requestStatements = new AsyncLocalStorage<string[]>();
  let t: TestApp;
  let admin: string;
  let a: Tree;
  let b: Tree;
  let secondPlantOfA: number;

  /** The statements a call sends, in order. */
  const statementsOf = async (call: () => Promise<unknown>) => {
    const seen: string[] = [];
    await requestStatements.run(seen, call);
    return seen;
  };

  beforeAll(async () => {
    t = await createTestApp(
      { scryptLogN: 10 },
      { onQuery: (event) => requestStatements.getStore()?.push(event.query.sql) },
    );
    admin = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    a = await makeTree(t, admin, 'A');
    b = await makeTree(t, admin, 'B');
    const plant = await save(t, admin, '/api/plants/0', {
      field_id: a.fieldId,
      name: 'A Plant 2',
      time_zone: 'Europe/Istanbul',
    });
    secondPlantOfA = plant.id;
  });
  afterAll(() => t.close());

  it('authenticates with one statement reading the user, its permissions and its units', async () => {
    // No company_management permission: the request ends in the auth hook (403), so every statement is auth's.
    const user = await makeUser(t, { permissions: pairs(['plant_management']) });
    let res: { statusCode: number } | undefined;
    const statements = await statementsOf(async () => {
      res = await t.http.get('/api/companies', { token: user.token });
    });
    expect(res?.statusCode).toBe(403);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/\busers\b/);
    expect(statements[0]).toMatch(/\brole_permissions\b/);
    expect(statements[0]).toMatch(/\buser_units\b/);

    // A refused token (older version) costs the same one statement.
    await t.ctx.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', user.id)
      .execute();
    const refused = await statementsOf(async () => {
      res = await t.http.get('/api/companies', { token: user.token });
    });
    expect(res?.statusCode).toBe(401);
    expect(refused).toHaveLength(1);
  });

  it('sees unit, company, permission and activation changes on the very next request', async () => {
    const user: TestUser = await makeUser(t, {
      permissions: pairs(['plant_management'], ['view']),
      companyId: a.companyId,
    });
    const plants = async () => {
      const res = await t.http.get('/api/plants', { token: user.token });
      return res.statusCode === 200
        ? res
            .json<PlantList>()
            .items.map((p) => p.id)
            .sort((x, y) => x - y)
        : res.statusCode;
    };
    expect(await plants()).toEqual([a.plantId, secondPlantOfA]);

    // A unit narrows the company to one plant.
    await t.ctx.db
      .insertInto('user_units')
      .values({ user_id: user.id, unit_type: 'plant', unit_id: secondPlantOfA })
      .execute();
    expect(await plants()).toEqual([secondPlantOfA]);

    // Another company, without units.
    await t.ctx.db.deleteFrom('user_units').where('user_id', '=', user.id).execute();
    await t.ctx.db.updateTable('users').set({ company_id: b.companyId }).where('id', '=', user.id).execute();
    expect(await plants()).toEqual([b.plantId]);

    // The role loses its permission, then gets it back.
    const { role_id: roleId } = await t.ctx.db
      .selectFrom('users')
      .select('role_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    await t.ctx.db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
    expect(await plants()).toBe(403);
    await t.ctx.db
      .insertInto('role_permissions')
      .values({ role_id: roleId, page: 'plant_management', method: 'view' })
      .execute();
    expect(await plants()).toEqual([b.plantId]);

    // Deactivated, then active again.
    await t.ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect(await plants()).toBe(401);
    await t.ctx.db.updateTable('users').set({ is_active: 1 }).where('id', '=', user.id).execute();
    expect(await plants()).toEqual([b.plantId]);
  });
});
