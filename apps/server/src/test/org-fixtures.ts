import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ALL_PERMISSIONS, type Method, type Page, type Permission, type UserUnit } from '@solar/shared';
import type { TestApp } from './test-app';

/** Organisation test fixtures: users made straight in the database with a signed token, and a small tree over HTTP. */
export interface TestUser {
  id: number;
  token: string;
}

export interface UserSpec {
  admin?: boolean;
  companyId?: number | null;
  permissions?: readonly Permission[];
  units?: readonly UserUnit[];
}

/** Every method on the given pages. */
export const pairs = (
  pages: readonly Page[],
  methods: readonly Method[] = ['view', 'create', 'update', 'delete'],
) => pages.flatMap((page) => methods.map((method) => ({ page, method })));

export const ORG_PAGES: Page[] = [
  'company_management',
  'field_management',
  'plant_management',
  'device_management',
  'device_signals',
  'role_management',
];

/** A user with a role of its own; the token is signed like a login would. */
export async function makeUser(t: TestApp, spec: UserSpec = {}): Promise<TestUser> {
  const db = t.ctx.db;
  const now = Date.now();
  const tag = randomBytes(5).toString('hex');
  const permissions = spec.admin ? ALL_PERMISSIONS : (spec.permissions ?? pairs(ORG_PAGES));
  const role = await db
    .insertInto('roles')
    .values({
      name: `role-${tag}`,
      description: null,
      is_admin: spec.admin ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (permissions.length) {
    await db
      .insertInto('role_permissions')
      .values(permissions.map((p) => ({ role_id: role.id, page: p.page, method: p.method })))
      .execute();
  }
  const user = await db
    .insertInto('users')
    .values({
      name: 'Test',
      surname: tag,
      username: `user-${tag}`,
      telephone: '+90 555 000 00 00',
      email: `${tag}@test.example.com`,
      password_hash: 'not-a-hash',
      language_id: 1,
      is_active: 1,
      role_id: role.id,
      company_id: spec.companyId ?? null,
      tokens_valid_after: 0,
      email_confirmed_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (spec.units?.length) {
    await db
      .insertInto('user_units')
      .values(spec.units.map((u) => ({ user_id: user.id, unit_type: u.unit_type, unit_id: u.unit_id })))
      .execute();
  }
  // A sign-in of its own, as a login records it: tokens naming none are refused (docs/security.md).
  const session = await t.ctx.sessions.start(user.id, 8 * 3600_000, { ip: null, userAgent: undefined });
  const token = await t.ctx.tokens.sign(
    {
      id: user.id,
      name: `Test ${tag}`,
      role_id: role.id,
      permissions: [...permissions],
      sessionId: session.sessionId,
      generation: 0,
    },
    false,
    session.expiresAt - t.ctx.now(),
  );
  return { id: user.id, token };
}

/** POST x/{id} as `token`; throws unless 200, answers the saved record. */
export async function save<T = Record<string, unknown>>(
  t: TestApp,
  token: string,
  path: string,
  body: unknown,
): Promise<T & { id: number }> {
  const res = await t.http.post(path, body, { token });
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return res.json<T & { id: number }>();
}

export interface Tree {
  companyId: number;
  fieldId: number;
  plantId: number;
  deviceId: number;
  signalId: number;
}

/** A company with one field, plant, device (Modbus TCP inverter) and signal, made by the admin over HTTP. */
export async function makeTree(t: TestApp, adminToken: string, name = 'Tree'): Promise<Tree> {
  const company = await save(t, adminToken, '/api/companies/0', { name: `${name} Co` });
  const field = await save(t, adminToken, '/api/fields/0', { company_id: company.id, name: `${name} Field` });
  const plant = await save(t, adminToken, '/api/plants/0', {
    field_id: field.id,
    name: `${name} Plant`,
    time_zone: 'Europe/Istanbul',
  });
  const device = await save(t, adminToken, '/api/devices/0', {
    plant_id: plant.id,
    name: `${name} INV-01`,
    type: 'inverter',
    protocol: 'modbus_tcp',
    ip: '10.0.0.10',
    port: 502,
    slave_id: 1,
  });
  const signal = await save(t, adminToken, '/api/signals/0', {
    device_id: device.id,
    key: 'ac_power',
    name: 'AC Power',
    unit: 'kW',
  });
  return {
    companyId: company.id,
    fieldId: field.id,
    plantId: plant.id,
    deviceId: device.id,
    signalId: signal.id,
  };
}

/** A valid body for POST x/{id} of each organisation resource, under the given tree. */
export function validBodies(tree: Tree, name = 'Changed'): Record<string, unknown> {
  return {
    companies: { name: `${name} Co` },
    fields: { company_id: tree.companyId, name: `${name} Field` },
    plants: { field_id: tree.fieldId, name: `${name} Plant`, time_zone: 'Europe/Skopje' },
    devices: { plant_id: tree.plantId, name: `${name} Meter`, type: 'meter', protocol: 'http' },
    signals: { device_id: tree.deviceId, key: 'changed_key', name: `${name} Signal` },
  };
}

/** Rows of each organisation table, to prove that refused calls changed nothing. */
export async function snapshot(t: TestApp) {
  const db = t.ctx.db;
  return {
    companies: await db.selectFrom('companies').selectAll().orderBy('id').execute(),
    fields: await db.selectFrom('fields').selectAll().orderBy('id').execute(),
    plants: await db.selectFrom('plants').selectAll().orderBy('id').execute(),
    devices: await db.selectFrom('devices').selectAll().orderBy('id').execute(),
    signals: await db.selectFrom('signals').selectAll().orderBy('id').execute(),
    audit: (
      await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  };
}
