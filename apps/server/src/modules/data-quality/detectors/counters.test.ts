import { describe, expect, it } from 'vitest';
import { detectCounterFaults } from './counters';
import { at, counterSeries, konyaDay } from './synthetic-day';

describe('counter faults', () => {
  const plant = konyaDay();

  it('finds nothing on a clear day', () => {
    expect(detectCounterFaults(counterSeries(plant, 240, 200, 50_000), plant)).toEqual([]);
  });

  it('flags the restart jump: 83 kWh in 41 s on a 1.2 MW meter, maxKwh = 1200 × 41/3600 × 1.2', () => {
    const s = counterSeries(plant, 1440, 1200, 900_000, { ratedPowerKw: 1200 });
    const i = at(plant, 12);
    const before = s.readings[i]!;
    // One reading 41 s after 12:00 carries 83 kWh more than the counter held; the rest follow it.
    s.readings.splice(i + 1, 0, { ts: before.ts + 41_000, value: before.value + 83 });
    for (let k = i + 2; k < s.readings.length; k++) s.readings[k]!.value += 83;
    const flags = detectCounterFaults(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ reason: 'counter_jump', fromMs: before.ts, readings: 1 });
    expect(flags[0]!.detail.jumpKwh).toBeCloseTo(83, 1);
    expect(flags[0]!.detail.maxKwh).toBeCloseTo(16.4, 1);
    expect(flags[0]!.detail.seconds).toBe(41);
  });

  it('tells a reset, a step back and an acc32 wrap apart', () => {
    const reset = counterSeries(plant, 240, 200, 50_000);
    const i = at(plant, 14);
    const base = reset.readings[i]!.value;
    for (let k = i; k < reset.readings.length; k++) reset.readings[k]!.value -= base - 0.5;
    expect(detectCounterFaults(reset, plant).map((f) => [f.reason, f.detail.toKwh])).toEqual([
      ['counter_reset', 0.5],
    ]);

    const back = counterSeries(plant, 240, 200, 50_000);
    back.readings[i]!.value -= 30;
    const flags = detectCounterFaults(back, plant).map((f) => f.reason);
    // Down by 30 kWh, then up by 30 kWh plus the interval's energy: the recovery is a jump.
    expect(flags).toEqual(['counter_backwards', 'counter_jump']);

    // A Wh register (scale 0.001 kWh) wraps at 2³² Wh = 4 294 967.296 kWh.
    const modulus = 2 ** 32 / 1000;
    const wrap = counterSeries(plant, 240, 200, modulus - 500, { counterBits: 32 });
    for (const r of wrap.readings)
      if (r.value >= modulus) r.value = Math.round((r.value - modulus) * 10) / 10;
    const wf = detectCounterFaults(wrap, plant);
    expect(wf.map((f) => f.reason)).toEqual(['counter_wrap']);
    expect(wf[0]!.detail.modulusKwh).toBeCloseTo(modulus, 3);
    // The same drop on a counter that cannot wrap is a reset.
    expect(detectCounterFaults({ ...wrap, counterBits: null }, plant).map((f) => f.reason)).toEqual([
      'counter_reset',
    ]);
  });

  it('judges the first reading against the one before the day', () => {
    const s = counterSeries(plant, 240, 200, 50_000);
    s.previous = { ts: plant.dayStartMs - 300_000, value: 60_000 };
    expect(detectCounterFaults(s, plant).map((f) => [f.reason, f.fromMs])).toEqual([
      ['counter_backwards', plant.dayStartMs],
    ]);
  });
});
