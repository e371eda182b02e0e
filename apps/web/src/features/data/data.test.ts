import { describe, expect, it } from 'vitest';
import { SseParser } from '../../lib/live-stream';
import { signalsOfDevices } from './data-signals';
import { plantToday } from '../../lib/plant-time';
import { fileSafe, rangeOf } from './time-range';

describe('SseParser', () => {
  it('splits events across chunks, skips heartbeat comments and joins data lines', () => {
    const seen: [string, string][] = [];
    const parser = new SseParser((event, data) => seen.push([event, data]));
    parser.push('event: hello\ndata: {"connection_id":"abc"}\n');
    parser.push('\n: heartbeat\n\nevent: latest\r\ndata: [[1,2,3]]\r\n\r\ndata: a\ndata: b\n\n');
    expect(seen).toEqual([
      ['hello', '{"connection_id":"abc"}'],
      ['latest', '[[1,2,3]]'],
      ['message', 'a\nb'],
    ]);
  });
});

describe('rangeOf', () => {
  // 15 June 2025 14:30 in Skopje (UTC+2 in summer): 12:30 UTC. The plant's days start at 22:00 UTC.
  const zone = 'Europe/Skopje';
  const now = Date.parse('2025-06-15T12:30:00Z');
  it("gives the presets on the plant's calendar, running ones ending now", () => {
    expect(rangeOf('today', now, zone)).toEqual({ from: Date.parse('2025-06-14T22:00:00Z'), to: now });
    expect(rangeOf('yesterday', now, zone)).toEqual({
      from: Date.parse('2025-06-13T22:00:00Z'),
      to: Date.parse('2025-06-14T22:00:00Z'),
    });
    expect(rangeOf('thisMonth', now, zone).from).toBe(Date.parse('2025-05-31T22:00:00Z'));
    // 1 January is in winter time (UTC+1).
    expect(rangeOf('thisYear', now, zone).from).toBe(Date.parse('2024-12-31T23:00:00Z'));
    expect(rangeOf('last7Days', now, zone).from).toBe(now - 7 * 86_400_000);
  });
  it("starts today at the plant's midnight: at 21:30 UTC it is the 15th in Istanbul, still the 14th in Skopje", () => {
    const at = Date.parse('2025-06-14T21:30:00Z');
    expect(rangeOf('today', at, 'Europe/Istanbul').from).toBe(Date.parse('2025-06-14T21:00:00Z'));
    expect(rangeOf('today', at, zone).from).toBe(Date.parse('2025-06-13T22:00:00Z'));
  });
  it('takes whole plant days for a custom range, the last one included but never past now', () => {
    expect(rangeOf('custom', now, zone, ['2025-06-01', '2025-06-15'])).toEqual({
      from: Date.parse('2025-05-31T22:00:00Z'),
      to: now,
    });
    expect(rangeOf('custom', now, zone, ['2025-06-01', '2025-06-02']).to).toBe(
      Date.parse('2025-06-02T22:00:00Z'),
    );
    expect(plantToday(zone, now)).toBe('2025-06-15');
  });
  it('makes file-name-safe names, keeping Turkish and Cyrillic letters', () => {
    expect(fileSafe('Karapınar GES-1 / Çatı')).toBe('Karapınar-GES-1-Çatı');
    expect(fileSafe('Штип 1')).toBe('Штип-1');
    expect(fileSafe('///')).toBe('data');
  });
});

describe('signalsOfDevices', () => {
  const signal = (id: number, name: string) => ({ id, key: `k${id}`, name, unit: null, is_counter: false });
  const devices = [
    { id: 1, name: 'INV-01', type: 'inverter' as const, parent_device_id: null, signals: [signal(10, 'P')] },
    {
      id: 2,
      name: 'Meter',
      type: 'meter' as const,
      parent_device_id: 1,
      signals: [signal(20, 'E'), signal(21, 'F')],
    },
  ];
  it('lists the signals of the chosen devices in their order, each with its device', () => {
    expect(signalsOfDevices(devices, [2, 1]).map((s) => [s.id, s.device_id, s.device_name])).toEqual([
      [20, 2, 'Meter'],
      [21, 2, 'Meter'],
      [10, 1, 'INV-01'],
    ]);
    expect(signalsOfDevices(devices, [3])).toEqual([]);
    expect(signalsOfDevices([], [1])).toEqual([]);
  });
});
