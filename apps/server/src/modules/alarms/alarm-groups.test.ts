import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveAlarmCounts, AlarmRecord, FaultDetail } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import type { AlarmEngine } from './engine/alarm-engine';
import { ALARM_GROUP_WINDOW_MS } from './engine/alarm-grouping';

/**
 * Alarms of one event (docs/architecture.md, "Alarm groups"), over HTTP: the grid goes at the plant's
 * meter and an inverter trips; the inverter's alarm follows the meter's, and one fault covers both.
 */
describe(`alarm groups (${dialectUnderTest})`, () => {
  let t: TestApp;
  let engine: AlarmEngine;
  let admin: TestUser;
  let operator: TestUser;
  let outsider: TestUser;
  let tree: Tree;
  const signals = { grid: 0, status: 0, events: 0, lateStatus: 0 };

  const ingest = async (points: { signal_id: number; ts: number; value: number }[]) => {
    const res = await t.http.post('/api/telemetry', { points }, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    await engine.idle();
  };
  const alarmsOf = async (token: string) => {
    const res = await t.http.get('/api/alarms', { token, query: { plant_id: String(tree.plantId) } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AlarmRecord[]>();
  };
  const byMessage = (list: AlarmRecord[], message: string, deviceId: number) =>
    list.find((a) => a.message === message && a.device_id === deviceId)!;

  beforeAll(async () => {
    t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
    engine = t.ctx.alarmEngine;
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Group');
    const other = await makeTree(t, admin.token, 'Elsewhere');
    const perms = [...pairs(['alarm']), ...pairs(['report']), ...pairs(['fault'])];
    operator = await makeUser(t, { companyId: tree.companyId, permissions: perms });
    outsider = await makeUser(t, { companyId: other.companyId, permissions: perms });
    // The plant's revenue meter at the connection point: the one top-level meter, so the single-line
    // diagram hangs the tree's inverter under it. A second inverter, under the first's transformer-less
    // top level too, trips later.
    const meter = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Group Meter',
      type: 'meter',
      protocol: 'http',
    });
    const late = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Group INV-02',
      type: 'inverter',
      protocol: 'http',
    });
    const signal = async (deviceId: number, key: string) =>
      (await save(t, admin.token, '/api/signals/0', { device_id: deviceId, key, name: key })).id;
    signals.grid = await signal(meter.id, 'grid_available');
    signals.status = await signal(tree.deviceId, 'status_code');
    signals.events = await signal(tree.deviceId, 'event_bits');
    signals.lateStatus = await signal(late.id, 'status_code');
    await engine.reloadRules();
  });
  afterAll(async () => {
    await t.close();
  });

  it('the grid outage at the meter is the cause, the inverter fault within the window its consequence; one fault covers both', async () => {
    const t0 = Date.now() - 10 * 60_000;
    await ingest([
      { signal_id: signals.grid, ts: t0, value: 1 },
      { signal_id: signals.status, ts: t0, value: 4 },
      { signal_id: signals.lateStatus, ts: t0, value: 4 },
      // The grid goes; 30 s later the inverter reports a fault (SunSpec St 7).
      { signal_id: signals.grid, ts: t0 + 1_000, value: 0 },
      { signal_id: signals.status, ts: t0 + 31_000, value: 7 },
      // The other inverter trips too, but past the window: an alarm of its own.
      { signal_id: signals.lateStatus, ts: t0 + 1_000 + ALARM_GROUP_WINDOW_MS + 1_000, value: 7 },
    ]);
    let list = await alarmsOf(operator.token);
    const outage = byMessage(
      list,
      'alarms.msg.gridOutage',
      list.find((a) => a.device_type === 'meter')!.device_id!,
    );
    const trip = byMessage(list, 'alarms.msg.inverterFault', tree.deviceId);
    const alone = list.find(
      (a) => a.message === 'alarms.msg.inverterFault' && a.device_id !== tree.deviceId,
    )!;
    expect(outage).toMatchObject({
      cause_alarm_id: null,
      consequence_count: 1,
      status_id: 1,
      priority_id: 3,
    });
    expect(trip).toMatchObject({ cause_alarm_id: outage.id, consequence_count: 0, status_id: 1 });
    expect(alone).toMatchObject({ cause_alarm_id: null, consequence_count: 0 });
    // The active count stays a count of alarms, not of events.
    const counts = (
      await t.http.get('/api/alarms/activeCounts', { token: operator.token })
    ).json<ActiveAlarmCounts>();
    expect(counts.total).toBe(3);

    // Approving the cause opens one fault and approves the consequence into it, each audited.
    const res = await t.http.post(`/api/alarms/${outage.id}/fault`, {}, { token: operator.token });
    expect(res.statusCode, res.body).toBe(200);
    const faultId = res.json<{ fault_id: number }>().fault_id;
    list = await alarmsOf(operator.token);
    expect(list.find((a) => a.id === outage.id)).toMatchObject({ status_id: 2, fault_id: faultId });
    expect(list.find((a) => a.id === trip.id)).toMatchObject({
      status_id: 2,
      state: 'active_acknowledged',
      fault_id: faultId,
      approved_by: operator.id,
    });
    expect(list.find((a) => a.id === alone.id)).toMatchObject({ status_id: 1, fault_id: null });
    const faults = await t.ctx.db
      .selectFrom('faults')
      .select('id')
      .where('plant_id', '=', tree.plantId)
      .execute();
    expect(faults.map((f) => f.id)).toEqual([faultId]);
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['entity_id', 'action'])
      .where('entity', '=', 'alarm')
      .where('entity_id', 'in', [outage.id, trip.id, alone.id])
      .orderBy('entity_id')
      .execute();
    expect(audit).toEqual([
      { entity_id: outage.id, action: 'approve' },
      { entity_id: trip.id, action: 'approve' },
    ]);

    // A consequence raised after the cause was approved joins its fault when approved.
    await ingest([{ signal_id: signals.events, ts: t0 + 40_000, value: 2 ** 4 }]);
    list = await alarmsOf(operator.token);
    const disconnect = byMessage(list, 'alarms.msg.gridDisconnect', tree.deviceId);
    expect(disconnect).toMatchObject({ cause_alarm_id: outage.id, status_id: 1 });
    expect(list.find((a) => a.id === outage.id)?.consequence_count).toBe(2);
    const joined = await t.http.post(`/api/alarms/${disconnect.id}/fault`, {}, { token: operator.token });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json<{ fault_id: number }>().fault_id).toBe(faultId);

    // The fault names every alarm of the event, oldest first; another company sees none of it.
    const detail = await t.http.get(`/api/faults/${faultId}`, { token: operator.token });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json<FaultDetail>()).toMatchObject({
      alarm_id: outage.id,
      alarm_ids: [outage.id, trip.id, disconnect.id],
    });
    expect((await t.http.get(`/api/faults/${faultId}`, { token: outsider.token })).statusCode).toBe(404);
    expect(
      (await t.http.post(`/api/alarms/${trip.id}/fault`, {}, { token: outsider.token })).statusCode,
    ).toBe(404);
  });
});
