import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V,
  type ReportSchedule,
  type ReportScheduleBody,
  type ReportScheduleList,
  type SystemSettings,
} from '@solar/shared';
import { pairs, makeUser, save, type TestUser } from '../../test/org-fixtures';
import { parseEml } from '../../test/mail';
import { buildApp } from '../../app';
import { createTestApp, dialectUnderTest, underSchemaLock, type TestApp } from '../../test/test-app';

/** The attachments of an .eml from the outbox: name, type and decoded bytes. */
function attachmentsOf(eml: string) {
  return eml
    .split(/^--.*$/m)
    .map((part) => {
      const [head = '', ...body] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
      const filename = /filename="?([^";\r\n]+)"?/i.exec(unfolded)?.[1];
      if (!filename || !/content-disposition:\s*attachment/i.test(unfolded)) return undefined;
      return {
        filename,
        contentType: /content-type:\s*([^;\s]+)/i.exec(unfolded)?.[1] ?? '',
        content: Buffer.from(body.join('\n\n').replace(/\s+/g, ''), 'base64'),
      };
    })
    .filter((a) => a !== undefined);
}

const HOUR = 3_600_000;

describe(`report schedules (${dialectUnderTest})`, () => {
  let t: TestApp;
  let clock = Date.parse('2026-11-25T06:00:00Z');
  let admin: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let skopjePlant: number;
  let otherCompanyPlant: number;
  let fieldId: number;

  beforeAll(async () => {
    // The runner's timer is kept out of the way: each test moves the clock and runs the due runs itself.
    t = await createTestApp({}, { now: () => clock, reportSchedules: { intervalMs: 24 * HOUR } });
    admin = await makeUser(t, { admin: true });
    const company = await save(t, admin.token, '/api/companies/0', { name: 'Vardar Solar' });
    const field = await save(t, admin.token, '/api/fields/0', { company_id: company.id, name: 'Ovče Pole' });
    fieldId = field.id;
    skopjePlant = (
      await save(t, admin.token, '/api/plants/0', {
        field_id: field.id,
        name: 'Свети Николе GES',
        time_zone: 'Europe/Skopje',
      })
    ).id;
    const other = await save(t, admin.token, '/api/companies/0', { name: 'Other Co' });
    const otherField = await save(t, admin.token, '/api/fields/0', { company_id: other.id, name: 'Far' });
    otherCompanyPlant = (
      await save(t, admin.token, '/api/plants/0', {
        field_id: otherField.id,
        name: 'Far Plant',
        time_zone: 'Europe/Istanbul',
      })
    ).id;
    reader = await makeUser(t, { companyId: company.id, permissions: pairs(['report'], ['view']) });
    stranger = await makeUser(t, { companyId: company.id, permissions: pairs(['report'], ['view']) });
    // The reader reads Macedonian: the mail comes in it.
    await t.ctx.db.updateTable('users').set({ language_id: 4 }).where('id', '=', reader.id).execute();
  });
  afterAll(() => t.close());

  const body = (over: Partial<ReportScheduleBody> = {}): ReportScheduleBody => ({
    report_type: 'production',
    plant_ids: [skopjePlant],
    frequency: 'daily',
    local_time: '07:00',
    ...over,
  });

  async function subscribe(user: TestUser, over: Partial<ReportScheduleBody> = {}) {
    return save<ReportSchedule>(t, user.token, '/api/report-schedules/0', body(over));
  }

  async function remove(user: TestUser, id: number) {
    expect((await t.http.delete(`/api/report-schedules/${id}`, { token: user.token })).statusCode).toBe(204);
  }

  /** Moves the clock to `to` in `stepMs` steps, running what is due at each, as the timer would. */
  async function runUntil(to: number, stepMs: number) {
    let sent = 0;
    for (; clock < to; clock = Math.min(clock + stepMs, to)) {
      sent += await t.ctx.reportSchedules.runDueSchedules(clock);
    }
    sent += await t.ctx.reportSchedules.runDueSchedules(clock);
    return sent;
  }

  it('lists, reads, edits, pauses and removes the own subscriptions only', async () => {
    clock = Date.parse('2026-11-25T06:00:00Z');
    const created = await subscribe(reader, { frequency: 'weekly', weekday: 1, local_time: '08:30' });
    expect(created).toMatchObject({
      user_id: reader.id,
      plant_names: ['Свети Николе GES'],
      formats: ['pdf', 'xlsx'],
      time_zone: 'Europe/Skopje',
      status: 'pending',
      is_paused: false,
      // Monday 2026-11-30, 08:30 in Skopje (UTC+1).
      next_run_at: '2026-11-30T07:30:00.000Z',
    });
    const list = await t.http.get('/api/report-schedules', { token: reader.token });
    expect(list.json<ReportScheduleList>().items.map((s) => s.id)).toEqual([created.id]);
    // Another user of the same company neither sees nor changes it.
    expect((await t.http.get('/api/report-schedules', { token: stranger.token })).json()).toEqual({
      items: [],
      total: 0,
    });
    for (const res of [
      await t.http.get(`/api/report-schedules/${created.id}`, { token: stranger.token }),
      await t.http.post(`/api/report-schedules/${created.id}`, body(), { token: stranger.token }),
      await t.http.delete(`/api/report-schedules/${created.id}`, { token: stranger.token }),
    ]) {
      expect(res.statusCode).toBe(404);
    }

    const paused = await save<ReportSchedule>(t, reader.token, `/api/report-schedules/${created.id}`, {
      ...body({ frequency: 'monthly', formats: ['xlsx'] }),
      is_paused: true,
    });
    expect(paused).toMatchObject({
      is_paused: true,
      next_run_at: null,
      frequency: 'monthly',
      formats: ['xlsx'],
    });
    // Paused, nothing is due even long after its time.
    expect(await t.ctx.reportSchedules.runDueSchedules(clock + 60 * 24 * HOUR)).toBe(0);
    const resumed = await save<ReportSchedule>(t, reader.token, `/api/report-schedules/${created.id}`, {
      ...body({ frequency: 'monthly' }),
      is_paused: false,
    });
    expect(resumed.next_run_at).toBe('2026-12-01T06:00:00.000Z');

    await remove(reader, created.id);
    expect(
      (await t.http.get(`/api/report-schedules/${created.id}`, { token: reader.token })).statusCode,
    ).toBe(404);
  });

  it('refuses invalid bodies with message keys, plants out of scope, and callers without the right', async () => {
    const bad = await t.http.post(
      '/api/report-schedules/0',
      { ...body(), local_time: '25:00', plant_ids: [], formats: ['docx'], frequency: 'hourly' },
      { token: reader.token },
    );
    expect(bad.statusCode).toBe(400);
    const errors = bad.json<{ errors: Record<string, string[]> }>().errors;
    expect(errors.local_time).toContain(V.invalidValue);
    expect(errors.plant_ids).toContain(V.required);
    expect(errors.frequency).toContain(V.invalidValue);
    expect(Object.keys(errors).some((k) => k.startsWith('formats'))).toBe(true);

    const outOfScope = await t.http.post(
      '/api/report-schedules/0',
      body({ plant_ids: [skopjePlant, otherCompanyPlant] }),
      { token: reader.token },
    );
    expect(outOfScope.statusCode).toBe(404);
    const noRights = await makeUser(t, { permissions: pairs(['plant'], ['view']) });
    expect((await t.http.get('/api/report-schedules', { token: noRights.token })).statusCode).toBe(403);
    expect((await t.http.get('/api/report-schedules')).statusCode).toBe(401);
    expect((await t.http.get('/api/report-schedules', { token: reader.token })).json()).toMatchObject({
      total: 0,
    });
  });

  it('mails the report with its PDF and XLSX when its time passes, in the subscriber language', async () => {
    clock = Date.parse('2026-11-25T05:00:00Z');
    const before = t.outbox().length;
    const sub = await subscribe(reader, { local_time: '07:00' });
    // 06:59 in Skopje: not yet.
    expect(await t.ctx.reportSchedules.runDueSchedules(Date.parse('2026-11-25T05:59:00Z'))).toBe(0);
    expect(t.outbox().length).toBe(before);
    expect(await runUntil(Date.parse('2026-11-25T06:10:00Z'), 5 * 60_000)).toBe(1);

    const mails = t.outbox().slice(before);
    expect(mails).toHaveLength(1);
    const mail = parseEml(mails[0]!);
    expect(mail.to).toContain('@test.example.com');
    // Macedonian subject, the day before the run.
    expect(mail.subject).toMatch(/[А-Яа-яЀ-ӿ]/);
    expect(mail.subject).toContain('2026');
    const files = attachmentsOf(mails[0]!);
    expect(files.map((f) => f.filename).sort()).toEqual([
      'production-2026-11-24_2026-11-24.pdf',
      'production-2026-11-24_2026-11-24.xlsx',
    ]);
    const pdf = files.find((f) => f.filename.endsWith('.pdf'))!;
    const xlsx = files.find((f) => f.filename.endsWith('.xlsx'))!;
    expect(pdf.contentType).toBe('application/pdf');
    expect(xlsx.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    // Real files, not the JSON answer: a PDF header and an XLSX (zip) signature.
    expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(xlsx.content.subarray(0, 2).toString('latin1')).toBe('PK');

    const after = await save<ReportSchedule>(t, reader.token, `/api/report-schedules/${sub.id}`, body());
    expect(after).toMatchObject({
      status: 'sent',
      last_sent_at: '2026-11-25T06:00:00.000Z',
      next_run_at: '2026-11-26T06:00:00.000Z',
    });
    await remove(reader, sub.id);
  });

  it('does not send a daily report twice or skip it across the DST changes of Europe/Skopje', async () => {
    for (const [start, end, dates] of [
      // Spring forward on 2026-03-29: 02:30 does not exist that night.
      [
        '2026-03-27T12:00:00Z',
        '2026-04-01T12:00:00Z',
        ['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31'],
      ],
      // Fall back on 2026-10-25: 02:30 happens twice that night.
      [
        '2026-10-23T12:00:00Z',
        '2026-10-28T12:00:00Z',
        ['2026-10-23', '2026-10-24', '2026-10-25', '2026-10-26', '2026-10-27'],
      ],
    ] as const) {
      clock = Date.parse(start);
      const before = t.outbox().length;
      const sub = await subscribe(reader, { local_time: '02:30', formats: ['xlsx'] });
      // Every quarter hour, which passes both 02:30s of the fall-back night.
      expect(await runUntil(Date.parse(end), HOUR / 4)).toBe(dates.length);
      const periods = t
        .outbox()
        .slice(before)
        .flatMap((eml) => attachmentsOf(eml).map((f) => f.filename));
      expect(periods).toEqual(dates.map((d) => `production-${d}_${d}.xlsx`));
      await remove(reader, sub.id);
    }
  });

  it('retries a failed send with backoff, shows the failure, and sends once the mail server is back', async () => {
    clock = Date.parse('2026-11-25T05:00:00Z');
    const sub = await subscribe(reader, { local_time: '07:00', formats: ['pdf'] });
    // A mail server that refuses every connection (nothing listens on port 1), set as an administrator
    // does; with no SMTP host set again, mail goes to the outbox as before.
    const smtpHost = async (host: string | null) => {
      const current = (
        await t.http.get('/api/admin/settings', { token: admin.token })
      ).json<SystemSettings>();
      const { smtp_password_set: _set, updated_at: _at, ...body } = current;
      const res = await t.http.post(
        '/api/admin/settings',
        { ...body, smtp_host: host, smtp_port: 1 },
        { token: admin.token },
      );
      expect(res.statusCode, res.body).toBe(200);
    };
    await smtpHost('127.0.0.1');
    const before = t.outbox().length;
    try {
      clock = Date.parse('2026-11-25T06:00:00Z');
      expect(await t.ctx.reportSchedules.runDueSchedules(clock)).toBe(0);
      let shown = (
        await t.http.get(`/api/report-schedules/${sub.id}`, { token: reader.token })
      ).json<ReportSchedule>();
      expect(shown).toMatchObject({
        status: 'retrying',
        failed_attempts: 1,
        last_error: 'reportSchedules.errors.sendFailed',
        retry_at: '2026-11-25T06:01:00.000Z',
        next_run_at: '2026-11-25T06:00:00.000Z',
      });
      // Not before the backoff has passed.
      expect(await t.ctx.reportSchedules.runDueSchedules(clock + 30_000)).toBe(0);
      clock += 60_000;
      expect(await t.ctx.reportSchedules.runDueSchedules(clock)).toBe(0);
      shown = (
        await t.http.get(`/api/report-schedules/${sub.id}`, { token: reader.token })
      ).json<ReportSchedule>();
      // The second wait is twice the first.
      expect(shown).toMatchObject({ failed_attempts: 2, retry_at: '2026-11-25T06:03:00.000Z' });
    } finally {
      await smtpHost(null);
    }
    clock = Date.parse('2026-11-25T06:03:00Z');
    expect(await t.ctx.reportSchedules.runDueSchedules(clock)).toBe(1);
    const mails = t.outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(attachmentsOf(mails[0]!).map((f) => f.filename)).toEqual(['production-2026-11-24_2026-11-24.pdf']);
    const shown = (
      await t.http.get(`/api/report-schedules/${sub.id}`, { token: reader.token })
    ).json<ReportSchedule>();
    expect(shown).toMatchObject({
      status: 'sent',
      failed_attempts: 0,
      last_error: null,
      retry_at: null,
      next_run_at: '2026-11-26T06:00:00.000Z',
    });
    await remove(reader, sub.id);
  });
  it("runs at the local time of its plants' zone: 07:00 in Istanbul is 04:00Z; mixed zones take the most shared", async () => {
    clock = Date.parse('2026-11-25T12:00:00Z');
    const plantIn = async (name: string, time_zone: string) =>
      (await save(t, admin.token, '/api/plants/0', { field_id: fieldId, name, time_zone })).id;
    const istanbul = await plantIn('Konya GES', 'Europe/Istanbul');
    const istanbul2 = await plantIn('Karaman GES', 'Europe/Istanbul');
    const before = t.outbox().length;
    const sub = await subscribe(reader, { plant_ids: [istanbul], local_time: '07:00' });
    expect(sub).toMatchObject({ time_zone: 'Europe/Istanbul', next_run_at: '2026-11-26T04:00:00.000Z' });
    // 06:59 in Istanbul (03:59Z): nothing; it goes at 04:00Z, hours before 07:00 in Skopje or UTC.
    expect(await t.ctx.reportSchedules.runDueSchedules(Date.parse('2026-11-26T03:59:00Z'))).toBe(0);
    expect(await runUntil(Date.parse('2026-11-26T04:00:00Z'), 60_000)).toBe(1);
    expect(t.outbox().length).toBe(before + 1);
    const sent = (
      await t.http.get(`/api/report-schedules/${sub.id}`, { token: reader.token })
    ).json<ReportSchedule>();
    expect(sent).toMatchObject({
      last_sent_at: '2026-11-26T04:00:00.000Z',
      next_run_at: '2026-11-27T04:00:00.000Z',
    });
    await remove(reader, sub.id);

    // Two Istanbul plants and one in Skopje, Skopje listed first: Istanbul's clock.
    const mixed = await subscribe(reader, {
      plant_ids: [skopjePlant, istanbul, istanbul2],
      local_time: '07:00',
    });
    expect(mixed).toMatchObject({ time_zone: 'Europe/Istanbul', next_run_at: '2026-11-27T04:00:00.000Z' });
    await remove(reader, mixed.id);
    // One of each: the zone of the plant listed first.
    const tie = await subscribe(reader, { plant_ids: [skopjePlant, istanbul], local_time: '07:00' });
    expect(tie).toMatchObject({ time_zone: 'Europe/Skopje', next_run_at: '2026-11-26T06:00:00.000Z' });
    await remove(reader, tie.id);
  });
});

describe(`report schedules across a restart (${dialectUnderTest})`, () => {
  it('sends a run missed while the server was down once on start, and not again on the next start', async () => {
    let clock = Date.parse('2026-11-25T05:00:00Z');
    const options = { now: () => clock, reportSchedules: { intervalMs: 24 * HOUR } };
    const t = await createTestApp({}, options);
    try {
      const admin = await makeUser(t, { admin: true });
      const company = await save(t, admin.token, '/api/companies/0', { name: 'Restart Co' });
      const field = await save(t, admin.token, '/api/fields/0', { company_id: company.id, name: 'F' });
      const plant = await save(t, admin.token, '/api/plants/0', {
        field_id: field.id,
        name: 'Restart Plant',
        time_zone: 'Europe/Istanbul',
      });
      const user = await makeUser(t, { companyId: company.id, permissions: pairs(['report'], ['view']) });
      await save(t, user.token, '/api/report-schedules/0', {
        report_type: 'fleet',
        plant_ids: [plant.id],
        frequency: 'daily',
        local_time: '09:00',
      });
      const before = t.outbox().length;

      // Down from before the first run until three days later (09:00 Istanbul is 06:00 UTC).
      clock = Date.parse('2026-11-28T10:00:00Z');
      /** A new server on the same database: its start sends what is due, then it stops. */
      const start = async () => {
        const next = await underSchemaLock(() => buildApp(t.ctx.config, options));
        try {
          await next.app.ready();
          await next.ctx.reportSchedules.settled();
        } finally {
          await next.app.close();
        }
      };
      await start();
      let mails = t.outbox().slice(before);
      // One mail, of the newest missed period, not one per missed day.
      expect(mails).toHaveLength(1);
      expect(
        attachmentsOf(mails[0]!)
          .map((f) => f.filename)
          .sort(),
      ).toEqual(['fleet-2026-11-27_2026-11-27.pdf', 'fleet-2026-11-27_2026-11-27.xlsx']);
      clock += HOUR;
      await start();
      mails = t.outbox().slice(before);
      expect(mails).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
