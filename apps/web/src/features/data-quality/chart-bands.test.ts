import { describe, expect, it } from 'vitest';
import type { DataQualityFlag } from '@solar/shared';
import { flagBands, flagDays } from './chart-bands';

const flag = (over: Partial<DataQualityFlag>): DataQualityFlag => ({
  id: 1,
  plant_id: 1,
  device_id: 2,
  device_name: 'INV-1',
  signal_id: 10,
  signal_key: 'ac_power',
  reason: 'stale',
  informational: false,
  local_day: '2026-11-28',
  from: '2026-11-28T08:00:00.000Z',
  to: '2026-11-28T09:00:00.000Z',
  readings: 12,
  missing: 0,
  detail: {},
  detected_at: '2026-11-29T00:10:00.000Z',
  accepted_at: null,
  accepted_by: null,
  accept_note: null,
  ...over,
});

describe('flagBands', () => {
  const range = { from: Date.parse('2026-11-28T00:00:00Z'), to: Date.parse('2026-11-29T00:00:00Z') };

  it('keeps the charted signals’ flags, cut to the range, with their status', () => {
    const bands = flagBands(
      [
        flag({ id: 1 }),
        flag({ id: 2, signal_id: 11 }),
        flag({ id: 3, signal_id: null }),
        flag({ id: 4, from: '2026-11-27T23:00:00.000Z', to: '2026-11-28T01:00:00.000Z', accepted_at: 'x' }),
        flag({ id: 5, from: '2026-11-29T00:00:00.000Z', to: '2026-11-29T01:00:00.000Z' }),
      ],
      [10],
      range,
    );
    expect(bands.map((b) => [b.flagId, b.from, b.to, b.status])).toEqual([
      [1, Date.parse('2026-11-28T08:00:00Z'), Date.parse('2026-11-28T09:00:00Z'), 'open'],
      [4, range.from, Date.parse('2026-11-28T01:00:00Z'), 'accepted'],
    ]);
  });
});

describe('flagDays', () => {
  it('keeps a range within one read and the last 366 days of a longer one', () => {
    expect(flagDays('2026-11-01', '2026-11-28')).toEqual(['2026-11-01', '2026-11-28']);
    expect(flagDays('2024-01-01', '2026-11-28')).toEqual(['2025-11-28', '2026-11-28']);
  });
});
