/**
 * One count of active alarms over HTTP: the header badge (GET alarms/activeCounts), the plants list and map
 * (GET plants/overview), the plant's device statuses, the dashboard's list (GET alarms?active=true) and
 * /alarms (the plain list, by state) count the same alarms at the same moment, and acknowledging an alarm
 * whose condition still holds (ISA-18.2 active-acknowledged) leaves it in every one of them until it clears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ActiveAlarmCounts,
  AlarmRecord,
  CustomAlarm,
  Fault,
  PlantDeviceStatusAnswer,
  PlantsOverviewAnswer,
} from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`active alarms, one count (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let operator: TestUser;
  let outsider: TestUser;
  let tree: Tree;
  let other: Tree;
  const rules: CustomAlarm[] = [];

  const ingest = async (signalId: number, ts: number, value: number) => {
    const res = await t.http.post(
      '/api/telemetry',
      { points: [{ signal_id: signalId, ts, value }] },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    await t.ctx.alarmEngine.idle();
  };
  const get = async <T>(token: string, path: string, query: Record<string, string> = {}) => {
    const res = await t.http.get(path, { token, query });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json<T>();
  };

  /** Every figure of active alarms the pages show, for the operator's scope and the tree's plant. */
  const figures = async (token: string, plantId: number) => {
    const badge = await get<ActiveAlarmCounts>(token, '/api/alarms/activeCounts');
    const overview = await get<PlantsOverviewAnswer>(token, '/api/plants/overview');
    const plant = overview.items.find((p) => p.plant_id === plantId);
    const devices = await get<PlantDeviceStatusAnswer>(token, `/api/plants/${plantId}/devices/status`);
    const dashboard = await get<{ items: AlarmRecord[]; total: number }>(token, '/api/alarms', {
      active: 'true',
      page: '1',
    });
    const list = await get<AlarmRecord[]>(token, '/api/alarms');
    return {
      badge,
      fleetTotal: overview.items.reduce((n, p) => n + p.active_alarms.total, 0),
      plant: plant?.active_alarms,
      devicesTotal: devices.items.reduce((n, d) => n + d.active_alarms.total, 0),
      dashboardTotal: dashboard.total,
      alarmsPageActive: list.filter((a) => a.state.startsWith('active_')).length,
    };
  };

  beforeAll(async () => {
    t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Count');
    other = await makeTree(t, admin.token, 'Elsewhere');
    const perms = [
      ...pairs(['alarm']),
      ...pairs(['dashboard']),
      ...pairs(['plant'], ['view']),
      ...pairs(['fault'], ['view']),
    ];
    operator = await makeUser(t, { companyId: tree.companyId, permissions: perms });
    outsider = await makeUser(t, { companyId: other.companyId, permissions: perms });
    // Two high alarms and a low one on the operator's plant, one high on another company's.
    for (const [tagId, value, priority] of [
      [tree.signalId, 70, 3],
      [tree.signalId, 60, 3],
      [tree.signalId, 50, 1],
      [other.signalId, 70, 3],
    ] as const)
      rules.push(
        await save<CustomAlarm>(t, admin.token, '/api/alarms/custom/0', {
          name: `Over ${value}`,
          priority_id: priority,
          tag_id: tagId,
          operant: '>',
          value,
          started_at: null,
          end_at: null,
          is_active: true,
        }),
      );
  });
  afterAll(async () => {
    await t.close();
  });

  it('every endpoint counts the same active alarms, and acknowledging does not end an alarm', async () => {
    const t0 = Date.now() - 120_000;
    await ingest(tree.signalId, t0, 80);
    await ingest(other.signalId, t0, 80);

    const expected = { low: 1, medium: 0, high: 2, dangerous: 0, total: 3 };
    let seen = await figures(operator.token, tree.plantId);
    expect(seen).toEqual({
      badge: expected,
      fleetTotal: 3,
      plant: expected,
      devicesTotal: 3,
      dashboardTotal: 3,
      alarmsPageActive: 3,
    });
    // The badge counts the whole scope: the other company's alarm only for its own users.
    expect((await get<ActiveAlarmCounts>(outsider.token, '/api/alarms/activeCounts')).total).toBe(1);
    expect((await get<ActiveAlarmCounts>(admin.token, '/api/alarms/activeCounts')).total).toBe(4);

    // Approving (acknowledging) a still-active high alarm makes a fault but leaves the alarm active. The
    // three alarms of the signal rose together, so the first is the cause of the others (alarm groups):
    // each of those is decided on its own, while approving the first would approve them too.
    const list = await get<AlarmRecord[]>(operator.token, '/api/alarms');
    const first = list.find((a) => a.rule_id === rules[0]!.id)!;
    const high = list.find((a) => a.rule_id === rules[1]!.id)!;
    expect(high.cause_alarm_id).toBe(first.id);
    expect(high.state).toBe('active_unacknowledged');
    const approved = await t.http.post(`/api/alarms/${high.id}/fault`, {}, { token: operator.token });
    expect(approved.statusCode, approved.body).toBe(200);
    const answer = approved.json<{ alarm: AlarmRecord; fault_id: number }>();
    expect(answer.alarm).toMatchObject({
      status: 'approved',
      state: 'active_acknowledged',
      cleared_at: null,
      approved_by: operator.id,
    });
    // The fault records the acknowledgement: who approved (its author) and when, so its time to
    // acknowledge runs from the alarm's start to the approval.
    const fault = await get<Fault>(operator.token, `/api/faults/${answer.fault_id}`);
    expect(fault).toMatchObject({
      alarm_id: high.id,
      created_by: operator.id,
      acknowledged_at: answer.alarm.approved_at,
      time_to_acknowledge_s: Math.round(
        (Date.parse(answer.alarm.approved_at!) - Date.parse(high.started_at)) / 1000,
      ),
    });
    expect(fault.time_to_acknowledge_s).toBeGreaterThan(0);
    // Rejecting another one as false acknowledges it too; it stays active while its condition holds.
    const low = list.find((a) => a.rule_id === rules[2]!.id)!;
    expect(
      (await t.http.post(`/api/alarms/${low.id}/reject`, {}, { token: operator.token })).statusCode,
    ).toBe(200);
    seen = await figures(operator.token, tree.plantId);
    expect(seen).toEqual({
      badge: expected,
      fleetTotal: 3,
      plant: expected,
      devicesTotal: 3,
      dashboardTotal: 3,
      alarmsPageActive: 3,
    });
    const states = new Map(
      (await get<AlarmRecord[]>(operator.token, '/api/alarms')).map((a) => [a.rule_id, a.state]),
    );
    expect([states.get(rules[0]!.id), states.get(rules[1]!.id), states.get(rules[2]!.id)]).toEqual([
      'active_unacknowledged',
      'active_acknowledged',
      'active_acknowledged',
    ]);

    // The condition clears: nothing is active anywhere; the unacknowledged one waits for a decision.
    await ingest(tree.signalId, t0 + 60_000, 10);
    seen = await figures(operator.token, tree.plantId);
    const none = { low: 0, medium: 0, high: 0, dangerous: 0, total: 0 };
    expect(seen).toEqual({
      badge: none,
      fleetTotal: 0,
      plant: none,
      devicesTotal: 0,
      dashboardTotal: 0,
      alarmsPageActive: 0,
    });
    const after = await get<AlarmRecord[]>(operator.token, '/api/alarms');
    const byRule = new Map(after.map((a) => [a.rule_id, a]));
    expect(byRule.get(rules[1]!.id)).toMatchObject({
      state: 'cleared',
      status: 'approved',
      cleared_at: new Date(t0 + 60_000).toISOString(),
    });
    expect(byRule.get(rules[0]!.id)).toMatchObject({ state: 'cleared_unacknowledged', status: 'cleared' });
    expect(byRule.get(rules[2]!.id)).toMatchObject({ state: 'cleared', status: 'rejected' });
    // Cleared alarms are the history: active=false lists them.
    const history = await get<{ total: number }>(operator.token, '/api/alarms', {
      active: 'false',
      page: '1',
    });
    expect(history.total).toBe(3);
  });

  it('refuses a bad active filter and answers 401 without a token', async () => {
    const bad = await t.http.get('/api/alarms', { token: operator.token, query: { active: 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.http.get('/api/alarms/activeCounts')).statusCode).toBe(401);
    const noAlarmPage = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['plant'], ['view']),
    });
    expect((await t.http.get('/api/alarms/activeCounts', { token: noAlarmPage.token })).statusCode).toBe(403);
  });
});
