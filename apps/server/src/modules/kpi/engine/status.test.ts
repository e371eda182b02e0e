import { describe, expect, it } from 'vitest';
import {
  belowNeighbours,
  cameraCommunication,
  communicationState,
  deviceStatus,
  isDaylight,
  operatingStatus,
  plantCommunication,
  type ActiveAlarmRef,
} from './status';

const alarm = (priorityId: number, source: ActiveAlarmRef['source'] = 'device_status'): ActiveAlarmRef => ({
  priorityId,
  source,
});

describe('status precedence: fault > offline > warning > night > normal', () => {
  it('walks down the precedence', () => {
    const day = { communication: 'online' as const, isDaylight: true };
    expect(operatingStatus({ ...day, activeAlarms: [] })).toBe('normal');
    expect(operatingStatus({ ...day, isDaylight: false, activeAlarms: [] })).toBe('night');
    expect(operatingStatus({ ...day, activeAlarms: [alarm(1)] })).toBe('warning');
    expect(operatingStatus({ ...day, activeAlarms: [alarm(2, 'custom')] })).toBe('warning');
    expect(operatingStatus({ ...day, activeAlarms: [alarm(3)] })).toBe('fault');
    expect(operatingStatus({ ...day, activeAlarms: [alarm(1), alarm(4, 'custom')] })).toBe('fault');
    expect(operatingStatus({ ...day, communication: 'lost', activeAlarms: [] })).toBe('offline');
  });

  it('ranks each state above the ones below it', () => {
    // fault beats offline, warning and night together
    expect(
      operatingStatus({ communication: 'lost', isDaylight: false, activeAlarms: [alarm(4), alarm(1)] }),
    ).toBe('fault');
    // offline beats warning and night
    expect(operatingStatus({ communication: 'lost', isDaylight: false, activeAlarms: [alarm(2)] })).toBe(
      'offline',
    );
    // a warning shows at night too
    expect(operatingStatus({ communication: 'online', isDaylight: false, activeAlarms: [alarm(1)] })).toBe(
      'warning',
    );
  });

  it('treats communication loss as offline for the device and a warning for its plant', () => {
    // The alarm engine raises comm_loss at priority 3; it must not read as a fault.
    const commLoss = alarm(3, 'comm_loss');
    expect(operatingStatus({ communication: 'lost', isDaylight: true, activeAlarms: [commLoss] })).toBe(
      'offline',
    );
    const plantComm = plantCommunication(['online', 'lost', 'online']);
    expect(plantComm).toBe('online');
    expect(operatingStatus({ communication: plantComm, isDaylight: true, activeAlarms: [commLoss] })).toBe(
      'warning',
    );
    expect(plantCommunication(['lost', 'lost'])).toBe('lost');
    expect(plantCommunication([])).toBe('lost');
  });

  it('derives communication from the newest data and daylight from the sun', () => {
    const now = Date.parse('2026-06-21T10:00:00Z');
    // 30 s poll: stale after max(90 s, 5 min) = 5 min.
    expect(communicationState(now - 299_000, now, 30)).toBe('online');
    expect(communicationState(now - 301_000, now, 30)).toBe('lost');
    // 5-minute poll: 3 × 5 = 15 min.
    expect(communicationState(now - 14 * 60_000, now, 300)).toBe('online');
    expect(communicationState(null, now, 30)).toBe('lost');
    // Konya (37.87 N, 32.48 E): 13:00 local (10:00Z) on the solstice is day, 23:00Z is night.
    expect(isDaylight(now, 37.87, 32.48)).toBe(true);
    expect(isDaylight(Date.parse('2026-06-21T23:00:00Z'), 37.87, 32.48)).toBe(false);
  });
});

describe('a camera, which sends no telemetry', () => {
  const interval = 60_000;
  const now = 10_000_000;

  it('is online while the probe got an image within three intervals, lost after, unknown if never probed', () => {
    expect(cameraCommunication(null, now, interval)).toBe('unknown');
    expect(cameraCommunication({ lastImageMs: null }, now, interval)).toBe('lost');
    expect(cameraCommunication({ lastImageMs: now - 3 * interval }, now, interval)).toBe('online');
    expect(cameraCommunication({ lastImageMs: now - 3 * interval - 1 }, now, interval)).toBe('lost');
  });

  it('has no status when its link is unknown, unless its own alarms give one', () => {
    const unknown = { communication: 'unknown' as const, isDaylight: true };
    expect(deviceStatus({ ...unknown, activeAlarms: [] })).toBeNull();
    expect(deviceStatus({ ...unknown, isDaylight: false, activeAlarms: [] })).toBeNull();
    expect(deviceStatus({ ...unknown, activeAlarms: [alarm(1)] })).toBe('warning');
    expect(deviceStatus({ ...unknown, activeAlarms: [alarm(3)] })).toBe('fault');
    // A known link follows the one rule.
    expect(deviceStatus({ communication: 'lost', isDaylight: true, activeAlarms: [] })).toBe('offline');
    expect(deviceStatus({ communication: 'online', isDaylight: false, activeAlarms: [] })).toBe('night');
  });
});

describe('a plant far below a neighbour under the same sky', () => {
  const plant = (
    id: number,
    fieldId: number,
    percent: number | null,
    status: 'normal' | 'fault' = 'normal',
  ) => ({
    id,
    name: `P${id}`,
    fieldId,
    status,
    acCapacityPercent: percent,
  });

  it('warns of the plant at 4 % beside one at 44 %, naming the neighbour, and of nothing else', () => {
    const below = belowNeighbours([plant(1, 1, 4), plant(2, 1, 44), plant(3, 1, 30), plant(4, 2, 1)]);
    expect([...below.keys()]).toEqual([1]);
    expect(below.get(1)).toEqual({ neighbourId: 2, neighbourName: 'P2', neighbourPercent: 44 });
  });

  it('compares only on a field whose best plant makes at least 20 %, and only plants otherwise normal', () => {
    // A dull morning: 4 % beside 19 % says nothing.
    expect(belowNeighbours([plant(1, 1, 4), plant(2, 1, 19)]).size).toBe(0);
    // Exactly a quarter of the neighbour is not below it.
    expect(belowNeighbours([plant(1, 1, 11), plant(2, 1, 44)]).size).toBe(0);
    // A plant with a fault already says why; a plant without a figure is not judged.
    expect(belowNeighbours([plant(1, 1, 4, 'fault'), plant(2, 1, 44)]).size).toBe(0);
    expect(belowNeighbours([plant(1, 1, null), plant(2, 1, 44)]).size).toBe(0);
    // Plants of other fields are under another sky.
    expect(belowNeighbours([plant(1, 1, 4), plant(2, 2, 44)]).size).toBe(0);
  });
});
