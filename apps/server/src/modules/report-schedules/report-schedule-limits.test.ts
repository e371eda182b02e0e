import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList, ReportSchedule, ReportScheduleBody } from '@solar/shared';
import { loadConfig } from '../../config';
import { pairs, makeUser, save, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/**
 * The spam relay of the outside attack (2026-11-28): a user created 100 subscriptions in under a second,
 * each mailing PDF and XLSX files. Subscriptions are limited per user and per company, and every change
 * of one is in the audit log.
 */
describe(`report schedule limits and audit (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plantId: number;
  let companyId: number;
  const PER_USER = 20;
  const PER_COMPANY = 30;

  beforeAll(async () => {
    t = await createTestApp({ reportScheduleLimits: { perUser: PER_USER, perCompany: PER_COMPANY } });
    admin = await makeUser(t, { admin: true });
    companyId = (await save(t, admin.token, '/api/companies/0', { name: 'Limit Co' })).id;
    const field = await save(t, admin.token, '/api/fields/0', { company_id: companyId, name: 'F' });
    plantId = (
      await save(t, admin.token, '/api/plants/0', {
        field_id: field.id,
        name: 'Limit Plant',
        time_zone: 'Europe/Istanbul',
      })
    ).id;
  });
  afterAll(() => t.close());

  const body = (over: Partial<ReportScheduleBody> = {}): ReportScheduleBody => ({
    report_type: 'production',
    plant_ids: [plantId],
    frequency: 'daily',
    local_time: '07:00',
    ...over,
  });
  const create = (user: TestUser) => t.http.post('/api/report-schedules/0', body(), { token: user.token });
  const reader = () => makeUser(t, { companyId, permissions: pairs(['report'], ['view']) });
  const countOf = async (userId: number) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('report_schedules')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses the subscription over the per-user limit, also when they arrive all at once', async () => {
    const user = await reader();
    // Parallel, as the attack sent them: the count and the insert must not race.
    const answers = await Promise.all(Array.from({ length: PER_USER + 5 }, () => create(user)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(PER_USER);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused).toHaveLength(5);
    for (const res of refused) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ detail: 'reportSchedules.errors.tooManyForUser' });
    }
    expect(await countOf(user.id)).toBe(PER_USER);
    // The limit+1-th, alone, is refused too; changing an existing one still works at the limit.
    const extra = await create(user);
    expect(extra.statusCode).toBe(409);
    const mine = answers.find((a) => a.statusCode === 200)!.json<ReportSchedule>();
    const edited = await t.http.post(`/api/report-schedules/${mine.id}`, body({ local_time: '08:00' }), {
      token: user.token,
    });
    expect(edited.statusCode).toBe(200);
    // A removed one frees its place.
    expect((await t.http.delete(`/api/report-schedules/${mine.id}`, { token: user.token })).statusCode).toBe(
      204,
    );
    expect((await create(user)).statusCode).toBe(200);
    expect((await create(user)).statusCode).toBe(409);
  });

  it('refuses the subscription over the per-company limit, whoever of the company asks', async () => {
    // The first test left PER_USER subscriptions in the company; these fill it up to PER_COMPANY.
    const others = await Promise.all([reader(), reader()]);
    const answers = await Promise.all(
      Array.from({ length: PER_COMPANY - PER_USER + 4 }, (_, i) => create(others[i % 2]!)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(PER_COMPANY - PER_USER);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused).toHaveLength(4);
    for (const res of refused) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ detail: 'reportSchedules.errors.tooManyForCompany' });
    }
    const late = await reader();
    const res = await create(late);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ detail: 'reportSchedules.errors.tooManyForCompany' });
    // The console admin has no company: the per-user limit alone holds for them.
    expect((await create(admin)).statusCode).toBe(200);
  });

  it('writes the creation, change and removal of a subscription to the audit log', async () => {
    const user = await makeUser(t, { permissions: pairs(['report'], ['view']), admin: true });
    const created = (await create(user)).json<ReportSchedule>();
    expect(created.id).toBeGreaterThan(0);
    const changed = await t.http.post(
      `/api/report-schedules/${created.id}`,
      body({ local_time: '09:30', is_paused: true }),
      { token: user.token },
    );
    expect(changed.statusCode).toBe(200);
    expect(
      (await t.http.delete(`/api/report-schedules/${created.id}`, { token: user.token })).statusCode,
    ).toBe(204);
    const log = await t.http.get('/api/audit', {
      token: admin.token,
      query: { entity: 'report_schedule', entity_id: String(created.id), pageSize: '50' },
    });
    expect(log.statusCode).toBe(200);
    const entries = log.json<AuditList>().items;
    const byAction = new Map(entries.map((e) => [e.action, e]));
    expect([...byAction.keys()].sort()).toEqual(['create', 'delete', 'update']);
    for (const entry of entries) expect(entry.user_id).toBe(user.id);
    expect(byAction.get('create')!.after).toMatchObject({ id: created.id, local_time: '07:00' });
    expect(byAction.get('update')!.before).toMatchObject({ local_time: '07:00', is_paused: false });
    expect(byAction.get('update')!.after).toMatchObject({ local_time: '09:30', is_paused: true });
    expect(byAction.get('delete')!.before).toMatchObject({ id: created.id, local_time: '09:30' });
  });

  it('keeps the documented defaults: 20 per user, 200 per company', () => {
    const defaults = loadConfig({ DATA_DIR: t.dataDir }).reportScheduleLimits;
    expect(defaults).toEqual({ perUser: 20, perCompany: 200 });
    expect(
      loadConfig({
        DATA_DIR: t.dataDir,
        REPORT_SCHEDULES_PER_USER: '5',
        REPORT_SCHEDULES_PER_COMPANY: '50',
      }).reportScheduleLimits,
    ).toEqual({ perUser: 5, perCompany: 50 });
  });
});
