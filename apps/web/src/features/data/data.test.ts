import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../lib/live-stream';
import { signalsOfDevices } from './data-signals';
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
  const now = dayjs('2025-06-15T14:30:00');
  it('gives the presets in local time, running ones ending now', () => {
    expect(rangeOf('today', now)).toEqual({
      from: dayjs('2025-06-15T00:00:00').valueOf(),
      to: now.valueOf(),
    });
    expect(rangeOf('yesterday', now)).toEqual({
      from: dayjs('2025-06-14T00:00:00').valueOf(),
      to: dayjs('2025-06-15T00:00:00').valueOf(),
    });
    expect(rangeOf('thisMonth', now).from).toBe(dayjs('2025-06-01T00:00:00').valueOf());
    expect(rangeOf('thisYear', now).from).toBe(dayjs('2025-01-01T00:00:00').valueOf());
    expect(rangeOf('last7Days', now).from).toBe(now.subtract(7, 'day').valueOf());
  });
  it('takes whole days for a custom range, the last one included but never past now', () => {
    const range = rangeOf('custom', now, [dayjs('2025-06-01'), dayjs('2025-06-15')]);
    expect(range).toEqual({ from: dayjs('2025-06-01T00:00:00').valueOf(), to: now.valueOf() });
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
