/**
 * Accounts and sessions (outside attack, 2026-11-28), over HTTP against the built server with real clocks:
 * a narrowed manager cannot take over a whole-company account, logout revokes the token on the server,
 * a refresh retires the token it replaces after the grace, a sign-in ends at its absolute lifetime however
 * often it is refreshed, and a deactivated company's users lose their sessions and cannot sign in. The
 * lifetimes are shortened through the environment (SESSION_ABSOLUTE_SECONDS, SESSION_REFRESH_GRACE_SECONDS).
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../src/console';
import { adminClient, removeDataDir, report, sleep, startConsole, type ConsoleProcess } from './harness';

const ABSOLUTE_S = 8;
const GRACE_S = 2;
const counts: Record<string, number> = {};
const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);

describe('resilience: sessions', () => {
  let server: ConsoleProcess;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startConsole({
      env: {
        SCRYPT_LOG_N: '10',
        LOG_LEVEL: 'fatal',
        SESSION_ABSOLUTE_SECONDS: String(ABSOLUTE_S),
        SESSION_REFRESH_GRACE_SECONDS: String(GRACE_S),
      },
    });
  });
  // The admin's own sign-in ends after ABSOLUTE_S too: each case signs in afresh.
  beforeEach(async () => {
    admin = await adminClient(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    report('sessions', { cases: counts });
  });

  /** A raw call with the admin's anti-forgery pair and the given token; answers the status and JSON. */
  async function call(method: string, apiPath: string, token: string | undefined, body?: unknown) {
    const headers: Record<string, string> = { ...admin.xsrfHeaders() };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}/api/${apiPath}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  }
  const login = async (email: string, password: string) => {
    const res = await call('POST', 'users/login', undefined, { email, password });
    return { status: res.status, token: res.json?.token as string };
  };
  const me = (token: string) => call('GET', `users/${String(decodeJwt(token).sub)}`, token);

  /** A company with a field and a plant, made by the admin. */
  async function tree(name: string) {
    const company = await admin.post<{ id: number }>('companies/0', { name: `${name} Co` });
    const field = await admin.post<{ id: number }>('fields/0', { company_id: company.id, name: `${name} F` });
    const plant = await admin.post<{ id: number }>('plants/0', {
      field_id: field.id,
      name: `${name} P`,
      time_zone: 'Europe/Istanbul',
    });
    return { companyId: company.id, fieldId: field.id, plantId: plant.id };
  }

  async function user(tag: string, roleId: number, companyId: number, units: unknown[] = []) {
    const email = `${tag}@sessions.example.com`;
    const saved = await admin.post<{ id: number }>('users/0', {
      name: 'Session',
      surname: tag,
      username: tag,
      telephone: '+90 555 000 00 00',
      email,
      role_id: roleId,
      company_id: companyId,
      user_units: units,
      password: 'Session!Pass1',
    });
    return { id: saved.id, email, password: 'Session!Pass1' };
  }

  it('a manager limited to one plant cannot take over a whole-company account', async () => {
    const org = await tree('Takeover');
    const managerRole = await admin.post<{ id: number }>('roles/0', {
      name: 'plant user managers',
      permissions: [
        { page: 'user_management', method: 'view' },
        { page: 'user_management', method: 'create' },
        { page: 'user_management', method: 'update' },
        { page: 'plant', method: 'view' },
      ],
    });
    const viewerRole = await admin.post<{ id: number }>('roles/0', {
      name: 'plant viewers',
      permissions: [{ page: 'plant', method: 'view' }],
    });
    const plantUnit = [{ unit_type: 'plant', unit_id: org.plantId }];
    const manager = await user('plant-manager', managerRole.id, org.companyId, plantUnit);
    const victim = await user('whole-company', viewerRole.id, org.companyId);
    const peer = await user('same-plant', viewerRole.id, org.companyId, plantUnit);
    const { token } = await login(manager.email, manager.password);

    const password = await call('POST', `users/${victim.id}/password`, token, { password: 'Taken!Over1' });
    expect(password.status).toBe(403);
    count('scope takeover: password refused');
    const email = await call('POST', `users/profile/${victim.id}`, token, {
      name: 'Session',
      surname: 'x',
      username: 'whole-company',
      telephone: '+90 555 000 00 00',
      email: 'attacker@evil.example.com',
    });
    expect(email.status).toBe(403);
    count('scope takeover: email refused');
    expect((await login(victim.email, victim.password)).status).toBe(200);
    // Within the manager's own plant, managing works.
    expect((await call('POST', `users/${peer.id}/password`, token, { password: 'Peer!Pass22' })).status).toBe(
      200,
    );
    count('scope takeover: own plant allowed');
  });

  it('logout revokes the token on the server', async () => {
    const { token } = await login('operator@example.com', 'Solar!Operator1');
    expect((await me(token)).status).toBe(200);
    expect((await call('POST', 'users/logout', token, {})).status).toBe(200);
    expect((await me(token)).status).toBe(401);
    expect((await call('GET', 'users/dashboard', token)).status).toBe(401);
    const sessions = await admin.get<{ items: { id: string }[] }>('admin/sessions');
    expect(sessions.items.map((s) => s.id)).not.toContain(decodeJwt(token).sid);
    count('logout revokes');
  });

  it('a refresh retires the token it replaces once the grace is over', async () => {
    const { token: first } = await login('operator@example.com', 'Solar!Operator1');
    const refreshed = await me(first);
    expect(refreshed.status).toBe(200);
    const second = refreshed.json.token as string;
    expect((await call('GET', 'users/dashboard', first)).status).toBe(200);
    await sleep((GRACE_S + 1) * 1000);
    expect((await call('GET', 'users/dashboard', first)).status).toBe(401);
    expect((await me(first)).status).toBe(401);
    expect((await call('GET', 'users/dashboard', second)).status).toBe(200);
    count('refresh retires');
  });

  it('a sign-in ends at its absolute lifetime however often it is refreshed', async () => {
    const signedInAt = Date.now();
    let { token } = await login('operator@example.com', 'Solar!Operator1');
    let refreshes = 0;
    while (Date.now() - signedInAt < (ABSOLUTE_S - 2) * 1000) {
      const res = await me(token);
      expect(res.status).toBe(200);
      token = res.json.token as string;
      expect((decodeJwt(token).exp ?? 0) * 1000).toBeLessThanOrEqual(signedInAt + (ABSOLUTE_S + 1) * 1000);
      refreshes += 1;
      await sleep(1000);
    }
    expect(refreshes).toBeGreaterThan(2);
    await sleep(Math.max(0, signedInAt + (ABSOLUTE_S + 1) * 1000 - Date.now()));
    expect((await me(token)).status).toBe(401);
    count('absolute lifetime');
  });

  it('a deactivated company ends its users’ sessions and refuses their sign-ins', async () => {
    const org = await tree('Deactivated');
    const viewerRole = await admin.post<{ id: number }>('roles/0', {
      name: 'deactivated viewers',
      permissions: [{ page: 'plant', method: 'view' }],
    });
    const member = await user('deactivated-member', viewerRole.id, org.companyId);
    const { token } = await login(member.email, member.password);
    expect((await me(token)).status).toBe(200);
    const company = await admin.get<Record<string, unknown>>(`companies/${org.companyId}`);
    await admin.post(`companies/${org.companyId}`, { ...company, is_active: false });
    expect((await me(token)).status).toBe(401);
    expect((await login(member.email, member.password)).status).toBe(401);
    count('deactivated company');
  });
});
