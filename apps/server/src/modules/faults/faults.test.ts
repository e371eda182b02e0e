import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fault, FaultComment, FaultDetail, FaultList } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { createFaultFromAlarm, isFaultExistsError } from './faults.service';

describe(`faults (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let other: Tree;
  /** A full fault user of company 1, and one of company 2. */
  let worker: TestUser;
  let outsider: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Faults');
    other = await makeTree(t, admin.token, 'Other');
    worker = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['fault']) });
    outsider = await makeUser(t, { companyId: other.companyId, permissions: pairs(['fault']) });
    viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['fault'], ['view']) });
  });
  afterAll(() => t.close());

  const body = (extra: Record<string, unknown> = {}) => ({
    plant_id: tree.plantId,
    device_id: tree.deviceId,
    tag_id: tree.signalId,
    title: 'Inverter trips at noon',
    description: 'DC insulation fault reported twice',
    priority_id: 3,
    ...extra,
  });
  const list = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/faults', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FaultList>();
  };
  const get = async (id: number, token = admin.token) => {
    const res = await t.http.get(`/api/faults/${id}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FaultDetail>();
  };

  it('creates, reads, updates, lists and deletes a fault by hand', async () => {
    const created = await save<FaultDetail>(t, worker.token, '/api/faults/0', body());
    expect(created).toMatchObject({
      alarm_id: null,
      plant_id: tree.plantId,
      plant_name: 'Faults Plant',
      company_id: tree.companyId,
      device_id: tree.deviceId,
      device_name: 'Faults INV-01',
      tag_id: tree.signalId,
      status: 'open',
      assignee_user_id: null,
      created_by: worker.id,
      acknowledged_at: null,
      time_to_acknowledge_s: null,
      time_to_repair_s: null,
      comments: [],
      history: [{ from_status: null, to_status: 'open', user_id: worker.id }],
    });
    expect(await get(created.id, worker.token)).toEqual(created);

    const updated = await save<FaultDetail>(t, worker.token, `/api/faults/${created.id}`, {
      ...body({ title: 'Işık sensörü arızası', priority_id: 4, device_id: null, tag_id: null }),
    });
    expect(updated).toMatchObject({ title: 'Işık sensörü arızası', priority_id: 4, device_id: null });

    const found = await list({ q: 'isik', plant_id: String(tree.plantId), priority_id: '4' }, worker.token);
    expect(found.items.map((f) => f.id)).toEqual([created.id]);
    expect(found.total).toBe(1);
    expect((await list({ status: 'closed' }, worker.token)).items.map((f) => f.id)).not.toContain(created.id);

    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'fault')
      .where('entity_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);

    const del = await t.http.delete(`/api/faults/${created.id}`, { token: worker.token });
    expect(del.statusCode).toBe(204);
    expect((await t.http.get(`/api/faults/${created.id}`, { token: worker.token })).statusCode).toBe(404);
    const deleted = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'fault')
      .where('entity_id', '=', created.id)
      .where('action', '=', 'delete')
      .execute();
    expect(deleted).toHaveLength(1);
  });

  it("carries the plant's time zone on every fault answer, so that the web shows the plant's clock", async () => {
    const skopje = await save(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'Faults Skopje Plant',
      time_zone: 'Europe/Skopje',
    });
    const there = await save<FaultDetail>(t, worker.token, '/api/faults/0', {
      ...body({ plant_id: skopje.id, device_id: null, tag_id: null }),
    });
    const here = await save<FaultDetail>(t, worker.token, '/api/faults/0', body());
    expect(there.plant_time_zone).toBe('Europe/Skopje');
    expect(here.plant_time_zone).toBe('Europe/Istanbul');
    expect((await get(there.id, worker.token)).plant_time_zone).toBe('Europe/Skopje');
    const listed = (await list({ pageSize: '200' }, worker.token)).items;
    expect(listed.find((f) => f.id === there.id)?.plant_time_zone).toBe('Europe/Skopje');
    expect(listed.find((f) => f.id === here.id)?.plant_time_zone).toBe('Europe/Istanbul');
    for (const id of [there.id, here.id])
      expect((await t.http.delete(`/api/faults/${id}`, { token: worker.token })).statusCode).toBe(204);
  });

  it('answers 400 with field keys for invalid bodies', async () => {
    const res = await t.http.post(
      '/api/faults/0',
      { plant_id: 0, title: '  ', priority_id: 7 },
      {
        token: worker.token,
      },
    );
    expect(res.statusCode).toBe(400);
    const errors = res.json<{ errors: Record<string, string[]> }>().errors;
    expect(errors).toMatchObject({
      plant_id: ['validation.required'],
      title: ['validation.required'],
      priority_id: ['validation.outOfRange'],
    });

    const bad = async (extra: Record<string, unknown>) => {
      const r = await t.http.post('/api/faults/0', body(extra), { token: worker.token });
      expect(r.statusCode, r.body).toBe(400);
      return r.json<{ errors: Record<string, string[]> }>().errors;
    };
    expect(await bad({ status: 'done' })).toEqual({ status: ['validation.invalidValue'] });
    // A device of another plant, a signal without its device, a user of another company.
    expect(await bad({ device_id: other.deviceId, tag_id: null })).toEqual({
      device_id: ['validation.invalidValue'],
    });
    expect(await bad({ device_id: null })).toEqual({ tag_id: ['validation.invalidValue'] });
    expect(await bad({ assignee_user_id: outsider.id })).toEqual({
      assignee_user_id: ['validation.invalidValue'],
    });
    expect(await bad({ status: 'resolved' })).toEqual({ resolution: ['validation.required'] });
    expect(await bad({ title: 'x'.repeat(201) })).toEqual({ title: ['validation.tooLong'] });

    const query = await t.http.get('/api/faults', {
      token: worker.token,
      query: { status: 'x', from: 'soon' },
    });
    expect(query.statusCode).toBe(400);
    expect(Object.keys(query.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'from',
      'status',
    ]);
  });

  it('keeps companies apart: another company answers 404 and cannot create on its plants', async () => {
    const mine = await save<Fault>(t, worker.token, '/api/faults/0', body({ title: 'Company 1 fault' }));
    for (const res of [
      await t.http.get(`/api/faults/${mine.id}`, { token: outsider.token }),
      await t.http.post(`/api/faults/${mine.id}`, body(), { token: outsider.token }),
      await t.http.post(`/api/faults/${mine.id}/comments`, { body: 'hi' }, { token: outsider.token }),
      await t.http.delete(`/api/faults/${mine.id}`, { token: outsider.token }),
      await t.http.post('/api/faults/0', body(), { token: outsider.token }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }
    expect((await list({}, outsider.token)).items.map((f) => f.id)).not.toContain(mine.id);
    expect((await list({}, worker.token)).items.map((f) => f.id)).toContain(mine.id);
    // A user narrowed to another plant of the own company does not see it either.
    const narrowed = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['fault']),
      units: [{ unit_type: 'plant', unit_id: 999_999 }],
    });
    expect((await t.http.get(`/api/faults/${mine.id}`, { token: narrowed.token })).statusCode).toBe(404);
    // View only: reading works, writing is forbidden.
    expect((await t.http.get(`/api/faults/${mine.id}`, { token: viewer.token })).statusCode).toBe(200);
    expect((await t.http.post(`/api/faults/${mine.id}`, body(), { token: viewer.token })).statusCode).toBe(
      403,
    );
    expect((await t.http.delete(`/api/faults/${mine.id}`, { token: viewer.token })).statusCode).toBe(403);
  });

  it('follows the status workflow and computes the time to acknowledge and repair', async () => {
    const realNow = () => Date.now();
    const t0 = Date.UTC(2026, 5, 1, 10, 0, 0);
    try {
      t.ctx.now = () => t0;
      const fault = await save<FaultDetail>(t, worker.token, '/api/faults/0', body({ title: 'Workflow' }));
      const put = (extra: Record<string, unknown>) =>
        t.http.post(`/api/faults/${fault.id}`, body({ title: 'Workflow', ...extra }), {
          token: worker.token,
        });

      // Assignment acknowledges after 90 s.
      t.ctx.now = () => t0 + 90_000;
      let res = await put({ assignee_user_id: worker.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Fault>()).toMatchObject({
        status: 'open',
        time_to_acknowledge_s: 90,
        assignee_user_id: worker.id,
      });

      t.ctx.now = () => t0 + 120_000;
      res = await put({ assignee_user_id: worker.id, status: 'in_progress' });
      // The first acknowledgement counts.
      expect(res.json<Fault>()).toMatchObject({
        status: 'in_progress',
        time_to_acknowledge_s: 90,
        time_to_repair_s: null,
      });

      t.ctx.now = () => t0 + 3_600_000;
      res = await put({
        assignee_user_id: worker.id,
        status: 'resolved',
        resolution: 'Replaced the DC fuse',
        root_cause: 'Fuse',
      });
      expect(res.json<Fault>()).toMatchObject({ status: 'resolved', time_to_repair_s: 3600 });

      t.ctx.now = () => t0 + 7_200_000;
      res = await put({ assignee_user_id: worker.id, status: 'closed', resolution: 'Replaced the DC fuse' });
      const closed = res.json<Fault>();
      expect(closed).toMatchObject({
        status: 'closed',
        time_to_repair_s: 3600,
        closed_at: new Date(t0 + 7_200_000).toISOString(),
      });

      // Closed is final: no other status, no edits, only reopening.
      for (const status of ['resolved', 'in_progress', 'closed']) {
        const refused = await put({ status, resolution: 'x', title: 'Changed' });
        expect(refused.statusCode, status).toBe(409);
        expect(refused.json()).toMatchObject({
          detail: 'errors.faultTransition',
          errors: { status: ['errors.faultTransition'] },
        });
      }
      t.ctx.now = () => t0 + 8_000_000;
      res = await put({ status: 'open' });
      expect(res.json<Fault>()).toMatchObject({
        status: 'open',
        closed_at: null,
        resolved_at: null,
        time_to_repair_s: null,
        time_to_acknowledge_s: 90,
      });

      const detail = await get(fault.id);
      expect(detail.history.map((h) => [h.from_status, h.to_status])).toEqual([
        [null, 'open'],
        ['open', 'in_progress'],
        ['in_progress', 'resolved'],
        ['resolved', 'closed'],
        ['closed', 'open'],
      ]);
      expect(detail.history[1]).toMatchObject({
        user_id: worker.id,
        at: new Date(t0 + 120_000).toISOString(),
      });

      // Moving out of open without assignment acknowledges too.
      t.ctx.now = () => t0;
      const direct = await save<Fault>(t, worker.token, '/api/faults/0', body({ title: 'Direct' }));
      t.ctx.now = () => t0 + 30_000;
      const moved = await save<Fault>(
        t,
        worker.token,
        `/api/faults/${direct.id}`,
        body({ title: 'Direct', status: 'in_progress' }),
      );
      expect(moved.time_to_acknowledge_s).toBe(30);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('adds comments, oldest first, with their authors', async () => {
    const fault = await save<Fault>(t, worker.token, '/api/faults/0', body({ title: 'Commented' }));
    const first = await t.http.post(
      `/api/faults/${fault.id}/comments`,
      { body: 'Ekip yola çıktı' },
      { token: worker.token },
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<FaultComment>()).toMatchObject({
      fault_id: fault.id,
      user_id: worker.id,
      body: 'Ekip yola çıktı',
    });
    await t.http.post(
      `/api/faults/${fault.id}/comments`,
      { body: 'Sigorta değişti' },
      { token: admin.token },
    );
    const empty = await t.http.post(
      `/api/faults/${fault.id}/comments`,
      { body: ' ' },
      { token: worker.token },
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ errors: { body: ['validation.required'] } });
    const viewerComment = await t.http.post(
      `/api/faults/${fault.id}/comments`,
      { body: 'x' },
      { token: viewer.token },
    );
    expect(viewerComment.statusCode).toBe(403);
    const detail = await get(fault.id, worker.token);
    expect(detail.comments.map((c) => [c.body, c.user_id])).toEqual([
      ['Ekip yola çıktı', worker.id],
      ['Sigorta değişti', admin.id],
    ]);
  });

  it('makes exactly one fault per alarm (createFaultFromAlarm), inside or outside a transaction', async () => {
    const startedAt = Date.UTC(2026, 5, 2, 8, 0, 0);
    const alarm = {
      id: 424_242,
      plant_id: tree.plantId,
      device_id: tree.deviceId,
      tag_id: tree.signalId,
      priority_id: 4,
      message: 'Insulation resistance low',
      started_at: startedAt,
    };
    const { fault_id } = await createFaultFromAlarm(t.ctx, { userId: worker.id, ip: null }, alarm);
    const detail = await get(fault_id, worker.token);
    expect(detail).toMatchObject({
      alarm_id: 424_242,
      title: 'Insulation resistance low',
      priority_id: 4,
      status: 'open',
      device_id: tree.deviceId,
      detected_at: new Date(startedAt).toISOString(),
      history: [{ from_status: null, to_status: 'open' }],
    });
    expect((await list({ alarm_id: '424242' }, worker.token)).items.map((f) => f.id)).toEqual([fault_id]);

    const again = await createFaultFromAlarm(t.ctx, { userId: worker.id }, alarm).catch((e: unknown) => e);
    expect(isFaultExistsError(again)).toBe(true);
    expect(again).toMatchObject({ status: 409, detail: 'errors.faultExists' });

    // Inside the caller's transaction: a rollback takes the fault with it.
    const second = { ...alarm, id: 424_243 };
    await t.ctx.db
      .transaction()
      .execute(async (trx) => {
        await createFaultFromAlarm(t.ctx, { userId: null }, second, trx);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect((await list({ alarm_id: '424243' })).total).toBe(0);
    const committed = await t.ctx.db
      .transaction()
      .execute((trx) => createFaultFromAlarm(t.ctx, { userId: null }, second, trx));
    expect((await get(committed.fault_id)).created_by).toBeNull();
    const inside = await t.ctx.db
      .transaction()
      .execute((trx) => createFaultFromAlarm(t.ctx, { userId: null }, second, trx))
      .catch((e: unknown) => e);
    expect(isFaultExistsError(inside)).toBe(true);
  });
  /** A fault made from an alarm by the system: its stored title is Turkish, its code renders per reader. */
  const codedFault = async (alarmId: number, message: string, params: Record<string, number> = {}) => {
    const { fault_id } = await createFaultFromAlarm(
      t.ctx,
      { userId: null },
      {
        id: alarmId,
        plant_id: tree.plantId,
        device_id: tree.deviceId,
        tag_id: tree.signalId,
        priority_id: 3,
        message,
        message_params: params,
        subject: 'Faults INV-01',
        started_at: Date.UTC(2026, 5, 3, 9, 0, 0),
      },
    );
    return get(fault_id, worker.token);
  };

  it("keeps a coded title saved back in any reader's language; a typed title replaces the code", async () => {
    const fault = await codedFault(525_001, 'alarms.msg.inverterFault', { code: 7 });
    expect(fault).toMatchObject({
      title: 'Faults INV-01: İnverter arıza durumunda (durum kodu 7)',
      description: 'Faults INV-01: İnverter arıza durumunda (durum kodu 7)',
      title_code: 'alarms.msg.inverterFault',
    });
    const edit = (title: string, description: string | null, priority_id = 2) =>
      save<FaultDetail>(t, worker.token, `/api/faults/${fault.id}`, {
        plant_id: fault.plant_id,
        device_id: fault.device_id,
        tag_id: fault.tag_id,
        title,
        description,
        priority_id,
        status: fault.status,
      });
    // What the edit form shows an English, German or Macedonian reader, sent back with another change.
    for (const shown of [
      'Faults INV-01: Inverter in fault state (status code 7)',
      'Faults INV-01: Wechselrichter im Fehlerzustand (Statuscode 7)',
      'Faults INV-01: Инверторот е во дефект (статусен код 7)',
    ]) {
      const saved = await edit(shown, shown, 4);
      expect(saved, shown).toMatchObject({
        title: fault.title,
        description: fault.description,
        title_code: 'alarms.msg.inverterFault',
        title_params: { code: 7 },
        priority_id: 4,
      });
    }
    // A description a person wrote is theirs even when the title stays the alarm's message.
    expect(
      await edit('Faults INV-01: Inverter in fault state (status code 7)', 'Fuse replaced, watch it'),
    ).toMatchObject({ title_code: 'alarms.msg.inverterFault', description: 'Fuse replaced, watch it' });
    // Another status code is not the message any reader saw: the person's text replaces the code.
    expect(await edit('Faults INV-01: Inverter in fault state (status code 8)', null)).toMatchObject({
      title: 'Faults INV-01: Inverter in fault state (status code 8)',
      title_code: null,
      title_params: null,
    });
    // Once the title is typed nothing renders the message any more: the description the person saw (here
    // in English) is stored as it was shown, not left as the Turkish text of the approval.
    const other = await codedFault(525_004, 'alarms.msg.inverterFault', { code: 3 });
    const english = 'Faults INV-01: Inverter in fault state (status code 3)';
    const retitled = await save<FaultDetail>(t, worker.token, `/api/faults/${other.id}`, {
      plant_id: other.plant_id,
      device_id: other.device_id,
      tag_id: other.tag_id,
      title: 'Inverter 3 keeps tripping',
      description: english,
      priority_id: other.priority_id,
      status: other.status,
    });
    expect(retitled).toMatchObject({
      title: 'Inverter 3 keeps tripping',
      title_code: null,
      description: english,
    });
  });

  it('finds a coded fault by the words of its message in every language, not only the stored text', async () => {
    const coded = await codedFault(525_002, 'alarms.msg.inverterFault', { code: 9 });
    const commLoss = await codedFault(525_003, 'alarms.msg.commLoss');
    const typed = await save<FaultDetail>(t, worker.token, '/api/faults/0', body({ title: 'Panel kırık' }));
    const ids = async (q: string) =>
      (await list({ q, pageSize: '100' }, worker.token)).items.map((f) => f.id);
    for (const q of ['Inverter in fault', 'inverter', 'wechselrichter', 'ИНВЕРТОРОТ', 'inverter arıza']) {
      const found = await ids(q);
      expect(found, q).toContain(coded.id);
      expect(found, q).not.toContain(commLoss.id);
    }
    expect(await ids('Communication with the device')).toEqual([commLoss.id]);
    expect(await ids('Kommunikation')).toEqual([commLoss.id]);
    // Parameters are found through the stored text; a search no message holds finds only typed texts.
    expect(await ids('durum kodu 9')).toEqual([coded.id]);
    expect(await ids('panel')).toEqual([typed.id]);
    expect(await ids('Zzz no such words')).toEqual([]);
    // Filters still apply beside the message search.
    expect(
      (await list({ q: 'Wechselrichter', status: 'closed' }, worker.token)).items.map((f) => f.id),
    ).not.toContain(coded.id);
    // Another company's coded fault stays out of reach, however its message reads.
    expect((await list({ q: 'Wechselrichter' }, outsider.token)).items).toEqual([]);
  });
});
