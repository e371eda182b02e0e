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
  ...over,
});
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
    expect(assignCauses([trip], [outage], upstream)).toEqual(new Map([[11, 10]]));
  });

  it('leaves an alarm alone when the other one is outside the window, later, cleared or unrelated', () => {
    const outage = alarm(10, METER, MSG.gridOutage, 0);
    // Outside the window.
    expect(assignCauses([alarm(11, INV1, fault, ALARM_GROUP_WINDOW_MS + 1)], [outage], upstream)).toEqual(
      new Map(),
    );
    // At the window's end still grouped.
    expect(assignCauses([alarm(11, INV1, fault, ALARM_GROUP_WINDOW_MS)], [outage], upstream).get(11)).toBe(
      10,
    );
    // A device alarm of a sibling inverter causes nothing on another one.
    expect(assignCauses([alarm(12, INV2, fault, 10_000)], [alarm(11, INV1, fault, 0)], upstream)).toEqual(
      new Map(),
    );
    // A device below causes nothing above: the meter's outage after an inverter fault is its own cause.
    expect(
      assignCauses([alarm(13, METER, MSG.gridOutage, 10_000)], [alarm(11, INV1, fault, 0)], upstream),
    ).toEqual(new Map());
    // Not active (the caller passes only active alarms): nothing to follow.
    expect(assignCauses([alarm(11, INV1, fault, 30_000)], [], upstream)).toEqual(new Map());
  });

  it('chooses a device above over the same device, a grid alarm over a device one, then the earliest', () => {
    const outage = alarm(10, METER, MSG.gridOutage, 20_000);
    const trafoHot = alarm(11, TRAFO, 'alarms.msg.custom', 5_000, { source: 'custom' });
    const own = alarm(12, INV1, 'alarms.msg.overTemperature', 0);
    const trip = alarm(13, INV1, fault, 30_000);
    // Both above: the meter's grid alarm, though the transformer's came first.
    expect(assignCauses([trip], [outage, trafoHot, own], upstream).get(13)).toBe(10);
    // Two device alarms above: the earliest.
    const trafoLater = alarm(14, TRAFO, 'alarms.msg.custom', 8_000, { source: 'custom' });
    expect(assignCauses([trip], [trafoLater, trafoHot, own], upstream).get(13)).toBe(11);
    // Nothing above: the same device's earlier alarm.
    expect(assignCauses([trip], [own], upstream).get(13)).toBe(12);
  });

  it('on one device, the grid disconnection is the cause of the fault raised with it, whatever the order', () => {
    const disconnect = alarm(21, INV1, gridDisconnect, 0);
    const trip = alarm(20, INV1, fault, 0);
    for (const raised of [
      [trip, disconnect],
      [disconnect, trip],
    ])
      expect(assignCauses(raised, raised, upstream)).toEqual(new Map([[20, 21]]));
    // A device fault is never the cause of a grid alarm on the same device, even when it came first.
    expect(
      assignCauses([alarm(22, INV1, gridDisconnect, 5_000)], [alarm(23, INV1, fault, 0)], upstream),
    ).toEqual(new Map());
  });

  it('keeps groups one level deep: raised together, everything follows the meter', () => {
    const raised = [
      alarm(30, INV1, fault, 0),
      alarm(31, INV1, gridDisconnect, 0),
      alarm(32, INV2, fault, 0),
      alarm(33, METER, MSG.gridOutage, 0),
    ];
    expect(assignCauses(raised, raised, upstream)).toEqual(
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
    expect(assignCauses([alarm(34, INV1, fault, 1_000)], existing, upstream).get(34)).toBe(33);
    // With the meter's outage cleared (no longer active), the inverter's own consequence is still no cause.
    expect(assignCauses([alarm(34, INV1, fault, 1_000)], [existing[1]!], upstream)).toEqual(new Map());
  });

  it('a communication loss above causes nothing below; a plant-level alarm is never grouped', () => {
    const silent = alarm(40, METER, 'alarms.msg.commLoss', 0, { source: 'comm_loss' });
    expect(assignCauses([alarm(41, INV1, fault, 10_000)], [silent], upstream)).toEqual(new Map());
    const plant = alarm(42, INV1, 'alarms.msg.plantNoProduction', 0, {
      device_id: null,
      source: 'plant_no_production',
    });
    expect(assignCauses([plant], [alarm(43, INV1, gridDisconnect, 0)], upstream)).toEqual(new Map());
    expect(assignCauses([alarm(44, INV1, fault, 0)], [plant], upstream)).toEqual(new Map());
  });
});
