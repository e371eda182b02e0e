import { describe, expect, it } from 'vitest';
import type { DataQualityFlag } from '@solar/shared';
import { expectedReadings, summarise } from './data-quality.service';

const flag = (over: Partial<DataQualityFlag>): DataQualityFlag => ({
  id: 1,
  plant_id: 1,
  device_id: 1,
  device_name: 'INV-01',
  signal_id: 1,
  signal_key: 'ac_power',
  reason: 'gap',
  informational: false,
  local_day: '2026-06-10',
  from: '2026-06-10T00:00:00.000Z',
  to: '2026-06-10T01:00:00.000Z',
  readings: 0,
  missing: 0,
  detail: {},
  detected_at: '2026-06-11T00:00:00.000Z',
  accepted_at: null,
  accepted_by: null,
  accept_note: null,
  ...over,
});

describe('expectedReadings', () => {
  it('owes one reading per interval of each signal that has one', () => {
    // A day of 5-minute and 1-minute signals, and one without an interval.
    expect(expectedReadings([300_000, 60_000, null], 0, 86_400_000)).toBe(288 + 1440);
    expect(expectedReadings([300_000], 10, 10)).toBe(0);
  });
});

describe('summarise', () => {
  it('sums each reason and counts as problems neither accepted nor informational flags', () => {
    const s = summarise(
      [
        flag({ reason: 'gap', missing: 12 }),
        flag({ reason: 'gap', missing: 6, accepted_at: '2026-06-11T08:00:00.000Z' }),
        flag({ reason: 'spike', readings: 2 }),
        flag({ reason: 'clipping', readings: 30, informational: true }),
      ],
      288,
    );
    expect(s.expected_readings).toBe(288);
    expect(s.problem_readings).toBe(14);
    expect(s.problem_share).toBeCloseTo(14 / 288, 12);
    expect(s.by_reason).toEqual([
      { reason: 'gap', flags: 2, readings: 18, share: 18 / 288 },
      { reason: 'spike', flags: 1, readings: 2, share: 2 / 288 },
      { reason: 'clipping', flags: 1, readings: 30, share: 30 / 288 },
    ]);
  });

  it('has no share without expected readings, and caps overlapping flags at the whole', () => {
    expect(summarise([flag({ missing: 3 })], 0).problem_share).toBeNull();
    expect(summarise([flag({ missing: 3 }), flag({ missing: 3 })], 4).problem_share).toBe(1);
  });
});
