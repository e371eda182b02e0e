import { describe, expect, it } from 'vitest';
import { TELEMETRY_FUTURE_TOLERANCE_MS } from '@solar/shared';
import { timeWindow } from '../../telemetry-store/point-validation';
import type { CheckedSignal, TopicDevice } from '../collectors.repository';
import {
  BROKER_DROPPED_TOPIC,
  brokerDroppedCount,
  deviceRefusal,
  giveUpStoring,
  parseTelemetryMessage,
  pointsOf,
  sharedFilter,
  stillFresh,
  storeRetryDelayMs,
  telemetryTopics,
} from './telemetry-message';

const T0 = Date.UTC(2026, 5, 1, 12);
const topics = telemetryTopics('solar');
const window = timeWindow(T0, 90);
const device: TopicDevice = {
  id: 12,
  plant_id: 3,
  is_active: true,
  signals: new Map<string, CheckedSignal | null>([
    ['ac_power', { id: 101, bounds: { min: -5, max: 150 } }],
    ['retired', null],
  ]),
};

describe('telemetry topics', () => {
  it('subscribes under the root and reads plant and device ids from our topics only', () => {
    expect(topics.filter).toBe('solar/+/+/telemetry');
    expect(telemetryTopics('t1a').filter).toBe('t1a/+/+/telemetry');
    expect(topics.parse('solar/3/12/telemetry')).toEqual({ plantId: 3, deviceId: 12 });
    expect(topics.parse('solar/3/12/status')).toBeUndefined();
    expect(topics.parse('solar/x/12/telemetry')).toBeUndefined();
    expect(topics.parse('other/3/12/telemetry')).toBeUndefined();
    expect(topics.parse('solar/12345678901/12/telemetry')).toBeUndefined();
  });

  it('refuses a root that is not one plain topic level', () => {
    expect(() => telemetryTopics('solar/x')).toThrow(/one plain topic level/);
    expect(() => telemetryTopics('#')).toThrow(/one plain topic level/);
  });
});

describe('parseTelemetryMessage', () => {
  const parse = (body: string, topic = 'solar/3/12/telemetry') =>
    parseTelemetryMessage(topics, topic, Buffer.from(body));

  it('reads ts (ISO 8601 or epoch ms) and values', () => {
    expect(parse(JSON.stringify({ ts: T0, values: { ac_power: 12.5 } }))).toEqual({
      ok: true,
      plantId: 3,
      deviceId: 12,
      ts: T0,
      values: { ac_power: 12.5 },
    });
    expect(parse(JSON.stringify({ ts: new Date(T0).toISOString(), values: {} }))).toMatchObject({
      ok: true,
      ts: T0,
    });
  });

  it('names why a message is refused whole', () => {
    expect(parse('{}', 'solar/3/telemetry')).toEqual({ ok: false, reason: 'topic' });
    expect(parse('{"ts": ')).toEqual({ ok: false, reason: 'json' });
    expect(parse(JSON.stringify({ values: { ac_power: 1 } }))).toEqual({
      ok: false,
      reason: 'shape',
      details: { issues: ['ts'] },
    });
  });
});

describe('devices and values', () => {
  it('refuses an unknown, inactive or misplaced device', () => {
    expect(deviceRefusal(undefined, 3)).toBe('unknown_device');
    expect(deviceRefusal({ ...device, is_active: false }, 3)).toBe('inactive_device');
    expect(deviceRefusal(device, 4)).toBe('wrong_plant');
    expect(deviceRefusal(device, 3)).toBeUndefined();
  });

  it('keeps finite values of active keys and names each refused one', () => {
    expect(pointsOf(device, T0, { ac_power: 7, retired: 1, nope: 2 }, window)).toEqual({
      points: [{ signal_id: 101, ts: T0, value: 7 }],
      refused: [
        { reason: 'inactive_signal', key: 'retired' },
        { reason: 'unknown_signal', key: 'nope' },
      ],
    });
    for (const bad of [null, '7', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(pointsOf(device, T0, { ac_power: bad }, window).refused).toEqual([
        { reason: 'non_finite', key: 'ac_power' },
      ]);
    }
  });

  it('checks timestamp and value as HTTP ingest does (point-validation.ts)', () => {
    const refusal = (ts: number, value: unknown) => pointsOf(device, ts, { ac_power: value }, window).refused;
    expect(refusal(T0 + TELEMETRY_FUTURE_TOLERANCE_MS, 1)).toEqual([]);
    expect(refusal(T0 + TELEMETRY_FUTURE_TOLERANCE_MS + 1, 1)).toEqual([
      { reason: 'future', key: 'ac_power' },
    ]);
    expect(refusal(Math.floor(T0 / 1000), 1)).toEqual([{ reason: 'epoch_seconds', key: 'ac_power' }]);
    expect(refusal(T0 - 91 * 86_400_000, 1)).toEqual([{ reason: 'too_old', key: 'ac_power' }]);
    expect(refusal(T0, -1e308)).toEqual([{ reason: 'out_of_range', key: 'ac_power' }]);
    expect(refusal(T0, 151)).toEqual([{ reason: 'out_of_range', key: 'ac_power' }]);
  });

  it('trusts a cached device for less than its maximum age', () => {
    expect(stillFresh(T0, T0 + 9_999, 10_000)).toBe(true);
    expect(stillFresh(T0, T0 + 10_000, 10_000)).toBe(false);
  });
});

describe('store retries', () => {
  it('waits 250 ms doubling up to 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(storeRetryDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  });

  it('gives up storing only when stopping: unacknowledged messages are held by the broker meanwhile', () => {
    expect(giveUpStoring(false)).toBe(false);
    expect(giveUpStoring(true)).toBe(true);
  });
});

describe('shared subscription and broker counters', () => {
  it('puts the filter in the group, and refuses a group that is not one plain level', () => {
    expect(sharedFilter('solar', 'solar/+/+/telemetry')).toBe('$share/solar/solar/+/+/telemetry');
    for (const bad of ['', 'a/b', 'a+', '#', 'x'.repeat(65)])
      expect(() => sharedFilter(bad, 'solar/+/+/telemetry')).toThrow();
  });

  it("reads Mosquitto's dropped count, and nothing from other topics or bad payloads", () => {
    expect(brokerDroppedCount(BROKER_DROPPED_TOPIC, Buffer.from('42'))).toBe(42);
    expect(brokerDroppedCount(BROKER_DROPPED_TOPIC, '0')).toBe(0);
    expect(brokerDroppedCount(BROKER_DROPPED_TOPIC, 'many')).toBeUndefined();
    expect(brokerDroppedCount(BROKER_DROPPED_TOPIC, '-1')).toBeUndefined();
    expect(brokerDroppedCount('$SYS/broker/uptime', '42')).toBeUndefined();
  });
});
