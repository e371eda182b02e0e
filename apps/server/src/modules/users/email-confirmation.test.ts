import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSchedule } from '@solar/shared';
import { translate } from '@solar/i18n';
import { makeTree, pairs, save } from '../../test/org-fixtures';
import { parseEml, type ParsedMail } from '../../test/mail';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const subOf = (token: string) => Number(decodeJwt(token).sub);
const linkOf = (body: string) => /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(body)?.[1];

/**
 * Own email and password changes (outside attack, 2026-11-28): both need the current password, and a new
 * email is used only once the link mailed to it is opened. Unconfirmed emails get no scheduled reports.
 */
describe(`own email and password changes (${dialectUnderTest})`, { timeout: 180_000 }, () => {
  let t: TestApp;
  let clock = Date.now();
  let admin: string;
  let roleId: number;
  let companyId: number;
  let plantId: number;

  beforeAll(async () => {
    t = await createTestApp({ scryptLogN: 10 });
    t.ctx.now = () => clock;
    admin = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    const tree = await makeTree(t, admin, 'Mail');
    companyId = tree.companyId;
    plantId = tree.plantId;
    const role = await save(t, admin, '/api/roles/0', {
      name: 'Report readers',
      permissions: pairs(['report', 'plant'], ['view']),
    });
    roleId = role.id;
  });
  afterAll(() => t.close());

  /** Mails written after `count`, once `n` of them arrived (they are sent after the answer). */
  async function mailsAfter(count: number, n: number): Promise<ParsedMail[]> {
    for (let i = 0; i < 200 && t.outbox().length < count + n; i++) await sleep(20);
    return t.outbox().slice(count).map(parseEml);
  }

  /** A user made by the admin over HTTP, signed in. */
  async function newUser(tag: string) {
    const email = `${tag}@old.example.com`;
    const user = await save(t, admin, '/api/users/0', {
      name: 'Mail',
      surname: tag,
      username: tag,
      telephone: '+90 555 000 00 03',
      email,
      role_id: roleId,
      company_id: companyId,
      password: 'Current!Pass1',
    });
    const token = await t.http.login(email, 'Current!Pass1');
    return {
      id: user.id,
      email,
      token,
      profile: { name: 'Mail', surname: tag, username: tag, telephone: '+90 555 000 00 03', email },
    };
  }

  const read = async (token: string) =>
    (await t.http.get(`/api/users/${subOf(token)}`, { token })).json<{
      email: string;
      email_confirmed?: boolean;
      pending_email?: string | null;
    }>();

  it('the own password changes only with the right current password', async () => {
    const user = await newUser('pw');
    const url = `/api/users/${user.id}/password`;
    const missing = await t.http.post(url, { password: 'Next!Pass22' }, { token: user.token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: { current_password: ['validation.required'] } });
    const wrong = await t.http.post(
      url,
      { password: 'Next!Pass22', current_password: 'nope' },
      { token: user.token },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ errors: { current_password: ['errors.currentPasswordWrong'] } });
    // Still the old password.
    expect(
      (await t.http.post('/api/users/login', { email: user.email, password: 'Current!Pass1' })).statusCode,
    ).toBe(200);
    const right = await t.http.post(
      url,
      { password: 'Next!Pass22', current_password: 'Current!Pass1' },
      { token: user.token },
    );
    expect(right.statusCode, right.body).toBe(200);
    expect(
      (await t.http.post('/api/users/login', { email: user.email, password: 'Next!Pass22' })).statusCode,
    ).toBe(200);
    // A manager setting someone else's password needs no current password of theirs.
    expect((await t.http.post(url, { password: 'Admin!Set333' }, { token: admin })).statusCode).toBe(200);
  });

  it('a new own email needs the current password and takes effect only through the link sent to it', async () => {
    const user = await newUser('mover');
    const url = `/api/users/profile/${user.id}`;
    const next = 'mover@new.example.com';
    const missing = await t.http.post(url, { ...user.profile, email: next }, { token: user.token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: { current_password: ['validation.required'] } });
    const wrong = await t.http.post(
      url,
      { ...user.profile, email: next, current_password: 'x' },
      { token: user.token },
    );
    expect(wrong.statusCode).toBe(400);
    // Other fields change without it.
    const renamed = await t.http.post(url, { ...user.profile, name: 'Renamed' }, { token: user.token });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const before = t.outbox().length;
    const res = await t.http.post(
      url,
      { ...user.profile, email: next, current_password: 'Current!Pass1' },
      { token: user.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, pending_email: next });
    expect(await read(user.token)).toMatchObject({ email: user.email, pending_email: next });
    // The old address still signs in; the new one does not yet.
    expect(
      (await t.http.post('/api/users/login', { email: next, password: 'Current!Pass1' })).statusCode,
    ).toBe(401);

    const mails = await mailsAfter(before, 2);
    const confirm = mails.find((m) => m.to.includes(next))!;
    const notice = mails.find((m) => m.to.includes(user.email))!;
    expect(confirm.subject).toBe(translate('tr_TR', 'mail.emailChangeSubject'));
    expect(notice.subject).toBe(translate('tr_TR', 'mail.emailNoticeSubject'));
    expect(notice.body).toContain(next);
    expect(linkOf(notice.body)).toBeUndefined();
    const token = linkOf(confirm.body)!;
    expect(token).toBeDefined();

    expect((await t.http.post('/api/users/confirm-email', { token: 'no-such-token' })).statusCode).toBe(400);
    const done = await t.http.post('/api/users/confirm-email', { token });
    expect(done.statusCode, done.body).toBe(200);
    expect(await read(user.token)).toMatchObject({ email: next, email_confirmed: true, pending_email: null });
    expect(
      (await t.http.post('/api/users/login', { email: next, password: 'Current!Pass1' })).statusCode,
    ).toBe(200);
    // Single use.
    const again = await t.http.post('/api/users/confirm-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ detail: 'errors.emailLinkInvalid' });
  });

  it('a confirmation link expires after a day', async () => {
    const user = await newUser('late');
    const before = t.outbox().length;
    const res = await t.http.post(
      `/api/users/profile/${user.id}`,
      { ...user.profile, email: 'late@new.example.com', current_password: 'Current!Pass1' },
      { token: user.token },
    );
    expect(res.statusCode).toBe(200);
    const confirm = (await mailsAfter(before, 2)).find((m) => m.to.includes('late@new.example.com'))!;
    const saved = clock;
    clock += 24 * 3600_000 + 1;
    try {
      expect(
        (await t.http.post('/api/users/confirm-email', { token: linkOf(confirm.body)! })).statusCode,
      ).toBe(400);
    } finally {
      clock = saved;
    }
    expect(await read(user.token)).toMatchObject({ email: user.email });
  });

  it('the own email cannot be changed through the user editor', async () => {
    const me = await t.ctx.db
      .selectFrom('users')
      .select(['id', 'role_id'])
      .where('email', '=', DEMO.admin.email)
      .executeTakeFirstOrThrow();
    const res = await t.http.post(
      `/api/users/${me.id}`,
      {
        name: 'Ahmet',
        surname: 'Yılmaz',
        username: 'admin',
        telephone: '+90 532 555 01 01',
        email: 'admin@attacker.example.com',
        role_id: me.role_id,
      },
      { token: admin },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { email: ['errors.ownEmailViaProfile'] } });
  });

  it('admin-made users start unconfirmed and get no scheduled reports until a reset link confirms them', async () => {
    const user = await newUser('reader');
    expect(await read(user.token)).toMatchObject({ email_confirmed: false });
    // The demo accounts count as confirmed.
    expect(await read(admin)).toMatchObject({ email_confirmed: true });

    const schedule = await save<ReportSchedule>(t, user.token, '/api/report-schedules/0', {
      report_type: 'production',
      plant_ids: [plantId],
      frequency: 'daily',
      local_time: '07:00',
    });
    const due = Date.parse(schedule.next_run_at!) + 1000;
    const before = t.outbox().length;
    expect(await t.ctx.reportSchedules.runDueSchedules(due)).toBe(0);
    const row = await t.ctx.db
      .selectFrom('report_schedules')
      .select(['last_status', 'last_error'])
      .where('id', '=', schedule.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ last_status: 'failed', last_error: 'reportSchedules.errors.emailUnconfirmed' });
    expect(
      t
        .outbox()
        .slice(before)
        .some((m) => m.includes(user.email)),
    ).toBe(false);

    // A reset through the mailed link proves the address.
    const mark = t.outbox().length;
    await t.http.post(
      '/api/users/resetpasswordrequest',
      { email: user.email },
      { remoteAddress: '203.0.113.9' },
    );
    const reset = (await mailsAfter(mark, 1)).find((m) => m.to.includes(user.email))!;
    const guid = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(reset.body)![1]!;
    expect(
      (await t.http.post('/api/users/resetpassword', { guid, password: 'Fresh!Pass44' })).statusCode,
    ).toBe(200);
    const token = await t.http.login(user.email, 'Fresh!Pass44');
    expect(await read(token)).toMatchObject({ email_confirmed: true });
  });

  it('an email a manager sets for someone else counts as unconfirmed again', async () => {
    const user = await newUser('managed');
    await t.ctx.db
      .updateTable('users')
      .set({ email_confirmed_at: clock })
      .where('id', '=', user.id)
      .execute();
    const res = await t.http.post(
      `/api/users/profile/${user.id}`,
      { ...user.profile, email: 'managed@other.example.com' },
      { token: admin },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: 'managed@other.example.com', email_confirmed: false });
  });
});
