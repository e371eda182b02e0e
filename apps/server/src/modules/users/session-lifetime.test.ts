import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSessionList } from '@solar/shared';
import { makeTree, save } from '../../test/org-fixtures';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY_MS = 86_400_000;
const sidOf = (token: string) => decodeJwt(token).sid as string;
const subOf = (token: string) => Number(decodeJwt(token).sub);

/**
 * Sessions that never ended (outside attack, 2026-11-28): sign-out on the server, refreshes that retire
 * the token they replace, an absolute lifetime from sign-in, and a deactivated company's users locked out.
 */
describe(`session lifetime (${dialectUnderTest})`, { timeout: 180_000 }, () => {
  let t: TestApp;
  let clock = Date.now();
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ scryptLogN: 10 });
    t.ctx.now = () => clock;
    admin = await t.http.login(DEMO.admin.email, DEMO.admin.password);
  });
  afterAll(() => t.close());

  const me = (token: string) => t.http.get(`/api/users/${subOf(token)}`, { token });
  const refresh = async (token: string) => {
    const res = await me(token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string }>().token;
  };
  const liveSessionIds = async () => {
    const res = await t.http.get('/api/admin/sessions', { token: admin });
    expect(res.statusCode).toBe(200);
    return res.json<AdminSessionList>().items.map((s) => s.id);
  };
  const login = (email: string, password: string, remember = false) =>
    t.http.post('/api/users/login', { email, password, remember }, { remoteAddress: '198.51.100.7' });

  it('logout ends the token on the server and removes the session from the admin list', async () => {
    const token = await t.http.login(DEMO.operator.email, DEMO.operator.password);
    expect((await me(token)).statusCode).toBe(200);
    expect(await liveSessionIds()).toContain(sidOf(token));

    const out = await t.http.post('/api/users/logout', {}, { token });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect((await me(token)).statusCode).toBe(401);
    expect((await t.http.get('/api/users/dashboard', { token })).statusCode).toBe(401);
    expect(await liveSessionIds()).not.toContain(sidOf(token));
    // Other sign-ins of the same user are not touched.
    const other = await t.http.login(DEMO.operator.email, DEMO.operator.password);
    expect((await me(other)).statusCode).toBe(200);
    expect((await t.http.post('/api/users/logout', {})).statusCode).toBe(401);
  });

  it('a refresh retires the token it replaces after a short grace, for every later request', async () => {
    clock = Date.now();
    const first = await t.http.login(DEMO.operator.email, DEMO.operator.password);
    const second = await refresh(first);
    expect(sidOf(second)).toBe(sidOf(first));
    // Within the grace another tab may still use the replaced token.
    expect((await t.http.get('/api/users/dashboard', { token: first })).statusCode).toBe(200);
    clock += t.ctx.config.sessions.refreshGraceMs + 1;
    expect((await t.http.get('/api/users/dashboard', { token: first })).statusCode).toBe(401);
    expect((await me(first)).statusCode).toBe(401);
    expect((await t.http.get('/api/users/dashboard', { token: second })).statusCode).toBe(200);
    // A refresh of the current token retires it in turn.
    const third = await refresh(second);
    clock += t.ctx.config.sessions.refreshGraceMs + 1;
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(200);
  });

  it('reading someone else’s record retires nothing: the console keeps its own token', async () => {
    clock = Date.now();
    const token = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    const operator = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO.operator.email)
      .executeTakeFirstOrThrow();
    const other = await t.http.get(`/api/users/${operator.id}`, { token });
    expect(other.statusCode).toBe(200);
    clock += t.ctx.config.sessions.refreshGraceMs + 1;
    expect((await t.http.get('/api/users/dashboard', { token })).statusCode).toBe(200);
    // Its answered token belongs to the same generation and works as long.
    const answered = other.json<{ token: string }>().token;
    expect((await t.http.get('/api/users/dashboard', { token: answered })).statusCode).toBe(200);
  });

  it('tabs that refresh the same token at once all get a working token', async () => {
    clock = Date.now();
    const token = await t.http.login(DEMO.operator.email, DEMO.operator.password);
    const answers = await Promise.all([me(token), me(token), me(token)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const answer of answers) {
      const fresh = answer.json<{ token: string }>().token;
      expect((await t.http.get('/api/users/dashboard', { token: fresh })).statusCode).toBe(200);
    }
  });

  it('a sign-in ends at its absolute lifetime however often it is refreshed', async () => {
    const signedInAt = Date.now();
    clock = signedInAt;
    const absoluteMs = t.ctx.config.sessions.absoluteLifetimeMs;
    expect(absoluteMs).toBe(30 * DAY_MS);
    const res = await login(DEMO.operator.email, DEMO.operator.password, true);
    let token = res.json<{ token: string }>().token;
    // Used and refreshed every few days, as a busy console (or a thief) would.
    for (clock = signedInAt + 5 * DAY_MS; clock < signedInAt + absoluteMs - DAY_MS; clock += 5 * DAY_MS) {
      token = await refresh(token);
      // No refreshed token outlives the sign-in.
      expect((decodeJwt(token).exp ?? 0) * 1000).toBeLessThanOrEqual(signedInAt + absoluteMs);
    }
    clock = signedInAt + absoluteMs + 1;
    expect((await me(token)).statusCode).toBe(401);
    expect((await t.http.get('/api/users/dashboard', { token })).statusCode).toBe(401);
  });

  it('deactivating a company ends its users’ sessions and refuses their sign-ins until reactivated', async () => {
    clock = Date.now();
    const tree = await makeTree(t, admin, 'Locked');
    const company = await t.http.get(`/api/companies/${tree.companyId}`, { token: admin });
    const roles = await t.ctx.db.selectFrom('roles').select('id').where('is_admin', '=', 0).execute();
    const created = await save(t, admin, '/api/users/0', {
      name: 'Locked',
      surname: 'Out',
      username: 'locked-out',
      telephone: '+90 555 000 00 02',
      email: 'locked-out@example.com',
      role_id: roles[0]!.id,
      company_id: tree.companyId,
      password: 'Locked!Out1',
    });
    const token = await t.http.login('locked-out@example.com', 'Locked!Out1');
    expect((await me(token)).statusCode).toBe(200);

    const body = { ...company.json<Record<string, unknown>>(), is_active: false };
    await save(t, admin, `/api/companies/${tree.companyId}`, body);
    expect((await me(token)).statusCode).toBe(401);
    const refused = await login('locked-out@example.com', 'Locked!Out1');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ detail: 'errors.invalidCredentials' });
    expect((await liveSessionIds()).includes(sidOf(token))).toBe(false);

    await save(t, admin, `/api/companies/${tree.companyId}`, { ...body, is_active: true });
    // Reactivation lets them sign in again, but does not revive the old token.
    expect((await login('locked-out@example.com', 'Locked!Out1')).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect(created.id).toBe(subOf(token));
  });

  it('refuses a token that names no sign-in', async () => {
    const operator = await t.ctx.db
      .selectFrom('users')
      .select(['id', 'role_id'])
      .where('email', '=', DEMO.operator.email)
      .executeTakeFirstOrThrow();
    const orphan = await t.ctx.tokens.sign(
      { id: operator.id, name: 'x', role_id: operator.role_id, permissions: [] },
      false,
    );
    expect((await t.http.get('/api/users/dashboard', { token: orphan })).statusCode).toBe(401);
  });
});
