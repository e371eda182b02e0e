import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/** A GET /api/stream read with fetch: the event names received, and whether the server ended it. */
class Watcher {
  readonly events: string[] = [];
  ended = false;
  private readonly abort = new AbortController();

  static async open(base: string, token: string): Promise<Watcher> {
    const watcher = new Watcher();
    const res = await fetch(`${base}/api/stream`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: watcher.abort.signal,
    });
    expect(res.status).toBe(200);
    void watcher.read(res.body!);
    await vi.waitFor(() => expect(watcher.events).toContain('hello'), { timeout: 5_000 });
    return watcher;
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        for (const match of decoder.decode(chunk, { stream: true }).matchAll(/^event: (.*)$/gm)) {
          this.events.push(match[1]!);
        }
      }
    } catch {
      // aborted by the test
    }
    this.ended = true;
  }

  close() {
    this.abort.abort();
  }
}

/**
 * Hole 2 of docs/security.md: an open stream must not keep the reach it was opened with. Each change ends the
 * user's streams at once (well before the 15 s heartbeat), and no event reaches them afterwards.
 */
describe(`stream revocation (${dialectUnderTest})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let base: string;
  let admin: TestUser;
  let tree: Tree;
  let other: Tree;
  let roleId: number;
  let userId: number;
  let token: string;
  const watchers: Watcher[] = [];
  const password = 'Watcher!2026';
  const viewPairs = [
    { page: 'dashboard', method: 'view' },
    { page: 'alarm', method: 'view' },
  ];

  const userBody = (changes: Record<string, unknown> = {}) => ({
    name: 'Watch',
    surname: 'Er',
    username: 'watcher',
    telephone: '+90 555 000 00 01',
    email: 'watcher@example.com',
    language_id: 1,
    is_active: true,
    role_id: roleId,
    company_id: tree.companyId,
    user_units: [],
    ...changes,
  });

  beforeAll(async () => {
    // A cheaper password hash: these tests sign in dozens of times (the cost is not what they test).
    t = await createTestApp({ scryptLogN: 10 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Watched');
    other = await makeTree(t, admin.token, 'Other');
    roleId = (await save(t, admin.token, '/api/roles/0', { name: 'Watchers', permissions: viewPairs })).id;
    userId = (await save(t, admin.token, '/api/users/0', { ...userBody(), password })).id;
    token = await t.http.login('watcher@example.com', password);
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await t.close();
  });

  /** A stream of the watcher that receives alarms of its company's plant. */
  async function openLive(): Promise<Watcher> {
    const watcher = await Watcher.open(base, token);
    watchers.push(watcher);
    expect(await t.ctx.stream.publishToPlant(tree.plantId, 'alarm', { n: 1 }, { page: 'alarm' })).toBe(1);
    await vi.waitFor(() => expect(watcher.events).toContain('alarm'), { timeout: 5_000 });
    return watcher;
  }

  /** The change ended the stream within a second, and a later event reaches nobody. */
  async function expectEnded(watcher: Watcher) {
    await vi.waitFor(() => expect(watcher.ended).toBe(true), { timeout: 1_000, interval: 10 });
    const alarms = watcher.events.filter((e) => e === 'alarm').length;
    expect(await t.ctx.stream.publishToPlant(tree.plantId, 'alarm', { n: 2 }, { page: 'alarm' })).toBe(0);
    expect(watcher.events.filter((e) => e === 'alarm').length).toBe(alarms);
  }

  it('ends the streams of a user moved to another company', async () => {
    const watcher = await openLive();
    await save(t, admin.token, `/api/users/${userId}`, userBody({ company_id: other.companyId }));
    await expectEnded(watcher);
    await save(t, admin.token, `/api/users/${userId}`, userBody());
  });

  it('ends the streams of a user whose units narrow', async () => {
    const watcher = await openLive();
    await save(
      t,
      admin.token,
      `/api/users/${userId}`,
      userBody({ user_units: [{ unit_type: 'field', unit_id: tree.fieldId }] }),
    );
    await vi.waitFor(() => expect(watcher.ended).toBe(true), { timeout: 1_000, interval: 10 });
    await save(t, admin.token, `/api/users/${userId}`, userBody());
  });

  it('ends the streams of every holder of a role that loses permissions', async () => {
    const watcher = await openLive();
    await save(t, admin.token, `/api/roles/${roleId}`, { name: 'Watchers', permissions: [] });
    await expectEnded(watcher);
    await save(t, admin.token, `/api/roles/${roleId}`, { name: 'Watchers', permissions: viewPairs });
  });

  it('ends the streams of a deactivated user at once', async () => {
    const watcher = await openLive();
    await save(t, admin.token, `/api/users/${userId}`, userBody({ is_active: false }));
    await expectEnded(watcher);
    // Reactivation does not revive the tokens of before.
    await save(t, admin.token, `/api/users/${userId}`, userBody());
    expect((await t.http.get(`/api/users/${userId}`, { token })).statusCode).toBe(401);
  });

  it("leaves other users' streams open", async () => {
    const adminWatcher = await Watcher.open(base, admin.token);
    watchers.push(adminWatcher);
    await save(t, admin.token, `/api/roles/${roleId}`, { name: 'Watchers', permissions: viewPairs });
    await new Promise((r) => setTimeout(r, 200));
    expect(adminWatcher.ended).toBe(false);
  });
});
