import { describe, expect, it } from 'vitest';
import { TELEMETRY_FUTURE_TOLERANCE_MS } from '@solar/shared';
import { checkPoint, timeWindow } from './point-validation';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const DAY = 86_400_000;
const window = timeWindow(NOW, 90);
const open = { min: null, max: null };
const kw100 = { min: -5, max: 150 };

describe('checkPoint', () => {
  it('accepts a point inside the window and the bounds, up to both edges', () => {
    expect(checkPoint(NOW - 60_000, 42, kw100, window)).toBeNull();
    expect(checkPoint(NOW - 90 * DAY, -5, kw100, window)).toBeNull();
    expect(checkPoint(NOW + TELEMETRY_FUTURE_TOLERANCE_MS, 150, kw100, window)).toBeNull();
  });

  it('names a timestamp in epoch seconds as such, not as too old', () => {
    // An MQTT payload stamped in seconds: 2026-11-23, which as milliseconds is 1970-01-21.
    expect(checkPoint(1_795_453_394, 1, open, window)).toBe('epoch_seconds');
    expect(checkPoint(0, 1, open, window)).toBe('epoch_seconds');
    expect(checkPoint(99_999_999_999, 1, open, window)).toBe('epoch_seconds');
    // 1e11 ms is 1973-03-03: no longer seconds, just far too old.
    expect(checkPoint(100_000_000_000, 1, open, window)).toBe('too_old');
  });

  it('refuses the future beyond the tolerance and the past beyond retention', () => {
    expect(checkPoint(NOW + TELEMETRY_FUTURE_TOLERANCE_MS + 1, 1, open, window)).toBe('future');
    expect(checkPoint(NOW + 365 * DAY, 1, open, window)).toBe('future');
    expect(checkPoint(NOW - 90 * DAY - 1, 1, open, window)).toBe('too_old');
    expect(checkPoint(Date.parse('2001-01-01T00:00:00Z'), 1, open, window)).toBe('too_old');
  });

  it('refuses values that are not finite numbers', () => {
    expect(checkPoint(NOW, null, open, window)).toBe('non_finite');
    expect(checkPoint(NOW, Number.NaN, open, window)).toBe('non_finite');
    expect(checkPoint(NOW, Number.NEGATIVE_INFINITY, open, window)).toBe('non_finite');
  });

  it('refuses values outside the bounds, and beyond the absolute limit even without bounds', () => {
    expect(checkPoint(NOW, -5.0001, kw100, window)).toBe('out_of_range');
    expect(checkPoint(NOW, 150.0001, kw100, window)).toBe('out_of_range');
    expect(checkPoint(NOW, -1e308, kw100, window)).toBe('out_of_range');
    expect(checkPoint(NOW, -1e308, open, window)).toBe('out_of_range');
    expect(checkPoint(NOW, 1e16, open, window)).toBe('out_of_range');
    expect(checkPoint(NOW, 1e14, open, window)).toBeNull();
    expect(checkPoint(NOW, -3, { min: 0, max: null }, window)).toBe('out_of_range');
    expect(checkPoint(NOW, 1e12, { min: 0, max: null }, window)).toBeNull();
  });

  it('says what is wrong with the time before what is wrong with the value', () => {
    expect(checkPoint(1_795_453_394, -1e308, kw100, window)).toBe('epoch_seconds');
    expect(checkPoint(NOW + DAY, Number.NaN, kw100, window)).toBe('future');
  });
});
