import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRecord, ReportSchedule, ReportScheduleBody } from '@solar/shared';
import { buildApp } from '../app';
import type { AlarmChangeListener } from '../modules/alarms';
import { parseEml } from '../test/mail';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, TestClient, underSchemaLock, type TestApp } from '../test/test-app';
import { startAlarmNotifications } from './alarm-digest';

/**
 * The console as a spam relay (outside attack, 2026-11-28): every mail the server sends counts against a
 * daily budget of its recipient, kept in the database; names a user typed reach mails without links or
 * line breaks.
 */

const DAY = 86_400_000;
const silentLog = { error: () => undefined, info: () => undefined };

/** Waits until `check` holds (mails sent after the answer, such as reset links), at most 3 s. */
async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check() && waited < 3000; waited += 25) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function emailOf(t: TestApp, userId: number): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.email;
}

describe(`mail budgets per recipient and day (${dialectUnderTest})`, () => {
  let t: TestApp;
  let clock = Date.parse('2026-11-28T05:00:00Z');
  const options = { now: () => clock, reportSchedules: { intervalMs: DAY } };
  let admin: TestUser;
  let tree: Tree;

  beforeAll(async () => {
    t = await createTestApp({ mailLimits: { general: 3, alarm: 100, security: 2 } }, options);
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Budget');
  });
  afterAll(() => t.close());

  /** The metric of mails held back for the budget, as /metrics shows it. */
  const held = async (budget: string) => {
    const text = (await t.ctx.metrics.render()).body;
    const match = new RegExp(`^solar_mail_held_back_total\\{budget="${budget}"\\} (\\d+)$`, 'm').exec(text);
    return Number(match?.[1] ?? 0);
  };

  const testMail = (http: TestClient, to: string, token = admin.token) =>
    http.post('/api/admin/settings/test-mail', { to }, { token });

  it('holds the daily cap of a recipient across a restart of the server on the same database', async () => {
    const before = t.outbox().length;
    for (let i = 0; i < 3; i++) {
      expect((await testMail(t.http, 'victim@outside.example')).statusCode).toBe(200);
    }
    expect(t.outbox()).toHaveLength(before + 3);
    // Over the cap, in any spelling of the address: refused, and nothing is sent.
    const over = await testMail(t.http, 'Victim@Outside.EXAMPLE');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ detail: 'errors.mailLimitReached' });
    expect(t.outbox()).toHaveLength(before + 3);
    // Another recipient has a budget of its own.
    expect((await testMail(t.http, 'someone-else@outside.example')).statusCode).toBe(200);

    // A second server on the same database: the count was stored, not kept in memory.
    const next = await underSchemaLock(() => buildApp(t.ctx.config, options));
    try {
      await next.app.ready();
      const http = new TestClient(next.app);
      expect((await testMail(http, 'victim@outside.example')).statusCode).toBe(429);
      expect(t.outbox()).toHaveLength(before + 4);
      // The next day starts a new budget.
      clock += DAY;
      expect((await testMail(http, 'victim@outside.example')).statusCode).toBe(200);
      expect(t.outbox()).toHaveLength(before + 5);
    } finally {
      await next.app.close();
    }
  });

  it("starts a recipient's budget again at their local midnight, not at UTC's (Europe/Istanbul, UTC+3)", async () => {
    // A user of the tree's company, whose plant is in Istanbul: the company's zone is the user's.
    const local = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['report'], ['view']) });
    const email = await emailOf(t, local.id);
    // 23:30 in Istanbul on 29 November is 20:30 UTC: the cap of 3 is reached that evening.
    clock = Date.parse('2026-11-29T20:30:00Z');
    // Signed in now: a session lasts a day by the injected clock.
    const { token } = await makeUser(t, { admin: true });
    for (let i = 0; i < 3; i++) expect((await testMail(t.http, email, token)).statusCode).toBe(200);
    expect((await testMail(t.http, email, token)).statusCode).toBe(429);
    // 00:05 in Istanbul on 30 November is 21:05 UTC, still 29 November in UTC: a new local day.
    clock = Date.parse('2026-11-29T21:05:00Z');
    const before = t.outbox().length;
    expect((await testMail(t.http, email, token)).statusCode).toBe(200);
    expect(parseEml(t.outbox()[before]!)).toMatchObject({ to: email });
    // An address that is no user's is read on the console's zone, here the plants' Istanbul as well.
    clock = Date.parse('2026-11-30T20:30:00Z');
    const outsider = (http: TestClient, tokenNow: string) =>
      testMail(http, 'outsider@outside.example', tokenNow).then((res) => res.statusCode);
    const later = (await makeUser(t, { admin: true })).token;
    for (let i = 0; i < 3; i++) expect(await outsider(t.http, later)).toBe(200);
    expect(await outsider(t.http, later)).toBe(429);
    clock = Date.parse('2026-11-30T21:05:00Z');
    expect(await outsider(t.http, later)).toBe(200);
  });

  it('holds report mails back past the cap without starving the security budget, and counts them', async () => {
    clock = Date.parse('2026-12-01T03:00:00Z');
    const reader = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['report'], ['view']) });
    const email = await emailOf(t, reader.id);
    const body: ReportScheduleBody = {
      report_type: 'production',
      plant_ids: [tree.plantId],
      frequency: 'daily',
      local_time: '07:00',
      formats: ['pdf'],
    };
    const subs = await Promise.all(
      [0, 1, 2, 3].map(() => save<ReportSchedule>(t, reader.token, '/api/report-schedules/0', body)),
    );
    const before = t.outbox().length;
    const [heldGeneral, heldSecurity] = [await held('general'), await held('security')];
    // 07:00 in Istanbul is 04:00 UTC.
    clock = Date.parse('2026-12-01T04:30:00Z');
    expect(await t.ctx.reportSchedules.runDueSchedules(clock)).toBe(3);
    expect(
      t
        .outbox()
        .slice(before)
        .map((m) => parseEml(m).to),
    ).toEqual([email, email, email]);
    const states = await Promise.all(
      subs.map(async (s) =>
        (await t.http.get(`/api/report-schedules/${s.id}`, { token: reader.token })).json<ReportSchedule>(),
      ),
    );
    const notSent = states.filter((s) => s.status !== 'sent');
    // Held back, not retried (a retry would only spend the budget again); the next day goes out as usual.
    expect(notSent).toHaveLength(1);
    expect(notSent[0]).toMatchObject({
      status: 'failed',
      last_error: 'reportSchedules.errors.mailLimit',
      retry_at: null,
      next_run_at: '2026-12-02T04:00:00.000Z',
    });
    expect(await held('general')).toBe(heldGeneral + 1);

    // The reset link still reaches the same address: security mails have their own budget.
    const reset = async () => {
      const res = await t.http.post('/api/users/resetpasswordrequest', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    };
    const count = () => t.outbox().length;
    await reset();
    await eventually(() => count() === before + 4);
    expect(parseEml(t.outbox().at(-1)!)).toMatchObject({ to: email });
    await reset();
    await eventually(() => count() === before + 5);
    expect(count()).toBe(before + 5);
    // The third reset mail of the day is over the security budget: the answer is the same, no mail.
    await reset();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(count()).toBe(before + 5);
    expect(await held('security')).toBe(heldSecurity + 1);
  });
});

describe(`names in mails carry no links or line breaks (${dialectUnderTest})`, () => {
  let t: TestApp;
  let clock = Date.parse('2026-11-28T03:00:00Z');
  let admin: TestUser;
  let tree: Tree;
  const EVIL_PLANT = 'Click http://evil.example/\r\nBcc: x';
  const EVIL_USER = 'Eve\nVisit www.evil.example or evil.example today';

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => clock, reportSchedules: { intervalMs: DAY } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Name');
    const plant = await t.http.post(
      `/api/plants/${tree.plantId}`,
      { field_id: tree.fieldId, name: EVIL_PLANT, time_zone: 'Europe/Istanbul' },
      { token: admin.token },
    );
    expect(plant.statusCode).toBe(200);
    expect(plant.json()).toMatchObject({ name: EVIL_PLANT.trim() });
  });
  afterAll(() => t.close());

  /** Neither the body (text and HTML) nor the headers carry the link, the bare domain or a forged line. */
  function expectClean(eml: string, kept: readonly string[]) {
    const mail = parseEml(eml);
    const head = eml.split(/\r?\n\r?\n/)[0]!;
    expect(head).not.toMatch(/^bcc:/im);
    for (const part of [mail.subject, mail.body]) {
      expect(part).not.toMatch(/evil/i);
      expect(part).not.toMatch(/^Bcc: x/m);
    }
    // What remains of the names stays on its line.
    for (const word of kept) {
      expect(mail.body).toContain(word);
      expect(mail.body).not.toMatch(new RegExp(`${word}[^\\S\\r\\n]*\\r?\\n[^\\S\\r\\n]*(Bcc|Visit)`));
    }
  }

  it('in the scheduled report mail', async () => {
    const reader = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['report'], ['view']) });
    await t.ctx.db.updateTable('users').set({ name: EVIL_USER }).where('id', '=', reader.id).execute();
    await save(t, reader.token, '/api/report-schedules/0', {
      report_type: 'production',
      plant_ids: [tree.plantId],
      frequency: 'daily',
      local_time: '07:00',
      formats: ['pdf'],
    });
    const before = t.outbox().length;
    clock = Date.parse('2026-11-28T04:30:00Z');
    expect(await t.ctx.reportSchedules.runDueSchedules(clock)).toBe(1);
    const [eml] = t.outbox().slice(before);
    expectClean(eml!, ['Click', 'Eve']);
    // The one link is the console's own.
    expect(parseEml(eml!).body).toContain(`${t.ctx.config.publicUrl}/report`);
  });

  it('in the alarm digest', async () => {
    const listeners = new Set<AlarmChangeListener>();
    const feed = {
      onAlarmChange(listener: AlarmChangeListener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const user = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['alarm'], ['view']) });
    await t.ctx.db.updateTable('users').set({ name: EVIL_USER }).where('id', '=', user.id).execute();
    const digest = startAlarmNotifications(t.ctx, feed, silentLog, { windowMs: 60_000 });
    const alarm: AlarmRecord = {
      id: 1,
      company_id: tree.companyId,
      plant_id: tree.plantId,
      plant_name: EVIL_PLANT,
      plant_time_zone: 'Europe/Istanbul',
      device_id: tree.deviceId,
      device_name: 'INV https://evil.example/x\r\nBcc: x',
      device_type: 'inverter',
      tag_id: null,
      source: 'custom',
      rule_id: null,
      priority_id: 4,
      // A custom rule's message is the text its author typed.
      message: 'Tripped, see evil.example\r\nBcc: x',
      message_params: {},
      status_id: 1,
      status: 'active',
      state: 'active_unacknowledged',
      started_at: new Date(clock).toISOString(),
      cleared_at: null,
      approved_at: null,
      approved_by: null,
      rejected_at: null,
      rejected_by: null,
      fault_id: null,
      cause_alarm_id: null,
      consequence_count: 0,
    };
    const before = new Set(t.outbox());
    for (const listener of listeners) listener({ kind: 'raised', alarm });
    await digest.stop();
    const email = await emailOf(t, user.id);
    const mine = t.outbox().filter((m) => !before.has(m) && parseEml(m).to.includes(email));
    expect(mine).toHaveLength(1);
    expectClean(mine[0]!, ['Click', 'Eve', 'Tripped']);
  });

  it('in the password reset mail', async () => {
    const user = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['report'], ['view']) });
    await t.ctx.db.updateTable('users').set({ name: EVIL_USER }).where('id', '=', user.id).execute();
    const email = await emailOf(t, user.id);
    const before = t.outbox().length;
    expect((await t.http.post('/api/users/resetpasswordrequest', { email })).statusCode).toBe(200);
    await eventually(() => t.outbox().length > before);
    const [eml] = t.outbox().slice(before);
    expectClean(eml!, ['Eve']);
  });
});
