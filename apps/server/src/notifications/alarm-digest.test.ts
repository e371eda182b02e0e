import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRecord } from '@solar/shared';
import type { AlarmChange, AlarmChangeListener } from '../modules/alarms';
import { parseEml } from '../test/mail';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { startAlarmNotifications } from './alarm-digest';

/** A feed of the alarm feed's shape, driven by the test. */
function testFeed() {
  const listeners = new Set<AlarmChangeListener>();
  return {
    onAlarmChange(listener: AlarmChangeListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(change: AlarmChange) {
      for (const listener of listeners) listener(change);
    },
    get size() {
      return listeners.size;
    },
  };
}

const silentLog = { error: () => undefined, info: () => undefined };

describe(`alarm notification digest (${dialectUnderTest})`, () => {
  let t: TestApp;
  let tree: Tree;
  let other: Tree;
  const users: Record<string, TestUser> = {};
  const emails: Record<string, string> = {};

  const alarm = (id: number, priority: number, extra: Partial<AlarmRecord> = {}): AlarmRecord => ({
    id,
    company_id: tree.companyId,
    plant_id: tree.plantId,
    plant_name: 'Digest Plant',
    plant_time_zone: 'Europe/Istanbul',
    device_id: tree.deviceId,
    device_name: 'Digest INV-01',
    device_type: 'inverter',
    tag_id: null,
    source: 'custom',
    rule_id: null,
    priority_id: priority,
    message: `Inverter ${id} tripped`,
    message_params: {},
    status_id: 1,
    status: 'active',
    state: 'active_unacknowledged',
    started_at: new Date(Date.UTC(2026, 5, 1, 9, 0, 0) + id * 1000).toISOString(),
    cleared_at: null,
    approved_at: null,
    approved_by: null,
    rejected_at: null,
    rejected_by: null,
    fault_id: null,
    cause_alarm_id: null,
    consequence_count: 0,
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Digest');
    other = await makeTree(t, admin.token, 'Elsewhere');
    const alarmView = pairs(['alarm'], ['view']);
    const specs: [string, Parameters<typeof makeUser>[1], number][] = [
      ['tr', { companyId: tree.companyId, permissions: alarmView }, 1],
      ['en', { companyId: tree.companyId, permissions: [...alarmView, ...pairs(['fault'])] }, 2],
      [
        'de',
        {
          companyId: tree.companyId,
          permissions: alarmView,
          units: [{ unit_type: 'plant', unit_id: tree.plantId }],
        },
        3,
      ],
      ['mk', { companyId: tree.companyId, permissions: alarmView }, 4],
      // Not mailed: no alarm page, inactive, another company, narrowed to another field, the admin.
      ['noAlarm', { companyId: tree.companyId, permissions: pairs(['fault']) }, 1],
      ['inactive', { companyId: tree.companyId, permissions: alarmView }, 1],
      ['otherCompany', { companyId: other.companyId, permissions: alarmView }, 1],
      [
        'narrowed',
        {
          companyId: tree.companyId,
          permissions: alarmView,
          units: [{ unit_type: 'field', unit_id: other.fieldId }],
        },
        1,
      ],
      ['admin', { admin: true }, 1],
    ];
    for (const [name, spec, languageId] of specs) {
      const user = await makeUser(t, spec);
      users[name] = user;
      await t.ctx.db
        .updateTable('users')
        .set({ language_id: languageId, is_active: name === 'inactive' ? 0 : 1 })
        .where('id', '=', user.id)
        .execute();
      const row = await t.ctx.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      emails[name] = row.email;
    }
  });
  afterAll(() => t.close());

  /** Mails written since `before` (a snapshot of the outbox), whatever order the file names sort in. */
  const newMails = (before: ReadonlySet<string>) =>
    t
      .outbox()
      .filter((eml) => !before.has(eml))
      .map(parseEml);

  it('sends one digest per eligible recipient for a storm of 500 alarms, in their language', async () => {
    const feed = testFeed();
    const digest = startAlarmNotifications(t.ctx, feed, silentLog, { windowMs: 60_000 });
    const before = new Set(t.outbox());
    for (let i = 1; i <= 500; i++) feed.publish({ kind: 'raised', alarm: alarm(i, 4) });
    // Ignored: low priority, approvals.
    for (let i = 501; i <= 510; i++) feed.publish({ kind: 'raised', alarm: alarm(i, 2) });
    feed.publish({ kind: 'approved', alarm: alarm(1, 4) });
    await digest.flush();

    const mails = newMails(before);
    expect(mails.map((m) => m.to).sort()).toEqual(
      [emails.tr, emails.en, emails.de, emails.mk].map((e) => e!).sort(),
    );
    const mailOf = (name: string) => mails.find((m) => m.to === emails[name])!;
    expect(mailOf('tr').subject).toBe('Alarm özeti: 500 değişiklik');
    expect(mailOf('tr').body).toContain('500 yeni, 0 sona erdi');
    expect(mailOf('tr').body).toContain('Yüksek ve tehlikeli');
    expect(mailOf('en').subject).toBe('Alarm digest: 500 changes');
    expect(mailOf('de').subject).toBe('Alarmübersicht: 500 Änderungen');
    const mk = mailOf('mk');
    expect(mk.subject).toBe('Преглед на аларми: 500 промени');
    expect(mk.subject).toMatch(/[\u0400-\u04FF]/);
    expect(mk.body).toContain('Висок и опасен');
    // 200 listed, the rest counted; low-priority changes are not listed.
    expect(mk.body).toContain('Inverter 1 tripped');
    expect(mk.body).toContain('… и уште 300 промени.');
    expect(mk.body).not.toContain('Inverter 501 tripped');
    expect(mk.body).toContain('http://');

    // Nothing left to send.
    await digest.flush();
    expect(newMails(before)).toHaveLength(4);
    await digest.stop();
    expect(feed.size).toBe(0);
  });

  it('sends nothing for low and medium priority changes', async () => {
    const feed = testFeed();
    const digest = startAlarmNotifications(t.ctx, feed, silentLog, { windowMs: 60_000 });
    const before = new Set(t.outbox());
    for (let i = 1; i <= 50; i++) {
      feed.publish({ kind: 'raised', alarm: alarm(1000 + i, 1 + (i % 2)) });
      feed.publish({ kind: 'cleared', alarm: alarm(1000 + i, 2) });
    }
    await digest.stop();
    expect(newMails(before)).toEqual([]);
  });

  it('sends on its own after the window, for cleared alarms too, each recipient once', async () => {
    const feed = testFeed();
    const digest = startAlarmNotifications(t.ctx, feed, silentLog, { windowMs: 50 });
    const before = new Set(t.outbox());
    const clearedAt = new Date(Date.UTC(2026, 5, 1, 12, 0, 0)).toISOString();
    feed.publish({ kind: 'raised', alarm: alarm(2001, 3) });
    feed.publish({
      kind: 'cleared',
      alarm: alarm(2001, 3, { status_id: 4, status: 'cleared', cleared_at: clearedAt }),
    });
    // An alarm of the other company reaches only that company's user.
    feed.publish({
      kind: 'raised',
      alarm: alarm(2002, 4, {
        company_id: other.companyId,
        plant_id: other.plantId,
        plant_name: 'Elsewhere Plant',
      }),
    });
    await expect.poll(() => newMails(before).length, { timeout: 5000 }).toBe(5);
    const mails = newMails(before);
    const mailOf = (name: string) => mails.filter((m) => m.to === emails[name]);
    expect(mailOf('en')).toHaveLength(1);
    expect(mailOf('en')[0]!.subject).toBe('Alarm digest: 2 changes');
    expect(mailOf('en')[0]!.body).toContain('1 new, 1 ended');
    expect(mailOf('en')[0]!.body).toContain('Alarm ended');
    expect(mailOf('otherCompany')).toHaveLength(1);
    expect(mailOf('otherCompany')[0]!.body).toContain('Elsewhere Plant');
    expect(mailOf('otherCompany')[0]!.body).not.toContain('Digest Plant');
    expect(mailOf('narrowed')).toHaveLength(0);
    await digest.stop();
    expect(newMails(before)).toHaveLength(5);
  });
});
