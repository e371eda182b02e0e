import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveAlarmCounts, AlarmRecord, FaultDetail } from '@solar/shared';
import { openAlarmScene, type AlarmScene } from '../../test/alarm-fixtures';
import { save } from '../../test/org-fixtures';
import { dialectUnderTest } from '../../test/test-app';
import { ALARM_GROUP_WINDOW_MS } from './engine/alarm-grouping';
import { raiseAlarms, type RaiseRequest } from './engine/alarm-store.repository';

/**
 * Alarms of one event (docs/architecture.md, "Alarm groups"), over HTTP: the grid goes at the plant's
 * meter and an inverter trips; the inverter's alarm follows the meter's, and one fault covers both.
 */
describe(`alarm groups (${dialectUnderTest})`, () => {
  let scene: AlarmScene;
  const signals = { grid: 0, status: 0, events: 0, lateStatus: 0 };

  const byMessage = (list: AlarmRecord[], message: string, deviceId: number) =>
    list.find((a) => a.message === message && a.device_id === deviceId)!;
  const alarmsOfPlant = (plantId: number) =>
    scene.alarmsOf(scene.operator.token, { plant_id: String(plantId) });
  const approve = async (alarmId: number) => {
    const res = await scene.t.http.post(`/api/alarms/${alarmId}/fault`, {}, { token: scene.operator.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ fault_id: number }>().fault_id;
  };

  beforeAll(async () => {
    scene = await openAlarmScene({ tree: 'Group', other: 'Elsewhere' }, ['alarm', 'report', 'fault']);
    const { tree } = scene;
    // The plant's revenue meter at the connection point: the one top-level meter, so the single-line
    // diagram hangs the tree's inverter under it. A second inverter, under the first's transformer-less
    // top level too, trips later.
    const meter = await scene.addDevice(tree.plantId, 'Group Meter', 'meter');
    const late = await scene.addDevice(tree.plantId, 'Group INV-02', 'inverter');
    signals.grid = await scene.addSignal(meter, 'grid_available');
    signals.status = await scene.addSignal(tree.deviceId, 'status_code');
    signals.events = await scene.addSignal(tree.deviceId, 'event_bits');
    signals.lateStatus = await scene.addSignal(late, 'status_code');
    await scene.engine.reloadRules();
  });
  afterAll(async () => {
    await scene.close();
  });

  it('the grid outage at the meter is the cause, the inverter fault within the window its consequence; one fault covers both', async () => {
    const { t, tree, operator, outsider, ingest } = scene;
    const alarmsOf = () => alarmsOfPlant(tree.plantId);
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
    let list = await alarmsOf();
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
    list = await alarmsOf();
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
    list = await alarmsOf();
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

  describe('a cause raised after its consequences', () => {
    /** A plant of the tree with its meter and two inverters, each with the signals the engine judges. */
    const lateRaisingPlant = async (name: string) => {
      const { t, admin, tree } = scene;
      const plant = await save(t, admin.token, '/api/plants/0', {
        field_id: tree.fieldId,
        name: `${name} Plant`,
        time_zone: 'Europe/Istanbul',
      });
      const meter = await scene.addDevice(plant.id, `${name} Meter`, 'meter');
      const first = await scene.addDevice(plant.id, `${name} INV-01`, 'inverter');
      const second = await scene.addDevice(plant.id, `${name} INV-02`, 'inverter');
      const ids = {
        plant: plant.id,
        meter,
        first,
        second,
        grid: await scene.addSignal(meter, 'grid_available'),
        firstStatus: await scene.addSignal(first, 'status_code'),
        firstEvents: await scene.addSignal(first, 'event_bits'),
        secondStatus: await scene.addSignal(second, 'status_code'),
      };
      await scene.engine.reloadRules();
      return ids;
    };

    it('takes the open alarms raised before it under it, with the alarms that follow them; a decided one keeps its place', async () => {
      const p = await lateRaisingPlant('Late');
      const t0 = Date.now() - 10 * 60_000;
      await scene.ingest([
        { signal_id: p.grid, ts: t0, value: 1 },
        { signal_id: p.firstStatus, ts: t0, value: 4 },
        { signal_id: p.firstEvents, ts: t0, value: 0 },
        { signal_id: p.secondStatus, ts: t0, value: 4 },
      ]);
      // The inverters report first: the first a grid disconnection (SunSpec Evt1 bit 4) with a fault, a
      // group on its own device; the second a fault that an operator approves at once.
      await scene.ingest([
        { signal_id: p.firstEvents, ts: t0 + 30_000, value: 2 ** 4 },
        { signal_id: p.firstStatus, ts: t0 + 30_000, value: 7 },
        { signal_id: p.secondStatus, ts: t0 + 35_000, value: 7 },
      ]);
      let list = await alarmsOfPlant(p.plant);
      const disconnect = byMessage(list, 'alarms.msg.gridDisconnect', p.first);
      const trip = byMessage(list, 'alarms.msg.inverterFault', p.first);
      const decided = byMessage(list, 'alarms.msg.inverterFault', p.second);
      expect(disconnect).toMatchObject({ cause_alarm_id: null, consequence_count: 1 });
      expect(trip).toMatchObject({ cause_alarm_id: disconnect.id });
      expect(decided).toMatchObject({ cause_alarm_id: null });
      const ownFault = await approve(decided.id);

      // The meter's reading comes in last, and says the grid went 10 s after the inverters reported.
      await scene.ingest([{ signal_id: p.grid, ts: t0 + 40_000, value: 0 }]);
      list = await alarmsOfPlant(p.plant);
      const outage = byMessage(list, 'alarms.msg.gridOutage', p.meter);
      const of = (id: number) => list.find((a) => a.id === id);
      expect(outage).toMatchObject({ cause_alarm_id: null, consequence_count: 2, status_id: 1 });
      expect(of(disconnect.id)).toMatchObject({ cause_alarm_id: outage.id, consequence_count: 0 });
      expect(of(trip.id)).toMatchObject({ cause_alarm_id: outage.id });
      expect(of(decided.id)).toMatchObject({ cause_alarm_id: null, fault_id: ownFault });

      // The meter repeats itself: nothing changes.
      await scene.ingest([{ signal_id: p.grid, ts: t0 + 50_000, value: 0 }]);
      expect(await alarmsOfPlant(p.plant)).toEqual(list);

      // Approving the cause approves the event into one fault; the decided alarm stays in its own.
      const faultId = await approve(outage.id);
      const detail = await scene.t.http.get(`/api/faults/${faultId}`, { token: scene.operator.token });
      expect(detail.statusCode, detail.body).toBe(200);
      expect([...detail.json<FaultDetail>().alarm_ids].sort((a, b) => a - b)).toEqual(
        [outage.id, disconnect.id, trip.id].sort((a, b) => a - b),
      );
      expect(of(decided.id)?.fault_id).toBe(ownFault);
    });

    it('two causes raised at once take an earlier alarm and its follower under one of them, together', async () => {
      const p = await lateRaisingPlant('Race');
      const t0 = Date.now() - 10 * 60_000;
      await scene.ingest([
        { signal_id: p.firstStatus, ts: t0, value: 4 },
        { signal_id: p.firstEvents, ts: t0, value: 0 },
      ]);
      await scene.ingest([
        { signal_id: p.firstEvents, ts: t0 + 30_000, value: 2 ** 4 },
        { signal_id: p.firstStatus, ts: t0 + 30_000, value: 7 },
      ]);
      const before = await alarmsOfPlant(p.plant);
      const disconnect = byMessage(before, 'alarms.msg.gridDisconnect', p.first);
      const trip = byMessage(before, 'alarms.msg.inverterFault', p.first);
      // Two writers (say two nodes while the jobs lease changes hands) each raise a grid alarm on the meter
      // in a transaction of their own, at the same time.
      const raise = (key: string): RaiseRequest => ({
        key: `${key}:${p.meter}`,
        plant_id: p.plant,
        device_id: p.meter,
        tag_id: null,
        source: 'device_status',
        rule_id: null,
        priority_id: 3,
        message: 'alarms.msg.gridOutage',
        message_params: {},
        at: t0 + 40_000,
      });
      const db = scene.t.ctx.db;
      await Promise.all(
        ['race-a', 'race-b'].map((key) => db.transaction().execute((trx) => raiseAlarms(trx, [raise(key)]))),
      );
      const after = await alarmsOfPlant(p.plant);
      const causes = after.filter((a) => a.device_id === p.meter);
      expect(causes).toHaveLength(2);
      const cause = after.find((a) => a.id === disconnect.id)!.cause_alarm_id;
      expect(causes.map((a) => a.id)).toContain(cause);
      // The follower went where its cause went: one group, one level deep.
      expect(after.find((a) => a.id === trip.id)!.cause_alarm_id).toBe(cause);
      for (const a of after.filter((x) => x.cause_alarm_id !== null))
        expect(after.find((c) => c.id === a.cause_alarm_id)?.cause_alarm_id).toBeNull();
    });
  });
});
