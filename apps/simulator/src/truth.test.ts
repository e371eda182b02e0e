import { describe, expect, it } from 'vitest';
import { exampleTopology } from './example-topology';
import { DATA_FAULT_KINDS, SPIKE_SHARE, exampleDataFaults } from './physics/data-faults';
import type { DataFault } from './physics/data-faults';
import { DEGRADATION_RANGE_PER_YEAR, degradationFactor } from './physics/degradation';
import { lifetimeEnergyEstimateKwh } from './physics/energy';
import { solarDayIndex } from './physics/field-weather';
import { inverterEfficiency } from './physics/power';
import { SOILING_RATE_RANGE_PER_DAY, SoilingModel } from './physics/soiling';
import { createVirtualPlant } from './plant';
import type { DeviceSample, VirtualPlantDefinition, VirtualPlantOptions } from './plant';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;

const [karapinar1, karapinar2, serik] = exampleTopology() as [
  VirtualPlantDefinition,
  VirtualPlantDefinition,
  VirtualPlantDefinition,
];
const byId = (samples: DeviceSample[], id: string) => samples.find((s) => s.deviceId === id)!;
const inverterIds = (d: VirtualPlantDefinition) =>
  d.devices.filter((x) => x.type === 'inverter').map((x) => String(x.deviceId));

/** A morning hour in March at Konya: sun well up, far from clipping (DC below the inverters' rating). */
const MARCH_MORNING = Date.UTC(2026, 2, 10, 6, 30);

describe('degradation per inverter (ground truth)', () => {
  it('draws a rate per inverter within −0.9…−0.3 %/yr, different between inverters, repeatably', () => {
    const truth = createVirtualPlant(karapinar1, { seed: 3 }).truth();
    const rates = inverterIds(karapinar1).map((id) => truth.degradationPerYear[id]!);
    for (const r of rates) {
      expect(r).toBeGreaterThanOrEqual(DEGRADATION_RANGE_PER_YEAR[0]);
      expect(r).toBeLessThanOrEqual(DEGRADATION_RANGE_PER_YEAR[1]);
    }
    expect(new Set(rates).size).toBe(rates.length);
    expect(createVirtualPlant(karapinar1, { seed: 3 }).truth().degradationPerYear).toEqual(
      truth.degradationPerYear,
    );
  });

  it('takes 1 + rate × years off each array from the commissioning date: −0.6 %/yr over 4 years is −2.4 %', () => {
    const definition = { ...karapinar1, commissioningDate: '2022-03-10' };
    const years = (MARCH_MORNING - Date.parse('2022-03-10T00:00:00Z')) / YEAR;
    const base: VirtualPlantOptions = { seed: 5, clouds: false, faults: false, soiling: false };
    const fresh = createVirtualPlant(definition, { ...base, degradationPerYear: false }).sample(
      MARCH_MORNING,
    );
    const aged = createVirtualPlant(definition, { ...base, degradationPerYear: -0.006 });
    const agedSamples = aged.sample(MARCH_MORNING);
    expect(degradationFactor(-0.006, 0, 4 * YEAR)).toBeCloseTo(0.976, 12);
    for (const id of inverterIds(definition)) {
      const dcFresh = byId(fresh, id).readings.dc_power!;
      expect(dcFresh).toBeGreaterThan(20);
      expect(byId(fresh, id).readings.status_code).toBe(4); // MPPT, not throttled
      const ratio = byId(agedSamples, id).readings.dc_power! / dcFresh;
      expect(ratio).toBeCloseTo(1 - 0.006 * years, 3);
      expect(aged.truth().degradationFactor(id, MARCH_MORNING)).toBeCloseTo(1 - 0.006 * years, 12);
    }
    // About 4 years: 2.4 % less DC.
    expect(years).toBeGreaterThan(3.99);
    expect(years).toBeLessThan(4.01);
  });

  it('applies each inverter its own drawn rate', () => {
    const definition = { ...karapinar1, commissioningDate: '2023-03-10' };
    const base: VirtualPlantOptions = { seed: 9, clouds: false, faults: false, soiling: false };
    const fresh = createVirtualPlant(definition, { ...base, degradationPerYear: false }).sample(
      MARCH_MORNING,
    );
    const plant = createVirtualPlant(definition, base);
    const samples = plant.sample(MARCH_MORNING);
    const truth = plant.truth();
    for (const id of inverterIds(definition)) {
      const ratio = byId(samples, id).readings.dc_power! / byId(fresh, id).readings.dc_power!;
      expect(ratio).toBeCloseTo(truth.degradationFactor(id, MARCH_MORNING), 3);
    }
  });
});

describe('soiling (ground truth)', () => {
  it('accumulates a rate per dry day and resets on rain and on cleaning, worked by hand', () => {
    // Commissioned on day 100, rain on day 110, cleaning every 30 days (130, 160), 0.2 %/day.
    const model = new SoilingModel((d) => d === 110, 100, 0.002, 30);
    expect(model.ratio(100)).toBe(1);
    expect(model.ratio(105)).toBeCloseTo(0.99, 12);
    expect(model.ratio(109)).toBeCloseTo(0.982, 12);
    expect(model.ratio(110)).toBe(1);
    expect(model.ratio(112)).toBeCloseTo(0.996, 12);
    expect(model.ratio(129)).toBeCloseTo(0.962, 12);
    expect(model.ratio(130)).toBe(1);
    expect(model.ratio(131)).toBeCloseTo(0.998, 12);
    expect(model.resets(100, 161)).toEqual([
      { day: 100, kind: 'commissioning' },
      { day: 110, kind: 'rain' },
      { day: 130, kind: 'cleaning' },
      { day: 160, kind: 'cleaning' },
    ]);
    // A long drought stops at the floor, and before commissioning the modules are new.
    const dry = new SoilingModel(() => false, 0, 0.003, 0);
    expect(dry.ratio(50)).toBeCloseTo(0.85, 12);
    expect(dry.ratio(500)).toBe(0.7);
    expect(dry.ratio(-3)).toBe(1);
    // Asked out of order, the answer is the same.
    expect(new SoilingModel((d) => d === 110, 100, 0.002, 30).ratio(129)).toBeCloseTo(0.962, 12);
  });

  it("costs the plant the truth's soiling ratio of its DC, and rains mostly in winter", () => {
    const definition = { ...karapinar1, commissioningDate: '2025-01-01' };
    const base: VirtualPlantOptions = { seed: 4, faults: false, degradationPerYear: false };
    const soiled = createVirtualPlant(definition, base);
    const clean = createVirtualPlant(definition, { ...base, soiling: false });
    const truth = soiled.truth();
    expect(truth.soilingRatePerDay).toBeGreaterThanOrEqual(SOILING_RATE_RANGE_PER_DAY[0]);
    expect(truth.soilingRatePerDay).toBeLessThanOrEqual(SOILING_RATE_RANGE_PER_DAY[1]);
    // A sample every 8 days at 09:00 UTC for a year (more than a week apart, each starts afresh).
    let compared = 0;
    for (let ts = Date.UTC(2025, 0, 1, 9); ts < Date.UTC(2026, 0, 1); ts += 8 * DAY) {
      const s = soiled.sample(ts);
      const c = clean.sample(ts);
      const dcClean = byId(c, 'inv-01').readings.dc_power!;
      if (dcClean > 20 && byId(c, 'inv-01').readings.status_code === 4) {
        // Below clipping DC is linear in POA (the temperature is the same: the pyranometer is kept clean).
        expect(byId(s, 'inv-01').readings.dc_power! / dcClean).toBeCloseTo(truth.soilingRatio(ts), 2);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
    const ratios: number[] = [];
    for (let ts = Date.UTC(2025, 0, 1, 9); ts < Date.UTC(2026, 0, 1); ts += DAY)
      ratios.push(truth.soilingRatio(ts));
    const resets = truth.soilingResets(Date.UTC(2025, 0, 1), Date.UTC(2025, 11, 31));
    const rains = resets.filter((r) => r.kind === 'rain');
    const cleanings = resets.filter((r) => r.kind === 'cleaning');
    expect(cleanings.length).toBe(4); // every 90 days
    expect(rains.length).toBeGreaterThan(5);
    const summerRains = rains.filter((r) => {
      const m = new Date(r.dayStartMs + 12 * HOUR).getUTCMonth();
      return m >= 5 && m <= 7;
    });
    expect(summerRains.length).toBeLessThan(rains.length / 4);
    for (const r of resets) {
      expect(truth.soilingRatio(r.dayStartMs + 12 * HOUR)).toBe(1);
      if (r.kind === 'rain') expect(truth.rainOn(r.dayStartMs + 12 * HOUR)).toBe(true);
    }
    expect(Math.min(...ratios)).toBeLessThan(0.95);
  });
});

describe('inverter efficiency curve', () => {
  it('follows the PVWatts v5 part-load curve: 0 at no load, 94.1 % at 10 %, peak ≈ 98.3 % near 60 %, 98 % at full', () => {
    expect(inverterEfficiency(0)).toBe(0);
    // (0.98 / 0.9637) · (−0.0162 · 0.1 − 0.0059 / 0.1 + 0.9858) = 0.94083
    expect(inverterEfficiency(0.1)).toBeCloseTo(0.94083, 4);
    expect(inverterEfficiency(1)).toBeCloseTo(0.98, 10);
    const loads = Array.from({ length: 100 }, (_, i) => (i + 1) / 100);
    const etas = loads.map((l) => inverterEfficiency(l));
    const peak = Math.max(...etas);
    const peakLoad = loads[etas.indexOf(peak)]!;
    // dη/dζ = 0 at ζ = √(0.0059 / 0.0162) = 0.603
    expect(peakLoad).toBeCloseTo(0.6, 1);
    expect(peak).toBeCloseTo((0.98 / 0.9637) * (0.9858 - 2 * Math.sqrt(0.0162 * 0.0059)), 4);
    // Rising to the peak, falling gently after it.
    for (let i = 1; i < etas.length; i++) {
      if (loads[i]! <= 0.6) expect(etas[i]!).toBeGreaterThan(etas[i - 1]!);
      else expect(etas[i]!).toBeLessThan(etas[i - 1]!);
    }
  });

  it("is what the plant's inverters report, and the truth names it", () => {
    const plant = createVirtualPlant(karapinar1, { seed: 2, clouds: false, faults: false });
    const inv = byId(plant.sample(MARCH_MORNING), 'inv-01').readings;
    const dcLoad = inv.dc_power! / (100 / 0.98);
    expect(inv.efficiency! / 100).toBeCloseTo(inverterEfficiency(dcLoad), 3);
    const truth = plant.truth();
    expect(truth.inverterEfficiency.model).toBe('pvwatts-v5');
    expect(truth.inverterEfficiency.curve(0.5)).toBe(inverterEfficiency(0.5));
    expect(truth.losses.cableFraction).toBeGreaterThan(0);
    expect(truth.losses.transformerLoadFractionOfRating).toBeGreaterThan(0);
  });
});

describe('data faults injected on a schedule (ground truth)', () => {
  const start = Date.UTC(2026, 5, 1, 0, 0);
  const faults: DataFault[] = [
    {
      kind: 'stuck_sensor',
      deviceId: 'ws-1',
      signalKey: 'irradiance',
      fromMs: start + DAY + 8 * HOUR,
      toMs: start + DAY + 11 * HOUR,
    },
    {
      kind: 'spikes',
      deviceId: 'inv-02',
      signalKey: 'ac_power',
      fromMs: start + DAY + 5 * HOUR,
      toMs: start + DAY + 14 * HOUR,
    },
    {
      kind: 'counter_reset',
      deviceId: 'inv-03',
      signalKey: 'total_energy',
      fromMs: start + DAY + 9 * HOUR,
      toMs: start + DAY + 9 * HOUR,
    },
    { kind: 'clock_shift', deviceId: 'inv-04', fromMs: start + DAY, toMs: start + 2 * DAY },
    {
      kind: 'replayed_day',
      deviceId: 'inv-05',
      fromMs: start + DAY + 21 * HOUR,
      toMs: start + 2 * DAY + 21 * HOUR,
    },
    {
      kind: 'soiled_irradiance_sensor',
      deviceId: 'ws-1',
      fromMs: start + 2 * DAY,
      toMs: start + 3 * DAY,
      magnitude: 0.02,
    },
  ];
  const step = 5 * MIN;
  const run = () => {
    const options: VirtualPlantOptions = { seed: 11, faults: false };
    const faulty = createVirtualPlant(karapinar1, { ...options, dataFaults: faults });
    const clean = createVirtualPlant(karapinar1, options);
    const series: { ts: number; f: DeviceSample[]; c: DeviceSample[] }[] = [];
    for (let ts = start; ts < start + 3 * DAY; ts += step) {
      series.push({ ts, f: faulty.sample(ts), c: clean.sample(ts) });
    }
    return { series, truth: faulty.truth() };
  };
  const { series, truth } = run();
  const at = (ts: number) => series.find((s) => s.ts === ts)!;
  const value = (samples: DeviceSample[], id: string, key: string) => byId(samples, id).values[key]!;
  const inside = (f: DataFault, ts: number) => ts >= f.fromMs && ts < f.toMs;

  it('records every kind with its period and the reason an engine should give', () => {
    expect(truth.dataFaults.map((f) => f.kind)).toEqual([...DATA_FAULT_KINDS]);
    expect(truth.dataFaults.map((f) => f.reason)).toEqual([
      'stale',
      'spike',
      'counter_reset',
      'clock_shift',
      'replayed_day',
      'irradiance_power_drift',
    ]);
    for (const [i, f] of truth.dataFaults.entries()) {
      expect(f.fromMs).toBe(faults[i]!.fromMs);
      expect(f.toMs).toBe(faults[i]!.toMs);
    }
  });

  it('sticks the sensor at its last value within the period only', () => {
    const f = faults[0]!;
    const before = value(at(f.fromMs - step).c, 'ws-1', 'irradiance');
    for (const { ts, f: faulty, c } of series) {
      const v = value(faulty, 'ws-1', 'irradiance');
      if (inside(f, ts)) expect(v).toBe(before);
      else if (!inside(faults[5]!, ts)) expect(v).toBe(value(c, 'ws-1', 'irradiance'));
    }
  });

  it('spikes some samples of the period, and records each instant', () => {
    const f = faults[1]!;
    const instants = truth.dataFaults[1]!.instantsMs;
    const samplesInPeriod = series.filter((s) => inside(f, s.ts)).length;
    expect(instants.length).toBeGreaterThan(2);
    expect(instants.length).toBeLessThan(samplesInPeriod * SPIKE_SHARE * 3);
    for (const { ts, f: faulty, c } of series) {
      const v = value(faulty, 'inv-02', 'ac_power');
      const clean = value(c, 'inv-02', 'ac_power');
      if (instants.includes(ts)) {
        expect(inside(f, ts)).toBe(true);
        expect(v).toBeCloseTo(clean * 2.5, 2);
      } else expect(v).toBe(clean);
    }
  });

  it('resets the counter to 0 at the first sample of the reset, then counts on', () => {
    const f = faults[2]!;
    expect(truth.dataFaults[2]!.instantsMs).toEqual([f.fromMs]);
    const offset = value(at(f.fromMs).c, 'inv-03', 'total_energy');
    // A day and nine hours of production on a counter that started new.
    expect(offset).toBeGreaterThan(300);
    for (const { ts, f: faulty, c } of series) {
      const v = value(faulty, 'inv-03', 'total_energy');
      const clean = value(c, 'inv-03', 'total_energy');
      if (ts < f.fromMs) expect(v).toBe(clean);
      else expect(v).toBeCloseTo(clean - offset, 2);
    }
    expect(value(at(f.fromMs).f, 'inv-03', 'total_energy')).toBe(0);
  });

  it('shifts the clock by an hour: each reading is stamped an hour late', () => {
    const f = faults[3]!;
    for (const { ts, f: faulty, c } of series) {
      if (inside(f, ts))
        expect(byId(faulty, 'inv-04').values).toEqual(byId(at(ts - HOUR).c, 'inv-04').values);
      else expect(byId(faulty, 'inv-04').values).toEqual(byId(c, 'inv-04').values);
    }
  });

  it('replays the day before within the period', () => {
    const f = faults[4]!;
    for (const { ts, f: faulty, c } of series) {
      if (inside(f, ts)) expect(byId(faulty, 'inv-05').values).toEqual(byId(at(ts - DAY).c, 'inv-05').values);
      else expect(byId(faulty, 'inv-05').values).toEqual(byId(c, 'inv-05').values);
    }
  });

  it('soils the irradiance sensor by its rate per day since the start of the period', () => {
    const f = faults[5]!;
    let checked = 0;
    for (const { ts, f: faulty, c } of series) {
      const clean = value(c, 'ws-1', 'irradiance');
      const v = value(faulty, 'ws-1', 'irradiance');
      if (!inside(f, ts) || clean < 100) continue;
      checked++;
      expect(v / clean).toBeCloseTo(1 - 0.02 * ((ts - f.fromMs) / DAY), 2);
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("gives the CLI's example schedule one fault of each kind, on the plant's devices, after the start", () => {
    const startMs = Date.UTC(2026, 10, 24, 15, 27);
    const example = exampleDataFaults(karapinar1, startMs);
    expect(new Set(example.map((f) => f.kind))).toEqual(new Set(DATA_FAULT_KINDS));
    const ids = new Set(karapinar1.devices.map((d) => d.deviceId));
    for (const f of example) {
      expect(ids.has(f.deviceId)).toBe(true);
      expect(f.fromMs).toBeGreaterThan(startMs);
      expect(f.toMs).toBeGreaterThanOrEqual(f.fromMs);
    }
    const stuck = example.find((f) => f.kind === 'stuck_sensor')!;
    expect(stuck.fromMs).toBe(Date.UTC(2026, 10, 25, 7));
  });

  it('injects the same faults again for the same seed', () => {
    expect(run().truth.dataFaults).toEqual(truth.dataFaults);
  });
});

describe('one weather per field', () => {
  it('gives two plants of one field the same cloud at the same minute, however each is sampled', () => {
    expect(karapinar1.field?.id).toBe(karapinar2.field?.id);
    const a = createVirtualPlant(karapinar1, { seed: 1, faults: false });
    const b = createVirtualPlant(karapinar2, { seed: 1, faults: false });
    const other = createVirtualPlant(serik, { seed: 1, faults: false });
    const from = Date.UTC(2026, 3, 14, 5);
    let differentFromOther = 0;
    let cloudyMinutes = 0;
    for (let ts = from; ts < from + 10 * HOUR; ts += MIN) {
      a.sample(ts);
      // b is sampled only every 5 minutes, other every minute
      if ((ts - from) % (5 * MIN) === 0) {
        const samplesB = b.sample(ts);
        const wa = a.weather()!;
        const wb = b.weather()!;
        expect(wb.cloudCover).toBe(wa.cloudCover);
        expect(wb.clearSkyIndex).toBe(wa.clearSkyIndex);
        if (wa.clearSkyIndex < 0.9) cloudyMinutes++;
        // The pyranometers agree within noise and the small difference of tilt, never 39 against 386 W/m².
        const ia = byId(a.sample(ts), 'ws-1').values.irradiance!;
        const ib = byId(samplesB, 'ws-1').values.irradiance!;
        if (ia > 50) expect(Math.abs(ib - ia) / ia).toBeLessThan(0.08);
      }
      other.sample(ts);
      if (other.weather()!.clearSkyIndex !== a.weather()!.clearSkyIndex) differentFromOther++;
    }
    expect(cloudyMinutes + differentFromOther).toBeGreaterThan(0);
    expect(differentFromOther).toBeGreaterThan(100);
  });

  it('shares the rain days of the field, and soiling resets on them for both plants', () => {
    const a = createVirtualPlant(karapinar1, { seed: 1 }).truth();
    const b = createVirtualPlant(karapinar2, { seed: 1 }).truth();
    let rains = 0;
    for (let ts = Date.UTC(2025, 0, 1, 12); ts < Date.UTC(2026, 0, 1); ts += DAY) {
      expect(b.rainOn(ts)).toBe(a.rainOn(ts));
      if (a.rainOn(ts)) rains++;
    }
    expect(rains).toBeGreaterThan(5);
    expect(solarDayIndex(Date.UTC(2025, 0, 1, 12), 33.5)).toBe(solarDayIndex(Date.UTC(2025, 0, 1, 12), 33.6));
  });
});

describe('lifetime counters at start', () => {
  it("start at the commissioning estimate with each inverter's own degradation", () => {
    const night = Date.UTC(2026, 10, 23, 23, 0);
    const definition = { ...karapinar1, commissioningDate: '2021-06-15' };
    const plant = createVirtualPlant(definition, { seed: 1, faults: false });
    const samples = plant.sample(night);
    const truth = plant.truth();
    const ids = inverterIds(definition);
    const dcKwp = definition.dcCapacityKwp / ids.length;
    for (const id of ids) {
      const expected = lifetimeEnergyEstimateKwh(
        dcKwp,
        definition.latitude,
        Date.parse('2021-06-15T00:00:00Z'),
        night,
        -truth.degradationPerYear[id]!,
      );
      expect(byId(samples, id).readings.total_energy).toBeCloseTo(expected, 2);
    }
    expect(truth.commissionedMs).toBe(Date.parse('2021-06-15T00:00:00Z'));
  });
});
