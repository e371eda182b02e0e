import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminSession, AdminSessionList, AuditList, RevokeSessionsAnswer } from '@solar/shared';
import { SESSION_SEEN_EVERY_MS } from '../auth';
import { makeUser, pairs, type TestUser } from '../../test/org-fixtures';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const sidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid?: string }).sid;

/** Admin panel "Sessions" (docs/operations.md): the live sessions per user, and revoking all of a user's. */
describe(`admin sessions (${dialectUnderTest})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let base: string;
  let admin: string;
  let operator: string;
  let operatorId: number;
  let pageHolder: TestUser;
  let clock = Date.now();

  const login = async (who: { email: string; password: string }, userAgent: string, ip: string) => {
    const res = await t.http.post(
      '/api/users/login',
      { email: who.email, password: who.password },
      { headers: { 'user-agent': userAgent }, remoteAddress: ip },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string }>().token;
  };
  const sessions = async () => {
    const res = await t.http.get('/api/admin/sessions', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminSessionList>().items;
  };
  const sessionRow = (id: string) =>
    t.ctx.db.selectFrom('user_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp({ scryptLogN: 10 });
    t.ctx.now = () => clock;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await login(DEMO.admin, 'AdminBrowser/1.0', '10.0.0.1');
    operator = await login(DEMO.operator, 'OperatorPhone/2.0', '10.0.0.2');
    const row = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO.operator.email)
      .executeTakeFirstOrThrow();
    operatorId = row.id;
    pageHolder = await makeUser(t, { permissions: pairs(['admin_panel']) });
  });
  afterAll(() => t.close());

  it('records each sign-in: user, created, last seen, expiry, IP and user agent; marks the caller’s own', async () => {
    const items = await sessions();
    const mine = items.find((s) => s.id === sidOf(admin));
    const theirs = items.find((s) => s.id === sidOf(operator));
    expect(mine).toMatchObject({ current: true, ip: '10.0.0.1', user_agent: 'AdminBrowser/1.0' });
    expect(theirs).toMatchObject<Partial<AdminSession>>({
      user_id: operatorId,
      email: DEMO.operator.email,
      current: false,
      ip: '10.0.0.2',
      user_agent: 'OperatorPhone/2.0',
      created_at: new Date(clock).toISOString(),
      last_seen_at: new Date(clock).toISOString(),
    });
    // Without "remember me": the session lifetime of the settings (8 h by default).
    expect(Date.parse(theirs!.expires_at) - clock).toBe(t.ctx.settings.tokenLifetimesS().session * 1000);
  });

  it('refuses without sign-in (401), without the page (403) and to a non-administrator (403)', async () => {
    expect((await t.http.get('/api/admin/sessions')).statusCode).toBe(401);
    expect((await t.http.get('/api/admin/sessions', { token: operator })).statusCode).toBe(403);
    expect((await t.http.get('/api/admin/sessions', { token: pageHolder.token })).statusCode).toBe(403);
    const url = `/api/admin/users/${operatorId}/revoke-sessions`;
    expect((await t.http.post(url, {}, { token: operator })).statusCode).toBe(403);
    expect((await t.http.post(url, {}, { token: pageHolder.token })).statusCode).toBe(403);
    expect((await t.http.post('/api/admin/users/abc/revoke-sessions', {}, { token: admin })).statusCode).toBe(
      400,
    );
    expect(
      (await t.http.post('/api/admin/users/999999/revoke-sessions', {}, { token: admin })).statusCode,
    ).toBe(404);
    // Nothing was revoked by the refused calls.
    expect((await t.http.get(`/api/users/${operatorId}`, { token: operator })).statusCode).toBe(200);
  });

  it('notes the last use at most once a minute, and a refreshed token keeps its session', async () => {
    const sid = sidOf(operator)!;
    const start = Number((await sessionRow(sid)).last_seen_at);
    clock += SESSION_SEEN_EVERY_MS / 2;
    expect((await t.http.get('/api/plants/overview', { token: operator })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(Number((await sessionRow(sid)).last_seen_at)).toBe(start);
    clock += SESSION_SEEN_EVERY_MS;
    expect((await t.http.get('/api/plants/overview', { token: operator })).statusCode).toBe(200);
    await vi.waitFor(async () => expect(Number((await sessionRow(sid)).last_seen_at)).toBe(clock));

    const refreshed = await t.http.get(`/api/users/${operatorId}`, { token: operator });
    expect(refreshed.statusCode).toBe(200);
    const token = refreshed.json<{ token: string }>().token;
    expect(sidOf(token)).toBe(sid);
    expect(Number((await sessionRow(sid)).expires_at)).toBe(
      clock + t.ctx.settings.tokenLifetimesS().session * 1000,
    );
    operator = token;
  });

  it("revokes all of a user's sessions: tokens refused, live streams ended at once, audited", async () => {
    const second = await login(DEMO.operator, 'OperatorLaptop/3.0', '10.0.0.3');
    const before = (await sessions()).filter((s) => s.user_id === operatorId);
    expect(before).toHaveLength(2);

    const abort = new AbortController();
    const res = await fetch(`${base}/api/stream`, {
      headers: { authorization: `Bearer ${second}`, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    let ended = false;
    const reading = (async () => {
      try {
        for await (const _chunk of res.body!) {
          // read until the server ends the stream
        }
      } catch {
        // aborted by the test
      }
      ended = true;
    })();
    await vi.waitFor(() => expect(t.ctx.stream.size).toBe(1));

    const revoke = await t.http.post(`/api/admin/users/${operatorId}/revoke-sessions`, {}, { token: admin });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json<RevokeSessionsAnswer>()).toEqual({ user_id: operatorId, revoked: 2 });
    // Well before the 15 s heartbeat check.
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 2_000 });
    await reading;
    abort.abort();

    for (const token of [operator, second])
      expect((await t.http.get(`/api/users/${operatorId}`, { token })).statusCode).toBe(401);
    const after = await sessions();
    expect(after.filter((s) => s.user_id === operatorId)).toEqual([]);
    // The administrator's own session is untouched.
    expect(after.some((s) => s.id === sidOf(admin))).toBe(true);

    const audit = await t.http.get('/api/audit', {
      token: admin,
      query: { action: 'revoke_sessions' },
    });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json<AuditList>().items).toEqual([
      expect.objectContaining({ action: 'revoke_sessions', entity: 'user', entity_id: operatorId }),
    ]);

    // Signing in again starts a new, listed session.
    const again = await login(DEMO.operator, 'OperatorPhone/2.0', '10.0.0.2');
    expect((await sessions()).filter((s) => s.user_id === operatorId).map((s) => s.id)).toEqual([
      sidOf(again),
    ]);
  });
});
