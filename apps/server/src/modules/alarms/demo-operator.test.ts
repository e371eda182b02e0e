/**
 * The demo's operator is an operator: over HTTP it acknowledges alarms of its company (approves one into a
 * fault, rejects another) and reads the fault, while administration stays closed to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRecord, CustomAlarm } from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`the demo operator works the alarm-to-fault path (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let operator: string;

  beforeAll(async () => {
    t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Operated');
    // The demo gives the operator one company; here it is the tree's.
    await t.ctx.db
      .updateTable('users')
      .set({ company_id: tree.companyId })
      .where('email', '=', DEMO.operator.email)
      .execute();
    operator = await t.http.login(DEMO.operator.email, DEMO.operator.password);
  });
  afterAll(async () => {
    await t.close();
  });

  it('approves an alarm into a fault, rejects another, and may not administer', async () => {
    for (const value of [70, 60])
      await save<CustomAlarm>(t, admin.token, '/api/alarms/custom/0', {
        name: `Over ${value}`,
        priority_id: 3,
        tag_id: tree.signalId,
        operant: '>',
        value,
        started_at: null,
        end_at: null,
        is_active: true,
      });
    const ingest = await t.http.post(
      '/api/telemetry',
      { points: [{ signal_id: tree.signalId, ts: Date.now() - 30_000, value: 80 }] },
      { token: admin.token },
    );
    expect(ingest.statusCode, ingest.body).toBe(200);
    await t.ctx.alarmEngine.idle();
    const list = await t.http.get('/api/alarms', { token: operator });
    expect(list.statusCode, list.body).toBe(200);
    const [first, second] = list.json<AlarmRecord[]>();
    expect(second).toBeDefined();

    const approved = await t.http.post(`/api/alarms/${first!.id}/fault`, {}, { token: operator });
    expect(approved.statusCode, approved.body).toBe(200);
    const { fault_id } = approved.json<{ fault_id: number }>();
    expect((await t.http.get(`/api/faults/${fault_id}`, { token: operator })).statusCode).toBe(200);
    const rejected = await t.http.post(`/api/alarms/${second!.id}/reject`, {}, { token: operator });
    expect(rejected.statusCode, rejected.body).toBe(200);

    // Still no administration: the users stay closed to it.
    expect((await t.http.post('/api/users/0', {}, { token: operator })).statusCode).toBe(403);
  });
});
