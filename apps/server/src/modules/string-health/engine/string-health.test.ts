import { describe, expect, it } from 'vitest';
import { judgePeerStrings, judgeStrings, stringSignal, type InverterStrings } from './string-health';

const MIN = 60_000;
const STEP = 5 * MIN;
const T0 = Date.UTC(2026, 5, 1, 0, 0);

/**
 * A clear day of one inverter with `count` strings every 5 minutes: irradiance a sine from 06:00 to 18:00
 * (peak 1000 W/m²), each string 9 A at 1000 W/m² times its own mismatch (±2 %, fixed), 600 V each.
 */
function day(count: number, shape: (n: number, t: number, current: number) => number = (_n, _t, i) => i) {
  const irradiance = new Map<number, number>();
  const strings = Array.from({ length: count }, (_, k) => ({
    n: k + 1,
    current: new Map<number, number>(),
    voltage: new Map<number, number>(),
  }));
  for (let t = T0; t < T0 + 24 * 60 * MIN; t += STEP) {
    const hour = (t - T0) / 3_600_000;
    const g = hour > 6 && hour < 18 ? 1000 * Math.sin((Math.PI * (hour - 6)) / 12) : 0;
    irradiance.set(t, g);
    for (const s of strings) {
      const mismatch = 1 + 0.02 * Math.sin(s.n * 1.7);
      s.current.set(t, shape(s.n, t, (9 * g * mismatch) / 1000));
      s.voltage.set(t, 600);
    }
  }
  return { strings, irradiance } satisfies InverterStrings;
}
const at = (h: number, m = 0) => T0 + (h * 60 + m) * MIN;

describe('string health engine', () => {
  it('finds an open string with its period and the energy it lost', () => {
    // String 7 of 12 opens at 10:00 and is reconnected at 14:00.
    const input = day(12, (n, t, i) => (n === 7 && t >= at(10) && t < at(14) ? 0.02 : i));
    const { faults, ratios } = judgeStrings(input, { intervalMs: STEP });
    expect(faults).toHaveLength(1);
    const [f] = faults;
    expect(f).toMatchObject({ n: 7, from: at(10), to: at(14) });
    expect(f!.ratio).toBeLessThan(0.01);
    // Truth: the current it would have carried (its own ~9 A × g) minus 0.02 A, at 600 V, 10:00–14:00.
    let truthWh = 0;
    const mismatch = 1 + 0.02 * Math.sin(7 * 1.7);
    for (let t = at(10); t < at(14); t += STEP) {
      const g = input.irradiance.get(t)!;
      truthWh += ((9 * g * mismatch) / 1000 - 0.02) * 600 * (STEP / 3_600_000);
    }
    // The median is the siblings' current, not the string's own: within their mismatch (±2 %) of the truth.
    expect(Math.abs(f!.energyKwh! - truthWh / 1000) / (truthWh / 1000)).toBeLessThan(0.03);
    expect(truthWh / 1000).toBeGreaterThan(15);
    expect(ratios.get(7)!.get(at(12))).toBeLessThan(0.01);
    expect(ratios.get(3)!.get(at(12))).toBeGreaterThan(0.95);
  });

  it('keeps a fault open while the string stays down, through the night', () => {
    const input = day(6, (n, t, i) => (n === 2 && t >= at(15) ? 0 : i));
    const { faults } = judgeStrings(input, { intervalMs: STEP });
    expect(faults).toEqual([expect.objectContaining({ n: 2, from: at(15), to: null })]);
  });

  it('raises nothing for a dip shorter than the sustain time', () => {
    const input = day(6, (n, t, i) => (n === 4 && t >= at(11) && t < at(11, 25) ? 0.1 * i : i));
    expect(judgeStrings(input, { intervalMs: STEP }).faults).toEqual([]);
    // The same dip held 30 minutes is one.
    const held = day(6, (n, t, i) => (n === 4 && t >= at(11) && t < at(11, 30) ? 0.1 * i : i));
    expect(judgeStrings(held, { intervalMs: STEP }).faults).toHaveLength(1);
  });

  it('sees no fault when shade or soiling lowers every string alike', () => {
    // A cloud halves every string from 10:00 to 13:00, and the afternoon's strings carry 60 % (soiled).
    const input = day(8, (_n, t, i) => (t >= at(10) && t < at(13) ? 0.5 * i : t >= at(13) ? 0.6 * i : i));
    const result = judgeStrings(input, { intervalMs: STEP });
    expect(result.faults).toEqual([]);
    for (const r of result.ratios.values()) for (const v of r.values()) expect(v).toBeGreaterThan(0.9);
  });

  it('passes no judgement at night, in low light or with fewer than three strings', () => {
    // String 1 reads 0 A all day long, but the sky never passes 150 W/m².
    const dim = day(6, (n, _t, i) => (n === 1 ? 0 : i));
    for (const [t, g] of dim.irradiance) dim.irradiance.set(t, g * 0.15);
    const result = judgeStrings(dim, { intervalMs: STEP });
    expect(result.faults).toEqual([]);
    expect(result.intervals.every((i) => i.median === null)).toBe(true);
    expect(result.ratios.get(1)!.size).toBe(0);
    // Two strings have no median to speak of.
    expect(
      judgeStrings(
        day(2, (n, _t, i) => (n === 1 ? 0 : i)),
        { intervalMs: STEP },
      ).faults,
    ).toEqual([]);
  });

  it('judges the light from the inverter power when the plant has no irradiance sensor', () => {
    const input = day(6, (n, t, i) => (n === 5 && t >= at(9) && t < at(16) ? 0 : i));
    const power = new Map([...input.irradiance].map(([t, g]) => [t, g / 10])); // 100 kW at 1000 W/m²
    const noSensor = { strings: input.strings, power, ratedKw: 100 };
    const [f] = judgeStrings(noSensor, { intervalMs: STEP }).faults;
    // Under 20 kW (200 W/m² here) nothing is judged: the fault still spans 09:00 to 16:00.
    expect(f).toMatchObject({ n: 5, from: at(9), to: at(16) });
    // Without voltage, the energy is unknown rather than zero.
    const noVolts = { ...noSensor, strings: input.strings.map(({ n, current }) => ({ n, current })) };
    expect(judgeStrings(noVolts, { intervalMs: STEP }).faults[0]!.energyKwh).toBeNull();
  });

  it('finds, against the plant-wide median, an inverter whose strings are all low together', () => {
    // Three inverters of eight strings under one sky; every string of the second carries 60 % from 09:00
    // (soiled alike, or a DC fault common to it): its own median falls with its strings and sees nothing.
    const healthy = day(8);
    const low = day(8, (_n, t, i) => (t >= at(9) ? 0.6 * i : i));
    const other = day(8, (n, _t, i) => i * (1 + 0.01 * n));
    expect(judgeStrings(low, { intervalMs: STEP }).faults).toEqual([]);
    const group = [
      { deviceId: 1, input: healthy },
      { deviceId: 2, input: low },
      { deviceId: 3, input: other },
    ];
    const judged = judgePeerStrings(group, { intervalMs: STEP });
    expect(judged.get(1)!.faults).toEqual([]);
    expect(judged.get(3)!.faults).toEqual([]);
    const faults = judged.get(2)!.faults;
    expect(faults.map((f) => f.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Judged from the first good-light interval after 09:00 on, still open at the day's end.
    for (const f of faults) {
      expect(f.to).toBeNull();
      expect(f.from).toBeGreaterThanOrEqual(at(9));
      expect(f.from).toBeLessThanOrEqual(at(9, 30));
      expect(f.ratio).toBeGreaterThan(0.55);
      expect(f.ratio).toBeLessThan(0.63);
      expect(f.energyKwh).toBeGreaterThan(0);
    }
    // Two inverters are no majority: one of two gone low is not told from the other gone high.
    expect(judgePeerStrings(group.slice(0, 2), { intervalMs: STEP }).size).toBe(0);
  });

  it('sees no plant-wide fault when the whole plant is shaded or soiled alike, nor at night', () => {
    const shaded = (k: number) =>
      day(6, (n, t, i) => (t >= at(10) && t < at(13) ? 0.5 * i : i) * (1 + 0.01 * ((n + k) % 3)));
    const judged = judgePeerStrings(
      [1, 2, 3, 4].map((deviceId) => ({ deviceId, input: shaded(deviceId) })),
      { intervalMs: STEP },
    );
    for (const result of judged.values()) {
      expect(result.faults).toEqual([]);
      expect(result.intervals.find((i) => i.t === at(2))!.median).toBeNull();
    }
  });

  it('reads the string number and kind from a signal key', () => {
    expect(stringSignal('string7_dc_current')).toEqual({ n: 7, kind: 'current' });
    expect(stringSignal('string24_dc_voltage')).toEqual({ n: 24, kind: 'voltage' });
    expect(stringSignal('mppt1_dc_current')).toBeNull();
  });
});
