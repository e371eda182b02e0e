import { describe, expect, it } from 'vitest';
import { detectOutOfRange } from './range';
import { at, konyaDay, poaSeries, powerSeries, series, timestamps } from './synthetic-day';

describe('out-of-range detector', () => {
  const plant = konyaDay();

  it('finds nothing on a clear day', () => {
    expect(detectOutOfRange(poaSeries(plant), plant)).toEqual([]);
    expect(detectOutOfRange(powerSeries(plant, 300, 200), plant)).toEqual([]);
  });

  it('flags irradiance above 1500 and below −10 W/m², one flag per run', () => {
    const s = poaSeries(plant);
    s.readings[at(plant, 12)]!.value = 1600;
    s.readings[at(plant, 12, 5)]!.value = 1700;
    s.readings[at(plant, 2)]!.value = -25;
    const flags = detectOutOfRange(s, plant);
    expect(flags.map((f) => [f.readings, f.detail.min, f.detail.max])).toEqual([
      [1, -25, -25],
      [2, 1600, 1700],
    ]);
    expect(flags[1]!.detail).toMatchObject({ lowerBound: -10, upperBound: 1500 });
  });

  it('flags power above 1.2 × the rating and above the plant capacity', () => {
    const s = powerSeries(plant, 240, 200);
    s.readings[at(plant, 12)]!.value = 250;
    expect(detectOutOfRange(s, plant).map((f) => f.detail.upperBound)).toEqual([240]);
    const meter = powerSeries(plant, 1200, 2000, { ratedPowerKw: null });
    meter.readings[at(plant, 12)]!.value = 7300;
    expect(detectOutOfRange(meter, plant).map((f) => f.detail.max)).toEqual([7300]);
  });

  it('flags frequency outside 45–65 Hz and temperatures beyond physics', () => {
    const f = timestamps(plant).map((ts) => ({ ts, value: 50 }));
    f[10]!.value = 0;
    f[20]!.value = 70;
    expect(detectOutOfRange(series('frequency', f), plant)).toHaveLength(2);
    const t = timestamps(plant).map((ts) => ({ ts, value: 30 }));
    t[5]!.value = 150;
    expect(detectOutOfRange(series('temperature_module', t), plant)).toHaveLength(1);
    expect(detectOutOfRange(series('temperature_device', t), plant)).toHaveLength(1);
  });

  it('flags a voltage above 1.5 × its day median and below zero', () => {
    const v = timestamps(plant).map((ts) => ({ ts, value: 230 }));
    v[3]!.value = 400;
    v[4]!.value = -1;
    expect(detectOutOfRange(series('voltage', v), plant).map((f) => f.readings)).toEqual([2]);
  });
});
