import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlarmEvent,
  AlarmListenAnswer,
  AlarmRecord,
  CustomAlarm,
  FaultDetail,
  Problem,
} from '@solar/shared';
import { scopeOf } from '../../lib/scope';
import { makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { openAlarmScene, type AlarmScene } from '../../test/alarm-fixtures';
import { dialectUnderTest, type TestApp } from '../../test/test-app';
import type { AlarmEngine } from './engine/alarm-engine';
import type { AlarmChange } from './engine/alarm-feed';
import { CHATTER_HOLD_MS, CHATTER_RAISES, CHATTER_WINDOW_MS } from './engine/chatter-guard';

describe(`alarms (${dialectUnderTest})`, () => {
  let scene: AlarmScene;
  let t: TestApp;
  let engine: AlarmEngine;
  let admin: TestUser;
  let operator: TestUser;
  let outsider: TestUser;
  let tree: Tree;
  let other: Tree;
  let ingest: AlarmScene['ingest'];
  let alarmsOf: AlarmScene['alarmsOf'];
  let addDevice: AlarmScene['addDevice'];
  let addSignal: AlarmScene['addSignal'];
  const changes: AlarmChange[] = [];

  const ruleBody = (over: Record<string, unknown> = {}) => ({
    name: 'Hot module',
    description: 'Module temperature too high',
    priority_id: 3,
    tag_id: tree.signalId,
    operant: '>',
    value: 70,
    started_at: null,
    end_at: null,
    is_active: true,
    ...over,
  });

  beforeAll(async () => {
    scene = await openAlarmScene({ tree: 'Alarm', other: 'Foreign' }, ['alarm', 'dashboard']);
    ({ t, engine, admin, operator, outsider, tree, other, ingest, alarmsOf, addDevice, addSignal } = scene);
    // The app's own engine (started by its background work) and feed.
    t.ctx.alarmFeed.onAlarmChange((c) => changes.push(c));
  });
  afterAll(async () => {
    await scene.close();
  });

  it('custom alarm CRUD with validation errors and scope', async () => {
    const bad = await t.http.post(
      '/api/alarms/custom/0',
      ruleBody({
        name: '',
        priority_id: 5,
        operant: '!=',
        value: 'x',
        started_at: '2026-11-02T00:00:00Z',
        end_at: '2026-11-01T00:00:00Z',
        on_delay_s: -1,
      }),
      { token: operator.token },
    );
    expect(bad.statusCode).toBe(400);
    const errors = bad.json<Problem>().errors!;
    expect(Object.keys(errors).sort()).toEqual(['name', 'on_delay_s', 'operant', 'priority_id', 'value']);
    const order = await t.http.post(
      '/api/alarms/custom/0',
      ruleBody({ started_at: '2026-11-02T00:00:00Z', end_at: '2026-11-01T00:00:00Z' }),
      { token: operator.token },
    );
    expect(order.statusCode).toBe(400);
    expect(order.json<Problem>().errors).toEqual({ end_at: ['validation.rangeOrder'] });
    // A number too large for a double arrives as Infinity: refused.
    const huge = JSON.stringify(ruleBody({ value: 'HUGE' })).replace('"HUGE"', '1e400');
    const overflow = await t.http.post('/api/alarms/custom/0', huge, {
      token: operator.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(overflow.statusCode).toBe(400);
    expect(overflow.json<Problem>().errors).toEqual({ value: ['validation.invalidNumber'] });
    // A signal of another company is not found.
    expect(
      (
        await t.http.post('/api/alarms/custom/0', ruleBody({ tag_id: other.signalId }), {
          token: operator.token,
        })
      ).statusCode,
    ).toBe(404);
    // Without the dashboard page: 403.
    const viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['alarm']) });
    expect((await t.http.post('/api/alarms/custom/0', ruleBody(), { token: viewer.token })).statusCode).toBe(
      403,
    );

    const created = await save<CustomAlarm>(
      t,
      operator.token,
      '/api/alarms/custom/0',
      ruleBody({ name: 'Temp' }),
    );
    expect(created).toMatchObject({
      name: 'Temp',
      operant: '>',
      value: 70,
      on_delay_s: 0,
      hysteresis: 0,
      is_active: true,
      // The signal's stored name and its key: the client names it in the reader's language.
      tag_name: 'AC Power',
      tag_key: 'ac_power',
      // The window is two instants; the plant's zone lets the client show and enter them on its clock.
      plant_time_zone: 'Europe/Istanbul',
    });
    const updated = await save<CustomAlarm>(
      t,
      operator.token,
      `/api/alarms/custom/${created.id}`,
      ruleBody({ name: 'Temp 2', is_active: false }),
    );
    expect(updated).toMatchObject({ id: created.id, name: 'Temp 2', is_active: false });
    const list = (await t.http.get('/api/alarms/custom', { token: operator.token })).json<CustomAlarm[]>();
    expect(list.map((r) => r.id)).toContain(created.id);
    expect((await t.http.get('/api/alarms/custom', { token: outsider.token })).json<CustomAlarm[]>()).toEqual(
      [],
    );
    expect((await t.http.get(`/api/alarms/custom/${created.id}`, { token: outsider.token })).statusCode).toBe(
      404,
    );
    expect(
      (await t.http.delete(`/api/alarms/custom/${created.id}`, { token: outsider.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.http.delete(`/api/alarms/custom/${created.id}`, { token: operator.token })).statusCode,
    ).toBe(204);
    expect((await t.http.get(`/api/alarms/custom/${created.id}`, { token: operator.token })).statusCode).toBe(
      404,
    );
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'custom_alarm')
      .where('entity_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it('a violating value ingested over HTTP raises one alarm, pushed and listed; it clears by itself', async () => {
    const rule = await save<CustomAlarm>(
      t,
      operator.token,
      '/api/alarms/custom/0',
      ruleBody({ hysteresis: 5 }),
    );
    const start = (
      await t.http.get('/api/alarms/listen', { token: operator.token })
    ).json<AlarmListenAnswer>();
    // An open SSE connection of the operator.
    const chunks: string[] = [];
    const hub = t.ctx.stream;
    const connection = hub.open(
      {
        userId: operator.id,
        scope: scopeOf({ isAdmin: false, companyId: tree.companyId, units: [] }),
        can: (page) => page === 'alarm',
        tokenIat: 0,
        tokenExp: Math.floor(Date.now() / 1000) + 3600,
      },
      { write: (c) => (chunks.push(c), true), onceDrain: () => undefined, end: () => undefined },
    );
    const t0 = Date.now() - 60_000;
    await ingest([
      { signal_id: tree.signalId, ts: t0, value: 50 },
      { signal_id: tree.signalId, ts: t0 + 1_000, value: 80 },
    ]);
    let alarms = (await alarmsOf(operator.token)).filter((a) => a.rule_id === rule.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      status_id: 1,
      status: 'active',
      source: 'custom',
      plant_id: tree.plantId,
      device_id: tree.deviceId,
      tag_id: tree.signalId,
      priority_id: 3,
      message: 'alarms.msg.custom',
      message_params: { name: 'Hot module', value: 80, threshold: 70, operant: '>' },
      started_at: new Date(t0 + 1_000).toISOString(),
      cleared_at: null,
    });
    const pushed = chunks.filter((c) => c.startsWith('event: alarm'));
    expect(pushed).toHaveLength(1);
    const event = JSON.parse(pushed[0]!.split('data: ')[1]!) as AlarmEvent;
    expect(event).toMatchObject({ kind: 'raised', alarm: { id: alarms[0]!.id } });
    const listen = (
      await t.http.get('/api/alarms/listen', {
        token: operator.token,
        query: { cursor: String(start.cursor) },
      })
    ).json<AlarmListenAnswer>();
    expect(listen.events.map((e) => [e.kind, e.alarm.id])).toEqual([['raised', alarms[0]!.id]]);
    expect(listen.cursor).toBe(event.id);
    // The outsider's listen sees nothing of it.
    const foreign = (
      await t.http.get('/api/alarms/listen', {
        token: outsider.token,
        query: { cursor: String(start.cursor) },
      })
    ).json<AlarmListenAnswer>();
    expect(foreign.events).toEqual([]);
    expect(changes.filter((c) => c.alarm.id === alarms[0]!.id).map((c) => c.kind)).toEqual(['raised']);

    // Persisting condition, and a value inside the hysteresis band: still one active alarm.
    await ingest([
      { signal_id: tree.signalId, ts: t0 + 2_000, value: 90 },
      { signal_id: tree.signalId, ts: t0 + 3_000, value: 67 },
      { signal_id: tree.signalId, ts: t0 + 4_000, value: 85 },
    ]);
    await engine.tick();
    alarms = (await alarmsOf(operator.token)).filter((a) => a.rule_id === rule.id);
    expect(alarms.map((a) => a.status_id)).toEqual([1]);

    // Clear: below the band.
    await ingest([{ signal_id: tree.signalId, ts: t0 + 5_000, value: 60 }]);
    alarms = (await alarmsOf(operator.token)).filter((a) => a.rule_id === rule.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      status_id: 4,
      status: 'cleared',
      cleared_at: new Date(t0 + 5_000).toISOString(),
    });
    const after = (
      await t.http.get('/api/alarms/listen', {
        token: operator.token,
        query: { cursor: String(listen.cursor) },
      })
    ).json<AlarmListenAnswer>();
    expect(after.events.map((e) => e.kind)).toEqual(['cleared']);

    // Re-raise: a new alarm for the same condition.
    await ingest([{ signal_id: tree.signalId, ts: t0 + 6_000, value: 75 }]);
    alarms = (await alarmsOf(operator.token)).filter((a) => a.rule_id === rule.id);
    expect(alarms.map((a) => a.status_id)).toEqual([1, 4]);
    // Deleting the rule clears its active alarm.
    expect((await t.http.delete(`/api/alarms/custom/${rule.id}`, { token: operator.token })).statusCode).toBe(
      204,
    );
    await engine.idle();
    const rows = await t.ctx.db
      .selectFrom('alarms')
      .select('status_id')
      .where('condition_key', '=', `rule:${rule.id}`)
      .execute();
    expect(rows.map((r) => Number(r.status_id)).sort()).toEqual([4, 4]);
    hub.close(connection);
  });

  it('filters and pages server-side; a plant of another company is 404', async () => {
    const all = await alarmsOf(operator.token);
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((a) => a.company_id === tree.companyId)).toBe(true);
    const sorted = [...all].sort((a, b) => b.started_at.localeCompare(a.started_at) || b.id - a.id);
    expect(all.map((a) => a.id)).toEqual(sorted.map((a) => a.id));
    expect((await alarmsOf(operator.token, { status_id: '4' })).every((a) => a.status_id === 4)).toBe(true);
    const page = (
      await t.http.get('/api/alarms', { token: operator.token, query: { page: '1', pageSize: '1' } })
    ).json<{ items: AlarmRecord[]; total: number }>();
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(all.length);
    expect(
      (await t.http.get('/api/alarms', { token: operator.token, query: { status_id: '9' } })).statusCode,
    ).toBe(400);
    expect(
      (await t.http.get(`/api/alarms/${tree.plantId}/plant`, { token: operator.token })).json<
        AlarmRecord[]
      >(),
    ).toHaveLength(all.length);
    expect(
      (await t.http.get(`/api/alarms/${tree.plantId}/plant`, { token: outsider.token })).statusCode,
    ).toBe(404);
    expect(await alarmsOf(outsider.token)).toEqual([]);
  });

  it("carries the plant's time zone on every alarm answer, so that the web shows the plant's clock", async () => {
    // Another zone than the tree's Istanbul: the answer follows the plant, not a constant.
    const skopje = await save(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'Alarm Skopje Plant',
      time_zone: 'Europe/Skopje',
    });
    const device = await addDevice(skopje.id, 'Skopje INV-01', 'inverter');
    const signal = await addSignal(device, 'ac_power', { name: 'AC Power', unit: 'kW' });
    const start = (
      await t.http.get('/api/alarms/listen', { token: operator.token })
    ).json<AlarmListenAnswer>();
    await save<CustomAlarm>(t, operator.token, '/api/alarms/custom/0', ruleBody({ tag_id: signal }));
    const t0 = Date.now() - 30_000;
    await ingest([
      { signal_id: signal, ts: t0, value: 50 },
      { signal_id: signal, ts: t0 + 1_000, value: 80 },
    ]);
    const all = await alarmsOf(operator.token);
    const raised = all.find((a) => a.plant_id === skopje.id)!;
    expect(raised).toMatchObject({ plant_time_zone: 'Europe/Skopje' });
    expect(all.filter((a) => a.plant_id === tree.plantId).map((a) => a.plant_time_zone)).toContain(
      'Europe/Istanbul',
    );
    const ofPlant = (await t.http.get(`/api/alarms/${skopje.id}/plant`, { token: operator.token })).json<
      AlarmRecord[]
    >();
    expect(ofPlant.map((a) => a.plant_time_zone)).toEqual(['Europe/Skopje']);
    const listen = (
      await t.http.get('/api/alarms/listen', {
        token: operator.token,
        query: { cursor: String(start.cursor) },
      })
    ).json<AlarmListenAnswer>();
    expect(listen.events.find((e) => e.alarm.id === raised.id)?.alarm.plant_time_zone).toBe('Europe/Skopje');
  });

  it('raises a device fault alarm from SunSpec status code 7 and clears it on another code', async () => {
    const st = await addSignal(tree.deviceId, 'status_code', { name: 'Status' });
    await engine.reloadRules();
    const ts = Date.now() - 30_000;
    await ingest([
      { signal_id: st, ts, value: 4 },
      { signal_id: st, ts: ts + 1_000, value: 7 },
      { signal_id: st, ts: ts + 2_000, value: 7 },
    ]);
    let mine = (await alarmsOf(operator.token)).filter((a) => a.source === 'device_status');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      message: 'alarms.msg.inverterFault',
      message_params: { code: 7 },
      status_id: 1,
    });
    await ingest([{ signal_id: st, ts: ts + 3_000, value: 4 }]);
    mine = (await alarmsOf(operator.token)).filter((a) => a.source === 'device_status');
    expect(mine.map((a) => a.status_id)).toEqual([4]);
  });

  it('a chattering event register raises a few alarms and holds the last one until it stays normal', async () => {
    const device = await addDevice(tree.plantId, 'INV-chatter', 'inverter');
    const evt = await addSignal(device, 'event_bits', { name: 'Events' });
    await engine.reloadRules();
    const chatterOf = async () =>
      (await alarmsOf(admin.token, { device_id: String(device) }))
        .filter((a) => a.source === 'device_status')
        .sort((a, b) => a.id - b.id);
    // Bit 2 (AC disconnect) set every other second for two minutes: 60 raises and 60 clears unguarded.
    const start = Date.now() - 10 * 60_000;
    await ingest(
      Array.from({ length: 120 }, (_, i) => ({
        signal_id: evt,
        ts: start + i * 1_000,
        value: i % 2 ? 0 : 4,
      })),
    );
    let mine = await chatterOf();
    expect(mine).toHaveLength(CHATTER_RAISES);
    expect(mine.map((a) => a.status_id)).toEqual([4, 4, 1]);
    // Normal since the burst's last point: for less than the hold still active, past it cleared.
    const quiet = start + 119_000;
    await ingest([{ signal_id: evt, ts: quiet + CHATTER_HOLD_MS - 1_000, value: 0 }]);
    expect((await chatterOf()).map((a) => a.status_id)).toEqual([4, 4, 1]);
    await ingest([{ signal_id: evt, ts: quiet + CHATTER_HOLD_MS + 1_000, value: 0 }]);
    mine = await chatterOf();
    expect(mine.map((a) => a.status_id)).toEqual([4, 4, 4]);
    // Quiet again for longer than the window: the next fault raises and clears at once, as any alarm does.
    const later = quiet + CHATTER_HOLD_MS + CHATTER_WINDOW_MS + 5_000;
    await ingest([
      { signal_id: evt, ts: later, value: 4 },
      { signal_id: evt, ts: later + 1_000, value: 0 },
    ]);
    expect((await chatterOf()).map((a) => a.status_id)).toEqual([4, 4, 4, 4]);
  });

  it('substation alarms: active alarms of transformers, relays and meters only, never cached', async () => {
    const trafo = await addDevice(tree.plantId, 'TR-1', 'transformer');
    const oil = await addSignal(trafo, 'oil_temp', { name: 'Oil', unit: '°C' });
    await save(
      t,
      operator.token,
      '/api/alarms/custom/0',
      ruleBody({ tag_id: oil, operant: '>=', value: 90 }),
    );
    const ts = Date.now() - 10_000;
    await ingest([{ signal_id: oil, ts, value: 95 }]);
    const res = await t.http.get('/api/alarms/substationAlarms', { token: operator.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = res.json<AlarmRecord[]>();
    expect(list.map((a) => [a.device_id, a.device_type, a.status_id])).toEqual([[trafo, 'transformer', 1]]);
    expect((await t.http.get('/api/alarms/substationAlarms', { token: outsider.token })).json()).toEqual([]);
  });

  it('scope isolation: another company cannot approve or reject; reject answers 409 once decided', async () => {
    const [active] = await alarmsOf(operator.token, { status_id: '1' });
    expect(active).toBeDefined();
    expect(
      (await t.http.post(`/api/alarms/${active!.id}/fault`, {}, { token: outsider.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.http.post(`/api/alarms/${active!.id}/reject`, {}, { token: outsider.token })).statusCode,
    ).toBe(404);
    const viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['alarm'], ['view']) });
    expect(
      (await t.http.post(`/api/alarms/${active!.id}/reject`, {}, { token: viewer.token })).statusCode,
    ).toBe(403);
    const rejected = await t.http.post(`/api/alarms/${active!.id}/reject`, {}, { token: operator.token });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json<AlarmRecord>()).toMatchObject({
      status_id: 3,
      rejected_by: operator.id,
      fault_id: null,
    });
    expect(
      (await t.http.post(`/api/alarms/${active!.id}/reject`, {}, { token: operator.token })).statusCode,
    ).toBe(409);
    expect(
      (await t.http.post(`/api/alarms/${active!.id}/fault`, {}, { token: operator.token })).statusCode,
    ).toBe(409);
    expect(
      (await t.http.post('/api/alarms/2000000000/fault', {}, { token: operator.token })).statusCode,
    ).toBe(404);
  });

  it('approve converts a (cleared) alarm to a fault exactly once; a second approve answers 409', async () => {
    const [cleared] = await alarmsOf(operator.token, { status_id: '4' });
    expect(cleared).toBeDefined();
    const first = await t.http.post(`/api/alarms/${cleared!.id}/fault`, {}, { token: operator.token });
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json<{ alarm: AlarmRecord; fault_id: number }>();
    expect(answer.alarm).toMatchObject({ status_id: 2, approved_by: operator.id, fault_id: answer.fault_id });
    const second = await t.http.post(`/api/alarms/${cleared!.id}/fault`, {}, { token: operator.token });
    expect(second.statusCode).toBe(409);
    expect(second.json<Problem>().detail).toBe('errors.alarmDecided');
    const faults = await t.ctx.db
      .selectFrom('faults')
      .selectAll()
      .where('alarm_id', '=', cleared!.id)
      .execute();
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({
      id: answer.fault_id,
      plant_id: tree.plantId,
      priority_id: cleared!.priority_id,
    });
    expect(Number(faults[0]!.detected_at)).toBe(Date.parse(cleared!.started_at));
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'alarm')
      .where('entity_id', '=', cleared!.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['approve']);
    expect(changes.filter((c) => c.alarm.id === cleared!.id).map((c) => c.kind)).toContain('approved');
  });

  it('a fault made from an engine alarm keeps its message code and parameters; an edited title drops them', async () => {
    const device = await addDevice(tree.plantId, 'INV-coded', 'inverter');
    const st = await addSignal(device, 'status_code', { name: 'Status' });
    await engine.reloadRules();
    await ingest([{ signal_id: st, ts: Date.now() - 5_000, value: 7 }]);
    const [raised] = (await alarmsOf(admin.token, { device_id: String(device) })).filter(
      (a) => a.source === 'device_status',
    );
    expect(raised).toMatchObject({ message: 'alarms.msg.inverterFault', message_params: { code: 7 } });
    const approved = await t.http.post(`/api/alarms/${raised!.id}/fault`, {}, { token: operator.token });
    expect(approved.statusCode, approved.body).toBe(200);
    const { fault_id } = approved.json<{ fault_id: number }>();
    const read = async () => {
      const res = await t.http.get(`/api/faults/${fault_id}`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<FaultDetail>();
    };
    const fault = await read();
    // The stored text is the approver's language (Turkish here); the code lets every reader have their own.
    expect(fault).toMatchObject({
      title: 'INV-coded: İnverter arıza durumunda (durum kodu 7)',
      title_code: 'alarms.msg.inverterFault',
      title_params: { code: 7 },
    });
    const edit = (title: string) =>
      save<FaultDetail>(t, admin.token, `/api/faults/${fault_id}`, {
        plant_id: fault.plant_id,
        device_id: fault.device_id,
        tag_id: fault.tag_id,
        title,
        description: fault.description,
        priority_id: fault.priority_id,
        status: fault.status,
      });
    // Saved with the same title (another field changed): still the alarm's message.
    expect(await edit(fault.title)).toMatchObject({ title_code: 'alarms.msg.inverterFault' });
    // A title a person wrote is their text, shown as written.
    expect(await edit('Inverter 7 tripped again')).toMatchObject({
      title: 'Inverter 7 tripped again',
      title_code: null,
      title_params: null,
    });
  });
});
