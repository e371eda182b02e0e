import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type Permission } from '@solar/shared';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

interface UserAnswer {
  id: number;
  name: string;
  email: string;
  username: string;
  roleId: number;
  is_active: boolean;
  company_id: number | null;
  user_units: { unit_type: string; unit_id: number }[];
  permissions: Permission[];
  token?: string;
}
type Problem = { status: number; detail: string; errors?: Record<string, string[]> };

describe(`users (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let adminId: number;
  let operatorId: number;
  let adminRoleId: number;
  let operatorRoleId: number;
  let companyId: number;

  const newUser = (over: Record<string, unknown> = {}) => ({
    name: 'Mehmet',
    surname: 'Kaya',
    username: `mkaya${Math.random().toString(36).slice(2, 8)}`,
    telephone: '+90 532 111 22 33',
    email: `m${Math.random().toString(36).slice(2, 8)}@example.com`,
    language_id: 1,
    is_active: true,
    role_id: operatorRoleId,
    user_units: [],
    password: 'Mehmet!123',
    ...over,
  });

  async function addRole(name: string, permissions: Permission[]) {
    const now = Date.now();
    const { id } = await t.ctx.db
      .insertInto('roles')
      .values({ name, description: null, is_admin: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (permissions.length) {
      await t.ctx.db
        .insertInto('role_permissions')
        .values(permissions.map((p) => ({ role_id: id, ...p })))
        .execute();
    }
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    operator = await t.http.login(DEMO.operator.email, DEMO.operator.password);
    adminId = Number(decodeJwt(admin).sub);
    operatorId = Number(decodeJwt(operator).sub);
    adminRoleId = decodeJwt(admin).role_id as number;
    operatorRoleId = decodeJwt(operator).role_id as number;
    const now = Date.now();
    companyId = (
      await t.ctx.db
        .insertInto('companies')
        .values({
          name: 'Güneş Enerji A.Ş.',
          tax_number: null,
          tax_office: null,
          address: null,
          phone: null,
          email: null,
          is_active: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  describe('seed', () => {
    it('seeds the roles and the two accounts once', async () => {
      const roles = await t.ctx.db.selectFrom('roles').select(['name', 'is_admin']).orderBy('id').execute();
      expect(roles.slice(0, 2)).toEqual([
        { name: 'Yönetici', is_admin: 1 },
        { name: 'Operatör', is_admin: 0 },
      ]);
      const { seedAccounts } = await import('../../seed/demo');
      expect(await seedAccounts(t.ctx)).toBeUndefined();
      const users = await t.ctx.db.selectFrom('users').select('email').execute();
      expect(users.filter((u) => u.email.endsWith('@example.com')).length).toBeGreaterThanOrEqual(2);
      const hashes = await t.ctx.db.selectFrom('users').select('password_hash').execute();
      for (const h of hashes)
        expect(h.password_hash).toMatch(new RegExp(`^scrypt\\$${t.ctx.config.scryptLogN}\\$`));
    });
  });

  describe('GET Users', () => {
    it('lists the users for user_management view, without password hashes', async () => {
      const res = await t.http.get('/api/Users', { token: admin });
      expect(res.statusCode).toBe(200);
      const list = res.json<UserAnswer[]>();
      expect(list.map((u) => u.email)).toEqual(
        expect.arrayContaining([DEMO.admin.email, DEMO.operator.email]),
      );
      expect(res.body).not.toContain('password');
      expect(res.body).not.toContain('scrypt');
      const adminUser = list.find((u) => u.id === adminId)!;
      expect(adminUser).toMatchObject({ roleId: adminRoleId, is_active: true, company_id: null });
      expect(adminUser.permissions).toHaveLength(ALL_PERMISSIONS.length);
    });

    it('refuses the operator with 403', async () => {
      const res = await t.http.get('/api/users', { token: operator });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: 403, title: 'Forbidden', detail: 'errors.forbidden' });
    });
  });

  describe('GET users/{id}', () => {
    it('answers the own user with a fresh token of the current permissions', async () => {
      const res = await t.http.get(`/api/users/${operatorId}`, { token: operator });
      expect(res.statusCode).toBe(200);
      const user = res.json<UserAnswer>();
      expect(user).toMatchObject({ id: operatorId, email: DEMO.operator.email, roleId: operatorRoleId });
      const claims = decodeJwt(user.token!);
      expect(claims.sub).toBe(String(operatorId));
      expect(claims.exp! - claims.iat!).toBe(8 * 3600);
      expect(claims.permissions).toEqual(user.permissions);
    });

    it('keeps the remember flag in the fresh token', async () => {
      const res = await t.http.post('/api/users/login', { ...DEMO.operator, remember: true });
      const token = res.json<{ token: string }>().token;
      const user = (await t.http.get(`/api/users/${operatorId}`, { token })).json<UserAnswer>();
      const claims = decodeJwt(user.token!);
      expect(claims.exp! - claims.iat!).toBe(30 * 24 * 3600);
    });

    it("needs user_management view for someone else's id and never hands out their token", async () => {
      expect((await t.http.get(`/api/users/${adminId}`, { token: operator })).statusCode).toBe(403);
      const res = await t.http.get(`/api/users/${operatorId}`, { token: admin });
      expect(res.statusCode).toBe(200);
      expect(decodeJwt(res.json<UserAnswer>().token!).sub).toBe(String(adminId));
    });

    it('answers 404 for an unknown id and 400 for a bad one', async () => {
      expect((await t.http.get('/api/users/99999', { token: admin })).json()).toMatchObject({
        status: 404,
        detail: 'errors.notFound',
      });
      expect((await t.http.get('/api/users/abc', { token: admin })).statusCode).toBe(400);
    });
  });

  describe('POST users/{id}', () => {
    it('creates a user (id 0) who can then sign in, and audits it without the hash', async () => {
      const body = newUser({ email: 'Yeni.Kullanici@Example.com', company_id: companyId });
      const res = await t.http.post('/api/users/0', body, { token: admin, remoteAddress: '192.0.2.44' });
      expect(res.statusCode).toBe(200);
      const user = res.json<UserAnswer>();
      expect(user).toMatchObject({
        name: 'Mehmet',
        email: 'yeni.kullanici@example.com',
        roleId: operatorRoleId,
        company_id: companyId,
      });
      await t.http.login('yeni.kullanici@example.com', 'Mehmet!123');
      const audit = await t.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'user')
        .where('entity_id', '=', user.id)
        .where('action', '=', 'create')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ user_id: adminId, ip: '192.0.2.44', before: null });
      expect(audit.after).toContain('yeni.kullanici@example.com');
      expect(audit.after).not.toContain('password');
      expect(audit.after).not.toContain('scrypt');
    });

    it('requires a password when creating', async () => {
      const { password: _password, ...body } = newUser();
      const res = await t.http.post('/api/users/0', body, { token: admin });
      expect(res.statusCode).toBe(400);
      expect(res.json<Problem>().errors).toEqual({ password: ['validation.required'] });
    });

    it('answers bad bodies with 400 naming the fields', async () => {
      const res = await t.http.post(
        '/api/users/0',
        newUser({ email: 'broken', name: undefined, telephone: 'abc' }),
        { token: admin },
      );
      expect(res.statusCode).toBe(400);
      const { errors } = res.json<Problem>();
      expect(errors!.email).toContain('validation.invalidEmail');
      expect(errors!.name).toContain('validation.required');
      expect(errors!.telephone).toContain('validation.invalidPhone');
      const weak = await t.http.post('/api/users/0', newUser({ password: 'abc' }), { token: admin });
      expect(weak.json<Problem>().errors!.password).toContain('validation.weakPassword');
    });

    it('answers 409 for a taken email or username, 400 for an unknown role', async () => {
      const email = await t.http.post('/api/users/0', newUser({ email: 'ADMIN@example.com' }), {
        token: admin,
      });
      expect(email.statusCode).toBe(409);
      expect(email.json<Problem>()).toMatchObject({
        detail: 'errors.emailTaken',
        errors: { email: ['errors.emailTaken'] },
      });
      const username = await t.http.post('/api/users/0', newUser({ username: 'Operator' }), { token: admin });
      expect(username.statusCode).toBe(409);
      expect(username.json<Problem>().errors).toEqual({ username: ['errors.usernameTaken'] });
      const role = await t.http.post('/api/users/0', newUser({ role_id: 9999 }), { token: admin });
      expect(role.statusCode).toBe(400);
      expect(role.json<Problem>().errors).toEqual({ role_id: ['validation.invalidValue'] });
    });

    it('updates a user and stores the units, refusing units outside the company', async () => {
      const created = (
        await t.http.post('/api/users/0', newUser({ company_id: companyId }), { token: admin })
      ).json<UserAnswer>();
      const { password: _p, ...update } = newUser({
        name: 'Mehmet Ali',
        username: created.username,
        email: created.email,
        company_id: companyId,
        user_units: [{ unit_type: 'company', unit_id: companyId }],
      });
      const res = await t.http.post(`/api/users/${created.id}`, update, { token: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json<UserAnswer>()).toMatchObject({
        name: 'Mehmet Ali',
        user_units: [{ unit_type: 'company', unit_id: companyId }],
      });
      const units = await t.ctx.db
        .selectFrom('user_units')
        .selectAll()
        .where('user_id', '=', created.id)
        .execute();
      expect(units).toEqual([{ user_id: created.id, unit_type: 'company', unit_id: companyId }]);
      const bad = await t.http.post(
        `/api/users/${created.id}`,
        { ...update, user_units: [{ unit_type: 'field', unit_id: 424242 }] },
        { token: admin },
      );
      expect(bad.json<Problem>()).toMatchObject({
        status: 400,
        errors: { user_units: ['validation.invalidValue'] },
      });
      const audit = await t.ctx.db
        .selectFrom('audit_log')
        .select(['before', 'after'])
        .where('entity_id', '=', created.id)
        .where('action', '=', 'update')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.before!)).toMatchObject({ name: 'Mehmet' });
      expect(JSON.parse(audit.after!)).toMatchObject({ name: 'Mehmet Ali' });
    });

    it('refuses the operator (no user_management) with 403 for create and update', async () => {
      expect((await t.http.post('/api/users/0', newUser(), { token: operator })).statusCode).toBe(403);
      expect((await t.http.post(`/api/users/${operatorId}`, newUser(), { token: operator })).statusCode).toBe(
        403,
      );
    });

    it('lets nobody hand out more than they hold, nor change their own role or status', async () => {
      const managerRole = await addRole('Kullanıcı Yöneticisi', [
        { page: 'user_management', method: 'view' },
        { page: 'user_management', method: 'create' },
        { page: 'user_management', method: 'update' },
      ]);
      const manager = (
        await t.http.post(
          '/api/users/0',
          newUser({ role_id: managerRole, company_id: companyId, email: 'yonetici@example.com' }),
          { token: admin },
        )
      ).json<UserAnswer>();
      const token = await t.http.login('yonetici@example.com', 'Mehmet!123');

      const asAdmin = await t.http.post('/api/users/0', newUser({ role_id: adminRoleId }), { token });
      expect(asAdmin.statusCode).toBe(403);
      expect(asAdmin.json()).toMatchObject({ detail: 'errors.roleNotAllowed' });
      const asOperator = await t.http.post('/api/users/0', newUser({ role_id: operatorRoleId }), { token });
      expect(asOperator.json()).toMatchObject({ status: 403, detail: 'errors.roleNotAllowed' });

      const peer = await t.http.post('/api/users/0', newUser({ role_id: managerRole }), { token });
      expect(peer.statusCode).toBe(200);
      expect(peer.json<UserAnswer>().company_id).toBe(companyId);

      // The admin is outside the manager's company: not even visible.
      expect(
        (await t.http.post(`/api/users/${adminId}`, newUser({ role_id: adminRoleId }), { token })).statusCode,
      ).toBe(404);
      expect(
        (await t.http.post(`/api/users/${adminId}/password`, { password: 'Taken!Over1' }, { token }))
          .statusCode,
      ).toBe(404);

      const self = { ...newUser({ role_id: managerRole, username: manager.username, email: manager.email }) };
      delete (self as Record<string, unknown>).password;
      expect(
        (await t.http.post(`/api/users/${manager.id}`, { ...self, role_id: operatorRoleId }, { token }))
          .statusCode,
      ).toBe(403);
      expect(
        (await t.http.post(`/api/users/${manager.id}`, { ...self, is_active: false }, { token })).statusCode,
      ).toBe(403);
      expect((await t.http.post(`/api/users/${manager.id}`, self, { token })).statusCode).toBe(200);

      const list = (await t.http.get('/api/users', { token })).json<UserAnswer[]>();
      expect(list.map((u) => u.id)).not.toContain(adminId);
      expect(list.every((u) => u.company_id === companyId)).toBe(true);
    });
  });

  describe('POST Users/profile/{id}', () => {
    const profile = (over: Record<string, unknown> = {}) => ({
      name: 'Elif',
      surname: 'Demir',
      username: 'operator',
      telephone: '+90 533 555 02 02',
      email: DEMO.operator.email,
      ...over,
    });

    it('updates the own profile and audits it', async () => {
      const res = await t.http.post(
        `/api/Users/profile/${operatorId}`,
        profile({ surname: 'Demir Kaya', telephone: '+90 533 000 00 00' }),
        { token: operator },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json<UserAnswer>()).toMatchObject({
        id: operatorId,
        name: 'Elif',
        email: DEMO.operator.email,
      });
      const row = await t.ctx.db
        .selectFrom('users')
        .select(['surname', 'telephone'])
        .where('id', '=', operatorId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ surname: 'Demir Kaya', telephone: '+90 533 000 00 00' });
      const audit = await t.ctx.db
        .selectFrom('audit_log')
        .select(['user_id', 'after'])
        .where('entity', '=', 'user')
        .where('entity_id', '=', operatorId)
        .where('action', '=', 'update')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.user_id).toBe(operatorId);
      expect(audit.after).toContain('Demir Kaya');
      await t.http.post(`/api/users/profile/${operatorId}`, profile(), { token: operator });
    });

    it("refuses someone else's profile with 403", async () => {
      const res = await t.http.post(
        `/api/users/profile/${adminId}`,
        profile({ username: 'admin', email: DEMO.admin.email }),
        { token: operator },
      );
      expect(res.statusCode).toBe(403);
    });

    it('answers 409 for a taken username or email and 400 for bad fields', async () => {
      const username = await t.http.post(`/api/users/profile/${operatorId}`, profile({ username: 'ADMIN' }), {
        token: operator,
      });
      expect(username.json<Problem>()).toMatchObject({
        status: 409,
        errors: { username: ['errors.usernameTaken'] },
      });
      const email = await t.http.post(
        `/api/users/profile/${operatorId}`,
        profile({ email: DEMO.admin.email }),
        { token: operator },
      );
      expect(email.json<Problem>()).toMatchObject({ status: 409, errors: { email: ['errors.emailTaken'] } });
      const bad = await t.http.post(
        `/api/users/profile/${operatorId}`,
        profile({ email: 'x@', name: '  ' }),
        { token: operator },
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json<Problem>().errors).toMatchObject({
        email: ['validation.invalidEmail'],
        name: ['validation.required'],
      });
    });
  });

  describe('POST Users/{id}/password', () => {
    it("lets the admin set another user's password, audited, and refuses the operator on another id", async () => {
      const user = (
        await t.http.post('/api/users/0', newUser({ email: 'parola@example.com' }), { token: admin })
      ).json<UserAnswer>();
      const res = await t.http.post(
        `/api/Users/${user.id}/password`,
        { password: 'Degisti!99' },
        { token: admin },
      );
      expect(res.json()).toEqual({ ok: true });
      expect(
        (await t.http.post('/api/users/login', { email: 'parola@example.com', password: 'Mehmet!123' }))
          .statusCode,
      ).toBe(401);
      await t.http.login('parola@example.com', 'Degisti!99');
      const audit = await t.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'password')
        .where('entity_id', '=', user.id)
        .execute();
      expect(audit).toHaveLength(1);
      expect(
        (
          await t.http.post(
            `/api/users/${user.id}/password`,
            { password: 'Operator!99' },
            { token: operator },
          )
        ).statusCode,
      ).toBe(403);
      const weak = await t.http.post(
        `/api/users/${user.id}/password`,
        { password: 'abcdefgh' },
        { token: admin },
      );
      expect(weak.json<Problem>().errors).toEqual({ password: ['validation.weakPassword'] });
    });
  });

  describe('dashboard layout', () => {
    it('round-trips the own layout; another user does not see it', async () => {
      expect((await t.http.get('/api/users/dashboard', { token: operator })).json()).toEqual({ data: null });
      const data = {
        widgets: [{ id: 'w1', type: 'power', x: 0, y: 0, w: 6, h: 4, options: { plantIds: [1, 2] } }],
        title: 'Günlük',
      };
      const saved = await t.http.post('/api/users/dashboard', { data }, { token: operator });
      expect(saved.json()).toEqual({ ok: true });
      expect((await t.http.get('/api/Users/Dashboard', { token: operator })).json()).toEqual({ data });
      expect((await t.http.get('/api/users/dashboard', { token: admin })).json()).toEqual({ data: null });
      const replaced = await t.http.post('/api/users/dashboard', { data: [1, 2, 3] }, { token: operator });
      expect(replaced.statusCode).toBe(200);
      expect((await t.http.get('/api/users/dashboard', { token: operator })).json()).toEqual({
        data: [1, 2, 3],
      });
    });

    it('refuses a layout over 256 KB and a missing one, and needs a login', async () => {
      const big = await t.http.post(
        '/api/users/dashboard',
        { data: { blob: 'x'.repeat(300 * 1024) } },
        { token: operator },
      );
      expect(big.json<Problem>()).toMatchObject({ status: 400, errors: { data: ['validation.tooLong'] } });
      const missing = await t.http.post('/api/users/dashboard', {}, { token: operator });
      expect(missing.statusCode).toBe(400);
      expect(missing.json<Problem>().errors!.data).toBeDefined();
      expect((await t.http.get('/api/users/dashboard')).statusCode).toBe(401);
    });
  });
});
