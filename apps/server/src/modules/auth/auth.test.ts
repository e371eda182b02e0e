import { createHash } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@solar/shared';
import { translate } from '@solar/i18n';
import { hashPassword } from '../../lib/password';
import { TokenService } from '../../lib/tokens';
import { parseEml } from '../../test/mail';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until the next whole second, so a token issued before is strictly older than a change after. */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);

describe(`auth (${dialectUnderTest})`, () => {
  let t: TestApp;
  let operatorId: number;
  let adminId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const ids = await t.ctx.db.selectFrom('users').select(['id', 'email']).execute();
    operatorId = ids.find((u) => u.email === DEMO.operator.email)!.id;
    adminId = ids.find((u) => u.email === DEMO.admin.email)!.id;
  });
  afterAll(() => t.close());

  /** Waits for the outbox to hold more than `count` messages (the reset mail is sent after the answer). */
  async function mailAfter(count: number) {
    for (let i = 0; i < 100 && t.outbox().length <= count; i++) await sleep(20);
    const mails = t.outbox();
    expect(mails.length).toBe(count + 1);
    return parseEml(mails[count]!);
  }

  const guidOf = (body: string) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(body)?.[1];

  describe('login', () => {
    it('answers a token carrying the user, the role and its permissions, valid for 8 hours', async () => {
      const res = await t.http.post('/api/users/login', DEMO.admin);
      expect(res.statusCode).toBe(200);
      const claims = decodeJwt(res.json<{ token: string }>().token);
      expect(claims).toMatchObject({ sub: String(adminId), name: 'Ahmet Yılmaz', remember: false });
      expect(typeof claims.role_id).toBe('number');
      expect(claims.permissions).toHaveLength(ALL_PERMISSIONS.length);
      expect(claims.exp! - claims.iat!).toBe(8 * 3600);

      const op = decodeJwt(await t.http.login(DEMO.operator.email, DEMO.operator.password));
      expect(op.sub).toBe(String(operatorId));
      // View on six pages, and what the alarm-to-fault path needs: acknowledge alarms, open and update faults.
      expect(op.permissions).toEqual(
        expect.arrayContaining([
          ...['map', 'plant', 'alarm', 'fault', 'report', 'dashboard'].map((page) => ({
            page,
            method: 'view',
          })),
          { page: 'alarm', method: 'update' },
          { page: 'fault', method: 'create' },
          { page: 'fault', method: 'update' },
        ]),
      );
      expect(op.permissions).toHaveLength(9);
    });

    it('issues a 30-day token with remember', async () => {
      const res = await t.http.post('/api/users/login', { ...DEMO.operator, remember: true });
      const claims = decodeJwt(res.json<{ token: string }>().token);
      expect(claims.exp! - claims.iat!).toBe(30 * 24 * 3600);
      expect(claims.remember).toBe(true);
    });

    it('ignores the case of the email', async () => {
      const res = await t.http.post('/api/users/login', { ...DEMO.admin, email: 'ADMIN@Example.com' });
      expect(res.statusCode).toBe(200);
    });

    it('answers a wrong password and an unknown email the same way', async () => {
      const wrong = await t.http.post('/api/users/login', { ...DEMO.admin, password: 'nope-nope-1' });
      const unknown = await t.http.post('/api/users/login', { email: 'nobody@example.com', password: 'x' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({
        status: 401,
        title: 'Unauthorized',
        detail: 'errors.invalidCredentials',
      });
      expect(unknown.body).toBe(wrong.body);
    });

    it('refuses an inactive user with the same answer, even with the right password', async () => {
      const id = await t.ctx.db
        .insertInto('users')
        .values({
          name: 'Pasif',
          surname: 'Kullanıcı',
          username: 'pasif',
          telephone: '+90 555 000 00 00',
          email: 'pasif@example.com',
          password_hash: await hashPassword('Pasif!123', 10),
          language_id: 1,
          is_active: 0,
          role_id: (
            await t.ctx.db
              .selectFrom('users')
              .select('role_id')
              .where('id', '=', operatorId)
              .executeTakeFirstOrThrow()
          ).role_id,
          company_id: null,
          tokens_valid_after: 0,
          created_at: Date.now(),
          updated_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await t.http.post('/api/users/login', {
        email: 'pasif@example.com',
        password: 'Pasif!123',
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ detail: 'errors.invalidCredentials' });
      await t.ctx.db.deleteFrom('users').where('id', '=', id.id).execute();
    });

    it('answers bad bodies with 400 naming the field', async () => {
      const res = await t.http.post('/api/users/login', { email: 'not-an-email', password: '' });
      expect(res.statusCode).toBe(400);
      const problem = res.json<{ detail: string; errors: Record<string, string[]> }>();
      expect(problem.detail).toBe('errors.badRequest');
      expect(problem.errors.email).toContain('validation.invalidEmail');
      expect(problem.errors.password).toContain('validation.required');
      const missing = await t.http.post('/api/users/login', {});
      expect(missing.json<{ errors: Record<string, string[]> }>().errors.email).toContain(
        'validation.required',
      );
    });

    it('rehashes a password stored at a lower cost', async () => {
      await t.ctx.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(DEMO.operator.password, 10) })
        .where('id', '=', operatorId)
        .execute();
      await t.http.login(DEMO.operator.email, DEMO.operator.password);
      const row = await t.ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', operatorId)
        .executeTakeFirstOrThrow();
      expect(row.password_hash.startsWith(`scrypt$${t.ctx.config.scryptLogN}$`)).toBe(true);
      await t.http.login(DEMO.operator.email, DEMO.operator.password);
    });

    it('writes a login row to the audit log', async () => {
      await t.http.login(DEMO.admin.email, DEMO.admin.password, '192.0.2.7');
      const row = await t.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'login')
        .where('ip', '=', '192.0.2.7')
        .executeTakeFirst();
      expect(row).toMatchObject({ user_id: adminId, entity: 'user', entity_id: adminId });
    });

    it('blocks after 10 failures in the window, even the right password, per IP and per email', async () => {
      const ip = '198.51.100.1';
      for (let i = 0; i < 10; i++) {
        const res = await t.http.post(
          '/api/users/login',
          { ...DEMO.operator, password: `wrong-${i}` },
          { remoteAddress: ip },
        );
        expect(res.statusCode).toBe(401);
      }
      const blocked = await t.http.post('/api/users/login', DEMO.operator, { remoteAddress: ip });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ detail: 'errors.tooManyRequests' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // The same email from elsewhere is blocked too; another email from the same IP as well.
      expect(
        (await t.http.post('/api/users/login', DEMO.operator, { remoteAddress: '198.51.100.2' })).statusCode,
      ).toBe(429);
      expect((await t.http.post('/api/users/login', DEMO.admin, { remoteAddress: ip })).statusCode).toBe(429);
      // A different IP and email still signs in.
      await t.http.login(DEMO.admin.email, DEMO.admin.password, '198.51.100.3');
      await t.ctx.loginLimiter.reset(`email:${DEMO.operator.email}`);
    });

    it('resets the email counter on success', async () => {
      const ip = '198.51.100.10';
      for (let i = 0; i < 9; i++)
        await t.http.post(
          '/api/users/login',
          { ...DEMO.admin, password: 'wrong-pw-1' },
          { remoteAddress: ip },
        );
      await t.http.login(DEMO.admin.email, DEMO.admin.password, '198.51.100.11');
      // 9 + 1 failures would block the email; after the success it counts from zero again.
      await t.http.post(
        '/api/users/login',
        { ...DEMO.admin, password: 'wrong-pw-1' },
        { remoteAddress: '198.51.100.12' },
      );
      await t.http.login(DEMO.admin.email, DEMO.admin.password, '198.51.100.12');
    });
  });

  describe('sessions', () => {
    let adminToken: string;
    beforeAll(async () => {
      adminToken = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    });
    const me = (token?: string, id = adminId) => t.http.get(`/api/users/${id}`, token ? { token } : {});

    it('accepts a valid token', async () => {
      expect((await me(adminToken)).statusCode).toBe(200);
    });

    it('answers 401 without a token, with a malformed one, a bad signature or an expired one', async () => {
      const unauthorized = { status: 401, title: 'Unauthorized', detail: 'errors.unauthorized' };
      expect((await me()).json()).toEqual(unauthorized);
      expect((await me('not.a.jwt')).statusCode).toBe(401);
      expect(
        (await t.http.get(`/api/users/${adminId}`, { headers: { authorization: 'Basic abc' } })).statusCode,
      ).toBe(401);
      const forged = await new TokenService('another-secret-another-secret-another-secret').sign(
        { id: adminId, name: 'x', role_id: 1, permissions: [...ALL_PERMISSIONS] },
        false,
      );
      expect((await me(forged)).statusCode).toBe(401);
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ name: 'x', role_id: 1, permissions: [], remember: false })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(adminId))
        .setIssuedAt(now - 9 * 3600)
        .setExpirationTime(now - 3600)
        .sign(new TextEncoder().encode(t.ctx.config.jwtSecret));
      expect((await me(expired)).json()).toEqual(unauthorized);
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"sub":"${adminId}"}`).toString('base64url')}.`;
      expect((await me(none)).statusCode).toBe(401);
    });

    it('refuses the token of a user deactivated since', async () => {
      const created = await t.http.post(
        '/api/users/0',
        {
          name: 'Geçici',
          surname: 'Kullanıcı',
          username: 'gecici',
          telephone: '+90 555 111 22 33',
          email: 'gecici@example.com',
          role_id: decodeJwt(adminToken).role_id,
          password: 'Gecici!123',
        },
        { token: adminToken },
      );
      expect(created.statusCode).toBe(200);
      const user = created.json<{ id: number }>();
      const token = await t.http.login('gecici@example.com', 'Gecici!123');
      expect((await me(token, user.id)).statusCode).toBe(200);
      const {
        id: _id,
        roleId,
        role_name: _r,
        permissions: _p,
        ...rest
      } = created.json<Record<string, unknown>>();
      const body = { ...rest, role_id: roleId, is_active: false };
      const saved = await t.http.post(`/api/users/${user.id}`, body, { token: adminToken });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ is_active: false });
      expect((await me(token, user.id)).statusCode).toBe(401);
    });

    it('refuses a token issued before a password change', async () => {
      const token = await t.http.login(DEMO.operator.email, DEMO.operator.password);
      expect((await me(token, operatorId)).statusCode).toBe(200);
      await nextSecond();
      const res = await t.http.post(
        `/api/users/${operatorId}/password`,
        { password: 'Yeni!Parola2', current_password: DEMO.operator.password },
        { token },
      );
      expect(res.json()).toEqual({ ok: true });
      expect((await me(token, operatorId)).statusCode).toBe(401);
      const fresh = await t.http.login(DEMO.operator.email, 'Yeni!Parola2');
      expect((await me(fresh, operatorId)).statusCode).toBe(200);
      await t.http.post(
        `/api/users/${operatorId}/password`,
        { password: DEMO.operator.password, current_password: 'Yeni!Parola2' },
        { token: fresh },
      );
    });
  });

  describe('anti-forgery', () => {
    it('refuses a POST without the header or with a wrong one and changes nothing', async () => {
      const token = await t.http.login(DEMO.admin.email, DEMO.admin.password);
      const body = {
        name: 'Hacked',
        surname: 'X',
        username: 'admin',
        telephone: '+90 532 555 01 01',
        email: DEMO.admin.email,
      };
      const xsrf = await t.http.primeXsrf();
      const without = await t.app.inject({
        method: 'POST',
        url: `/api/users/profile/${adminId}`,
        headers: { authorization: `Bearer ${token}` },
        cookies: { 'XSRF-TOKEN': xsrf },
        payload: body,
      });
      expect(without.statusCode).toBe(403);
      expect(without.json()).toMatchObject({ detail: 'errors.xsrf' });
      const wrong = await t.app.inject({
        method: 'POST',
        url: `/api/users/profile/${adminId}`,
        headers: { authorization: `Bearer ${token}`, 'x-xsrf-token': 'something-else' },
        cookies: { 'XSRF-TOKEN': xsrf },
        payload: body,
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ detail: 'errors.xsrf' });
      const noCookie = await t.http.post('/api/users/login', DEMO.admin, { xsrf: false });
      expect(noCookie.json()).toMatchObject({ status: 403, detail: 'errors.xsrf' });
      const row = await t.ctx.db
        .selectFrom('users')
        .select('name')
        .where('id', '=', adminId)
        .executeTakeFirstOrThrow();
      expect(row.name).toBe('Ahmet');
    });
  });

  describe('password reset', () => {
    it('walks request → mail → check → reset, once per link', async () => {
      const before = t.outbox().length;
      const res = await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: DEMO.operator.email },
        { remoteAddress: '203.0.113.1' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const mail = await mailAfter(before);
      expect(mail.to).toContain(DEMO.operator.email);
      expect(mail.subject).toBe(translate('tr_TR', 'mail.resetSubject'));
      expect(mail.body).toContain(`${t.ctx.config.publicUrl}/reset-password/`);
      const guid = guidOf(mail.body)!;
      expect(Buffer.from(guid, 'base64url').length).toBeGreaterThanOrEqual(16);

      // Only the hash is stored.
      const stored = await t.ctx.db.selectFrom('password_resets').select('token_hash').execute();
      expect(stored.map((r) => r.token_hash)).toContain(sha256(guid));
      expect(stored.some((r) => r.token_hash.includes(guid))).toBe(false);

      expect((await t.http.post('/api/users/checkresetpasswordrequest', { guid })).json()).toEqual({
        valid: true,
      });
      const reset = await t.http.post('/api/users/resetpassword', { guid, password: 'Sifirla!Yeni3' });
      expect(reset.json()).toEqual({ ok: true });

      expect((await t.http.post('/api/users/login', DEMO.operator)).statusCode).toBe(401);
      await t.http.login(DEMO.operator.email, 'Sifirla!Yeni3');

      const again = await t.http.post('/api/users/checkresetpasswordrequest', { guid });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ status: 400, title: 'Bad Request', detail: 'errors.resetLinkInvalid' });
      const reuse = await t.http.post('/api/users/resetpassword', { guid, password: 'Another!Pw4' });
      expect(reuse.json()).toMatchObject({ status: 400, detail: 'errors.resetLinkInvalid' });
      await t.http.login(DEMO.operator.email, 'Sifirla!Yeni3');

      const audit = await t.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'reset_password')
        .where('entity_id', '=', operatorId)
        .execute();
      expect(audit).toHaveLength(1);

      // Put the demo password back for the other tests.
      await t.ctx.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(DEMO.operator.password, 10) })
        .where('id', '=', operatorId)
        .execute();
    });

    it('refuses an expired link and an unknown one', async () => {
      const before = t.outbox().length;
      await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: DEMO.admin.email },
        { remoteAddress: '203.0.113.2' },
      );
      const guid = guidOf((await mailAfter(before)).body)!;
      await t.ctx.db
        .updateTable('password_resets')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', sha256(guid))
        .execute();
      const check = await t.http.post('/api/users/checkresetpasswordrequest', { guid });
      expect(check.json()).toMatchObject({ status: 400, detail: 'errors.resetLinkInvalid' });
      const reset = await t.http.post('/api/users/resetpassword', { guid, password: 'Expired!Pw5' });
      expect(reset.statusCode).toBe(400);
      const unknown = await t.http.post('/api/users/checkresetpasswordrequest', { guid: 'no-such-guid' });
      expect(unknown.json()).toMatchObject({ detail: 'errors.resetLinkInvalid' });
      await t.http.login(DEMO.admin.email, DEMO.admin.password);
    });

    it('closes older links when one is used', async () => {
      const n = t.outbox().length;
      await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: DEMO.admin.email },
        { remoteAddress: '203.0.113.3' },
      );
      const first = guidOf((await mailAfter(n)).body)!;
      await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: DEMO.admin.email },
        { remoteAddress: '203.0.113.3' },
      );
      const second = guidOf((await mailAfter(n + 1)).body)!;
      expect(first).not.toBe(second);
      expect(
        (await t.http.post('/api/users/resetpassword', { guid: second, password: DEMO.admin.password }))
          .statusCode,
      ).toBe(200);
      expect((await t.http.post('/api/users/checkresetpasswordrequest', { guid: first })).statusCode).toBe(
        400,
      );
    });

    it('answers an unknown email the same and sends nothing', async () => {
      const before = t.outbox().length;
      const res = await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: 'ghost@example.com' },
        { remoteAddress: '203.0.113.4' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      await sleep(300);
      expect(t.outbox()).toHaveLength(before);
    });

    it("writes the mail in the user's language", async () => {
      await t.ctx.db.updateTable('users').set({ language_id: 3 }).where('id', '=', operatorId).execute();
      const before = t.outbox().length;
      await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: DEMO.operator.email },
        { remoteAddress: '203.0.113.5' },
      );
      const mail = await mailAfter(before);
      expect(mail.subject).toBe('Anfrage zum Zurücksetzen des Passworts');
      expect(mail.body).toContain('Hallo Elif,');
      await t.ctx.db.updateTable('users').set({ language_id: 1 }).where('id', '=', operatorId).execute();
    });

    it('limits reset requests per IP and per email', async () => {
      const ip = '203.0.113.50';
      for (let i = 0; i < 10; i++) {
        const res = await t.http.post(
          '/api/users/resetpasswordrequest',
          { email: `nobody${i}@example.com` },
          { remoteAddress: ip },
        );
        expect(res.statusCode).toBe(200);
      }
      const blocked = await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: 'other@example.com' },
        { remoteAddress: ip },
      );
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      for (let i = 0; i < 10; i++) {
        await t.http.post(
          '/api/users/resetpasswordrequest',
          { email: 'target@example.com' },
          { remoteAddress: `203.0.114.${i}` },
        );
      }
      const perEmail = await t.http.post(
        '/api/users/resetpasswordrequest',
        { email: 'target@example.com' },
        { remoteAddress: '203.0.115.1' },
      );
      expect(perEmail.statusCode).toBe(429);
    });

    it('validates the bodies', async () => {
      const weak = await t.http.post('/api/users/resetpassword', { guid: 'x', password: 'short' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json<{ errors: Record<string, string[]> }>().errors.password).toContain(
        'validation.weakPassword',
      );
      const noEmail = await t.http.post('/api/users/resetpasswordrequest', { email: 'bad' });
      expect(noEmail.json<{ errors: Record<string, string[]> }>().errors.email).toContain(
        'validation.invalidEmail',
      );
      const noGuid = await t.http.post('/api/users/checkresetpasswordrequest', {});
      expect(noGuid.json<{ errors: Record<string, string[]> }>().errors.guid).toContain(
        'validation.required',
      );
    });
  });
});
