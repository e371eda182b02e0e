/**
 * The coarse (hourly) model against the fine one: the same plant, weather and truth, so a history written
 * hourly before a 5-minute one shows no step at the seam, and the lifetime counters continue.
 */
import { describe, expect, it } from 'vitest';
import { exampleTopology } from './example-topology';
import { localDate } from './physics/energy';
import { createVirtualPlant, type VirtualPlantDefinition } from './plant';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP = 5 * 60_000;
/** Forty days from the spring equinox: clear, broken and overcast days, rains and a cleaning or so. */
const FROM = Date.UTC(2025, 2, 20, 21); // local midnight at Serik (UTC+3)
const DAYS = 40;

const serik = exampleTopology()[2] as VirtualPlantDefinition;
const definition: VirtualPlantDefinition = { ...serik, commissioningDate: '2023-03-20' };
const inverterSignals = definition.devices
  .filter((d) => d.type === 'inverter')
  .map((d) => d.signals.find((s) => s.key === 'total_energy')!.signalId);
const irradianceSignal = definition.devices
  .find((d) => d.type === 'weather_station')!
  .signals.find((s) => s.key === 'irradiance')!.signalId;

/** Each local day's energy of the plant's inverters (kWh) and its irradiation (Wh/m²) from the fine model. */
function fineDays(): Map<string, { kwh: number; whm2: number }> {
  const plant = createVirtualPlant(definition, { seed: 1, faults: false });
  const days = new Map<string, { kwh: number; whm2: number }>();
  const counters = new Map<number, number>();
  for (let ts = FROM; ts <= FROM + DAYS * DAY; ts += STEP) {
    const day = localDate(ts - 1, definition.timeZone);
    const d = days.get(day) ?? { kwh: 0, whm2: 0 };
    for (const device of plant.sample(ts))
      for (const p of device.points) {
        if (inverterSignals.includes(p.signalId)) {
          const before = counters.get(p.signalId);
          if (before !== undefined) d.kwh += p.value - before;
          counters.set(p.signalId, p.value);
        } else if (p.signalId === irradianceSignal && ts > FROM) d.whm2 += (p.value * STEP) / HOUR;
      }
    if (ts > FROM) days.set(day, d);
  }
  return days;
}

describe('the hourly history (coarse model)', () => {
  it("gives each day's energy and irradiation of the fine model within 3 %", () => {
    const fine = fineDays();
    const plant = createVirtualPlant(definition, { seed: 1, faults: false });
    const points = plant.hourlyHistory(FROM, FROM + DAYS * DAY);
    const coarse = new Map<string, { kwh: number; whm2: number }>();
    const counters = new Map<number, number>();
    for (const p of points) {
      const day = localDate(p.hourMs, definition.timeZone);
      const d = coarse.get(day) ?? { kwh: 0, whm2: 0 };
      if (inverterSignals.includes(p.signalId)) {
        const before = counters.get(p.signalId);
        if (before !== undefined) d.kwh += p.value - before;
        counters.set(p.signalId, p.value);
      } else if (p.signalId === irradianceSignal) d.whm2 += p.value;
      coarse.set(day, d);
    }
    const ratios = [...fine].slice(1).map(([day, f]) => coarse.get(day)!.kwh / f.kwh);
    const irradiation = [...fine].slice(1).map(([day, f]) => coarse.get(day)!.whm2 / f.whm2);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const mean = (xs: number[]) => sum(xs) / xs.length;
    const seen = `energy ratios ${ratios.map((r) => r.toFixed(3)).join(' ')}`;
    const sd = Math.sqrt(mean(ratios.map((r) => (r - mean(ratios)) ** 2)));
    // The coarse model samples the field's clouds at the fine model's instants, so its days follow the
    // fine model's day by day; what differs is the module temperature's lag (steady here) and the sensor
    // noise. Measured: energy 0.996 of the fine model's (σ 0.2 % between days), irradiation 1.000.
    expect(Math.abs(mean(ratios) - 1), seen).toBeLessThan(0.01);
    expect(sd, seen).toBeLessThan(0.01);
    expect(Math.abs(mean(irradiation) - 1), seen).toBeLessThan(0.01);
    for (const r of ratios) expect(Math.abs(r - 1), seen).toBeLessThan(0.03);
  });

  it('continues its lifetime counters into the first sample, from the commissioning estimate', () => {
    const plant = createVirtualPlant(definition, { seed: 1, faults: false });
    const commissioned = Date.UTC(2023, 2, 20);
    const first = plant.hourlyHistory(commissioned, commissioned + 10 * DAY);
    const second = plant.hourlyHistory(commissioned + 10 * DAY, commissioned + 20 * DAY);
    const sample = plant.sample(commissioned + 20 * DAY);
    for (const signalId of inverterSignals) {
      const ofSignal = [...first, ...second].filter((p) => p.signalId === signalId);
      expect(ofSignal).toHaveLength(20 * 24);
      // Commissioned that midnight: the counter starts at the factory test's 1 kWh.
      expect(ofSignal[0]!.value).toBeLessThan(2);
      const last = ofSignal.at(-1)!.value;
      expect(last).toBeGreaterThan(3_000);
      const reported = sample.flatMap((d) => d.points).find((p) => p.signalId === signalId)!.value;
      expect(reported).toBe(last);
    }
    expect(() => plant.hourlyHistory(commissioned + 20 * DAY, commissioned + 21 * DAY)).toThrow(RangeError);
  });
});
