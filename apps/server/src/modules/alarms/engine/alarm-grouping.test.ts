import { describe, expect, it } from 'vitest';
import { upstreamDevices } from '../../topology';
import { ALARM_GROUP_WINDOW_MS, assignCauses, type GroupableAlarm } from './alarm-grouping';
import { MSG } from './device-codes';

// A plant as the demo wires it: the meter at the connection point, the transformer at the top level (so
// under the meter on the single-line diagram), two inverters under the transformer.
const METER = 1;
const TRAFO = 2;
const INV1 = 3;
const INV2 = 4;
const upstream = upstreamDevices([
  { id: METER, parent_device_id: null, type: 'meter' },
  { id: TRAFO, parent_device_id: null, type: 'transformer' },
  { id: INV1, parent_device_id: TRAFO, type: 'inverter' },
  { id: INV2, parent_device_id: TRAFO, type: 'inverter' },
]);

const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
const alarm = (
  id: number,
  device: number,
  message: string,
  atMs: number,
  over: Partial<GroupableAlarm> = {},
): GroupableAlarm => ({
  id,
  device_id: device,
  source: 'device_status',
  message,
  started_at: T0 + atMs,
  cause_alarm_id: null,
  decided: false,
  ...over,
});
/** Every link the raise makes, of the raised alarms and of earlier ones, consequence id → cause id. */
const causesOf = (raised: GroupableAlarm[], active: GroupableAlarm[], windowMs?: number) => {
  const links = assignCauses(raised, active, upstream, windowMs);
  return new Map([...links.ofRaised, ...links.ofEarlier]);
};
const fault = 'alarms.msg.inverterFault';
const gridDisconnect = 'alarms.msg.gridDisconnect';

describe('alarm grouping', () => {
  it('reads the upstream device from the topology: parent, else the grid meter', () => {
    expect([...upstream]).toEqual([
      [METER, null],
      [TRAFO, METER],
      [INV1, TRAFO],
      [INV2, TRAFO],
    ]);
  });

  it("groups an inverter's fault under the meter's grid outage raised within the window before it", () => {
    const outage = alarm(10, METER, MSG.gridOutage, 0);
    const trip = alarm(11, INV1, fault, 30_000);
    expect(causesOf([trip], [outage])).toEqual(new Map([[11, 10]]));
  });

  it('leaves an alarm alone when the other one is outside the window, later, cleared or unrelated', () => {
    const outage = alarm(10, METER, MSG.gridOutage, 0);
    // Outside the window.
    expect(causesOf([alarm(11, INV1, fault, ALARM_GROUP_WINDOW_MS + 1)], [outage])).toEqual(new Map());
    // At the window's end still grouped.
    expect(causesOf([alarm(11, INV1, fault, ALARM_GROUP_WINDOW_MS)], [outage]).get(11)).toBe(10);
    // A device alarm of a sibling inverter causes nothing on another one.
    expect(causesOf([alarm(12, INV2, fault, 10_000)], [alarm(11, INV1, fault, 0)])).toEqual(new Map());
    // A device below causes nothing above: the meter's outage after an inverter fault follows nothing (the
    // fault goes under it, see "raised before its cause").
    expect(causesOf([alarm(13, METER, MSG.gridOutage, 10_000)], [alarm(11, INV1, fault, 0)]).has(13)).toBe(
      false,
    );
    // Not active (the caller passes only active alarms): nothing to follow.
    expect(causesOf([alarm(11, INV1, fault, 30_000)], [])).toEqual(new Map());
  });

  it('chooses a device above over the same device, a grid alarm over a device one, then the earliest', () => {
    const outage = alarm(10, METER, MSG.gridOutage, 20_000);
    const trafoHot = alarm(11, TRAFO, 'alarms.msg.custom', 5_000, { source: 'custom' });
    const own = alarm(12, INV1, 'alarms.msg.overTemperature', 0);
    const trip = alarm(13, INV1, fault, 30_000);
    // Both above: the meter's grid alarm, though the transformer's came first.
    expect(causesOf([trip], [outage, trafoHot, own]).get(13)).toBe(10);
    // Two device alarms above: the earliest.
    const trafoLater = alarm(14, TRAFO, 'alarms.msg.custom', 8_000, { source: 'custom' });
    expect(causesOf([trip], [trafoLater, trafoHot, own]).get(13)).toBe(11);
    // Nothing above: the same device's earlier alarm.
    expect(causesOf([trip], [own]).get(13)).toBe(12);
  });

  it('on one device, the grid disconnection is the cause of the fault raised with it, whatever the order', () => {
    const disconnect = alarm(21, INV1, gridDisconnect, 0);
    const trip = alarm(20, INV1, fault, 0);
    for (const raised of [
      [trip, disconnect],
      [disconnect, trip],
    ])
      expect(causesOf(raised, raised)).toEqual(new Map([[20, 21]]));
    // A device fault is never the cause of a grid alarm on the same device, even when it came first.
    expect(causesOf([alarm(22, INV1, gridDisconnect, 5_000)], [alarm(23, INV1, fault, 0)])).toEqual(
      new Map(),
    );
  });

  it('keeps groups one level deep: raised together, everything follows the meter', () => {
    const raised = [
      alarm(30, INV1, fault, 0),
      alarm(31, INV1, gridDisconnect, 0),
      alarm(32, INV2, fault, 0),
      alarm(33, METER, MSG.gridOutage, 0),
    ];
    expect(causesOf(raised, raised)).toEqual(
      new Map([
        [30, 33],
        [31, 33],
        [32, 33],
      ]),
    );
    // A consequence is no cause: a later alarm on the inverter follows the meter, not the inverter's.
    const existing = [
      alarm(33, METER, MSG.gridOutage, 0),
      alarm(31, INV1, gridDisconnect, 0, { cause_alarm_id: 33 }),
    ];
    expect(causesOf([alarm(34, INV1, fault, 1_000)], existing).get(34)).toBe(33);
    // With the meter's outage cleared (no longer active), the inverter's own consequence is still no cause.
    expect(causesOf([alarm(34, INV1, fault, 1_000)], [existing[1]!])).toEqual(new Map());
  });

  it('a communication loss above causes nothing below; a plant-level alarm is never grouped', () => {
    const silent = alarm(40, METER, 'alarms.msg.commLoss', 0, { source: 'comm_loss' });
    expect(causesOf([alarm(41, INV1, fault, 10_000)], [silent])).toEqual(new Map());
    const plant = alarm(42, INV1, 'alarms.msg.plantNoProduction', 0, {
      device_id: null,
      source: 'plant_no_production',
    });
    expect(causesOf([plant], [alarm(43, INV1, gridDisconnect, 0)])).toEqual(new Map());
    expect(causesOf([alarm(44, INV1, fault, 0)], [plant])).toEqual(new Map());
  });

  describe('an alarm raised before its cause', () => {
    it("goes under the meter's grid outage raised after it, when the outage started before or after it within the window", () => {
      const trip = alarm(11, INV1, fault, 30_000);
      expect(causesOf([alarm(10, METER, MSG.gridOutage, 0)], [trip])).toEqual(new Map([[11, 10]]));
      // The meter, polled apart from the inverter, saw the grid go 40 s after the trip was reported.
      expect(causesOf([alarm(12, METER, MSG.gridOutage, 70_000)], [trip])).toEqual(new Map([[11, 12]]));
      const links = assignCauses([alarm(10, METER, MSG.gridOutage, 0)], [trip], upstream);
      expect([...links.ofRaised]).toEqual([]);
      expect([...links.ofEarlier]).toEqual([[11, 10]]);
      // Outside the window, either side: nothing.
      expect(
        causesOf([alarm(13, METER, MSG.gridOutage, 30_000 + ALARM_GROUP_WINDOW_MS + 1)], [trip]),
      ).toEqual(new Map());
      expect(
        causesOf([alarm(14, METER, MSG.gridOutage, 30_000 - ALARM_GROUP_WINDOW_MS - 1)], [trip]),
      ).toEqual(new Map());
    });

    it('on one device keeps time order: a grid disconnection written later but started with the fault is its cause', () => {
      expect(causesOf([alarm(21, INV1, gridDisconnect, 0)], [alarm(20, INV1, fault, 0)])).toEqual(
        new Map([[20, 21]]),
      );
      // One device reports in order: a disconnection that started after the fault did not cause it.
      expect(causesOf([alarm(22, INV1, gridDisconnect, 5_000)], [alarm(20, INV1, fault, 0)])).toEqual(
        new Map(),
      );
    });

    it('takes only alarms that follow nothing and are undecided, with the alarms that follow them', () => {
      const outage = alarm(10, METER, MSG.gridOutage, 5_000);
      // Approved into a fault, or rejected: it keeps its place.
      expect(causesOf([outage], [alarm(11, INV1, fault, 0, { decided: true })])).toEqual(new Map());
      // Already under another cause (here the transformer's): it stays there.
      const trafoHot = alarm(12, TRAFO, 'alarms.msg.custom', 0, { source: 'custom' });
      expect(causesOf([outage], [trafoHot, alarm(13, INV1, fault, 1_000, { cause_alarm_id: 12 })])).toEqual(
        new Map([[12, 10]]),
      );
      // The inverter's disconnection with the fault under it: both go under the outage, one level deep.
      const disconnect = alarm(14, INV1, gridDisconnect, 0);
      const trip = alarm(15, INV1, fault, 0, { cause_alarm_id: 14 });
      const links = assignCauses([outage], [disconnect, trip], upstream);
      expect([...links.ofEarlier]).toEqual([[14, 10]]);
      // A raised alarm that has a cause of its own takes nothing.
      expect(causesOf([alarm(16, INV2, fault, 10_000)], [alarm(17, INV1, fault, 0)])).toEqual(new Map());
    });

    it('groups the alarms of one grid outage the same way whatever order they arrive in', () => {
      const event = [
        alarm(1, INV1, fault, 0),
        alarm(2, INV1, gridDisconnect, 0),
        alarm(3, INV2, fault, 20_000),
        alarm(4, METER, MSG.gridOutage, 10_000),
      ];
      const together = causesOf(event, event);
      expect(together).toEqual(
        new Map([
          [1, 4],
          [2, 4],
          [3, 4],
        ]),
      );
      const orders = (list: GroupableAlarm[]): GroupableAlarm[][] =>
        list.length <= 1
          ? [list]
          : list.flatMap((a, i) => orders(list.filter((_, j) => j !== i)).map((o) => [a, ...o]));
      for (const order of orders(event)) {
        // One at a time, as the engine writes them when their readings come in apart.
        const stored: GroupableAlarm[] = [];
        for (const next of order) {
          const links = assignCauses([next], [...stored, next], upstream);
          stored.push({ ...next });
          for (const a of stored) {
            const moved = links.ofEarlier.get(a.cause_alarm_id ?? -1);
            a.cause_alarm_id =
              links.ofRaised.get(a.id) ?? links.ofEarlier.get(a.id) ?? moved ?? a.cause_alarm_id;
          }
        }
        const found = new Map(
          stored.flatMap((a) => (a.cause_alarm_id === null ? [] : [[a.id, a.cause_alarm_id]])),
        );
        expect(found, order.map((a) => a.id).join(',')).toEqual(together);
      }
    });
  });
});
