import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree, makeUser, type TestUser, type Tree } from '../test/org-fixtures';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

/** The holes of docs/security.md, rows 1, 5, 6, 7, 8 and 10a/10b, each as an outside tester found it. */
describe(`holes found (${dialectUnderTest})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;

  beforeAll(async () => {
    // A cheaper password hash: these tests sign in dozens of times (the cost is not what they test).
    t = await createTestApp({ scryptLogN: 10 });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Holes');
  });
  afterAll(() => t.close());

  it('1: no token issued before a password change survives it, even within the same second', async () => {
    let password: string = DEMO.operator.password;
    for (let round = 0; round < 5; round++) {
      const token = await t.http.login(DEMO.operator.email, password);
      const id = Number(decodeJwt(token).sub);
      const next = `Changed!${round}pass`;
      const change = await t.http.post(
        `/api/users/${id}/password`,
        { password: next, current_password: password },
        { token },
      );
      expect(change.statusCode, change.body).toBe(200);
      password = next;
      const after = await t.http.get(`/api/users/${id}`, { token });
      expect(after.statusCode, `round ${round}`).toBe(401);
      // A token issued after the change works.
      const fresh = await t.http.login(DEMO.operator.email, password);
      expect((await t.http.get(`/api/users/${id}`, { token: fresh })).statusCode).toBe(200);
    }
  });

  it('5: deeply nested dashboard data answers 400 with a translatable key, never 500', async () => {
    for (const depth of [10_000, 100_000]) {
      const payload = `{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const res = await t.http.post('/api/users/dashboard', payload, {
        token: admin.token,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, `depth ${depth}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json()).toMatchObject({ errors: { data: ['validation.tooDeep'] } });
    }
    // A layout of ordinary depth is still stored.
    const ok = await t.http.post(
      '/api/users/dashboard',
      { data: { widgets: [{ a: [[1]] }] } },
      { token: admin.token },
    );
    expect(ok.statusCode).toBe(200);
  });

  it('6: path and query ids accept only canonical decimal integers', async () => {
    const token = admin.token;
    for (const url of [
      '/api/plants/%201',
      '/api/plants/1%20',
      `/api/plants/0${tree.plantId}`,
      '/api/devices/0x10',
      '/api/devices/1e1',
      '/api/devices/+1',
      '/api/devices/1.0',
      `/api/devices?plant_id=%20${tree.plantId}`,
      `/api/devices?plant_id=0x${tree.plantId.toString(16)}`,
      '/api/signals?device_id=',
    ]) {
      const res = await t.http.get(url, { token });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ detail: string }>().detail, url).toBe('errors.badRequest');
    }
    const del = await t.http.delete('/api/faults/%201', { token });
    expect(del.statusCode).toBe(400);
    // Canonical ids still work.
    expect((await t.http.get(`/api/plants/${tree.plantId}`, { token })).statusCode).toBe(200);
    expect((await t.http.get(`/api/devices?plant_id=${tree.plantId}`, { token })).statusCode).toBe(200);
  });

  it('7: an X-Api-Key header does not lift the anti-forgery check off user routes', async () => {
    const forged = await t.http.post(
      '/api/users/dashboard',
      { data: { forged: true } },
      { token: admin.token, xsrf: false, headers: { 'x-api-key': 'anything' } },
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ detail: 'errors.xsrf' });
    // The ingest route with a real key needs no anti-forgery pair; a made-up key gets in nowhere.
    const key = (
      await t.http.post(`/api/devices/${tree.deviceId}/ingest-key`, {}, { token: admin.token })
    ).json<{ key: string }>().key;
    const points = [{ signal_id: tree.signalId, ts: Date.now() - 60_000, value: 1 }];
    const ingest = (apiKey: string) =>
      t.http.post('/api/telemetry', { points }, { xsrf: false, headers: { 'x-api-key': apiKey } });
    expect((await ingest(key)).statusCode).toBeLessThan(300);
    expect((await ingest('sk_made-up')).statusCode).toBe(401);
  });

  it('8: authenticated answers, the login answer and users/{id} are not cacheable', async () => {
    const login = await t.http.post('/api/users/login', DEMO.admin);
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const me = await t.http.get(`/api/users/${admin.id}`, { token: admin.token });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const plants = await t.http.get('/api/plants', { token: admin.token });
    expect(plants.headers['cache-control']).toBe('no-store');
    const refused = await t.http.get('/api/plants');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('10a: the scheme name is case-insensitive (RFC 9110 §11.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await t.http.get(`/api/users/${admin.id}`, {
        headers: { authorization: `${scheme} ${admin.token}` },
      });
      expect(res.statusCode, scheme).toBe(200);
    }
    const basic = await t.http.get(`/api/users/${admin.id}`, {
      headers: { authorization: `Basic ${admin.token}` },
    });
    expect(basic.statusCode).toBe(401);
  });

  it('10b: framing is refused by the CSP alone, with no contradicting X-Frame-Options', async () => {
    const res = await t.http.get('/api/health');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});
