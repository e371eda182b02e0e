import { describe, expect, it } from 'vitest';
import { defaultBounds, effectiveBounds } from './signal-bounds';

describe('signal bounds', () => {
  it('bounds power by the device rating: −5 % to 150 %', () => {
    expect(defaultBounds('kW', 100)).toEqual({ min: -5, max: 150 });
    expect(defaultBounds(' kw ', 20)).toEqual({ min: -1, max: 30 });
    expect(defaultBounds('W', 100)).toEqual({ min: -5000, max: 150_000 });
    expect(defaultBounds('MW', 2000)).toEqual({ min: -0.1, max: 3 });
  });

  it('bounds power of a device without rating by the largest rating a device may have, both ways', () => {
    expect(defaultBounds('kW', null)).toEqual({ min: -1_500_000, max: 1_500_000 });
    expect(defaultBounds('kW', 0)).toEqual({ min: -1_500_000, max: 1_500_000 });
  });

  it('has defaults for irradiance, temperature, grid quantities and energy', () => {
    expect(defaultBounds('W/m²', null)).toEqual({ min: -25, max: 1600 });
    expect(defaultBounds('W/m2', null)).toEqual({ min: -25, max: 1600 });
    expect(defaultBounds('°C', null)).toEqual({ min: -50, max: 120 });
    expect(defaultBounds('Hz', null)).toEqual({ min: 0, max: 70 });
    expect(defaultBounds('kWh', 100)).toEqual({ min: 0, max: null });
    expect(defaultBounds('m/s', null)).toEqual({ min: null, max: null });
    expect(defaultBounds(null, 100)).toEqual({ min: null, max: null });
  });

  it('lets a signal set either side, the other keeping the default', () => {
    const signal = { unit: 'kW', min_value: null, max_value: 120 };
    expect(effectiveBounds(signal, 100)).toEqual({ min: -5, max: 120 });
    expect(effectiveBounds({ unit: null, min_value: -1, max_value: null }, null)).toEqual({
      min: -1,
      max: null,
    });
  });
});
