import { describe, expect, it } from 'vitest';
import { exampleTopology } from './example-topology';
import { backfillPlants, createVirtualPlant } from './plant';
import type { DeviceSample, TelemetryPoint, VirtualPlantDefinition } from './plant';

const MIN = 60_000;
const DAY = 86_400_000;

const [karapinar, , , stip] = exampleTopology() as [
  VirtualPlantDefinition,
  VirtualPlantDefinition,
  VirtualPlantDefinition,
  VirtualPlantDefinition,
];

const byDevice = (samples: DeviceSample[], id: string) => samples.find((s) => s.deviceId === id)!;

function run(definition: VirtualPlantDefinition, from: number, to: number, step: number, options = {}) {
  const plant = createVirtualPlant(definition, { seed: 7, ...options });
  const out: { ts: number; samples: DeviceSample[] }[] = [];
  for (let ts = from; ts <= to; ts += step) out.push({ ts, samples: plant.sample(ts) });
  return out;
}

describe('virtual plant', () => {
  it('produces plausible values at noon on a clear June day and nothing at night', () => {
    const plant = createVirtualPlant(karapinar, { seed: 1, clouds: false, faults: false });
    plant.sample(Date.UTC(2025, 5, 21, 3, 0));
    const noon = plant.sample(Date.UTC(2025, 5, 21, 9, 45));
    const inv = byDevice(noon, 'inv-01').values;
    expect(inv.ac_power).toBeGreaterThan(80);
    expect(inv.ac_power).toBeLessThanOrEqual(100);
    expect(inv.dc_power).toBeGreaterThan(inv.ac_power!);
    expect(inv.status_code).toBeOneOf([4, 5]);
    expect(inv.dc_voltage).toBeGreaterThan(450);
    expect(inv.ac_voltage).toBeGreaterThan(220);
    expect(inv.ac_current).toBeGreaterThan(100);
    expect(inv.daily_energy).toBeGreaterThan(100);
    const ws = byDevice(noon, 'ws-1').values;
    expect(ws.irradiance).toBeGreaterThan(850);
    expect(ws.irradiance).toBeLessThan(1100);
    expect(ws.module_temperature).toBeGreaterThan(ws.ambient_temperature! + 15);
    const meter = byDevice(noon, 'meter-1').values;
    const sumAc = noon.filter((s) => s.type === 'inverter').reduce((s, d) => s + d.values.ac_power!, 0);
    expect(meter.active_power).toBeLessThan(sumAc);
    expect(meter.active_power).toBeGreaterThan(sumAc * 0.97);
    expect(meter.frequency).toBeGreaterThan(49.9);
    expect(meter.power_factor).toBeGreaterThan(0.9);
    const tr = byDevice(noon, 'tr-1').values;
    expect(tr.load).toBeGreaterThan(60);
    expect(tr.load).toBeLessThan(100);

    const night = plant.sample(Date.UTC(2025, 5, 21, 22, 0));
    const invNight = byDevice(night, 'inv-01').values;
    expect(invNight.ac_power).toBe(0);
    expect(invNight.dc_power).toBe(0);
    expect(invNight.status_code).toBe(2);
    expect(byDevice(night, 'ws-1').values.irradiance).toBe(0);
    // At night the plant draws its own consumption from the grid.
    expect(byDevice(night, 'meter-1').values.active_power).toBeLessThan(0);
  });

  it('maps values to signal ids', () => {
    const plant = createVirtualPlant(karapinar, { seed: 1, faults: false });
    const inv = byDevice(plant.sample(Date.UTC(2025, 5, 21, 9, 0)), 'inv-01');
    const def = karapinar.devices.find((d) => d.deviceId === 'inv-01')!;
    expect(inv.points).toHaveLength(def.signals.length);
    for (const s of def.signals) {
      expect(inv.points.find((p) => p.signalId === s.signalId)?.value).toBe(inv.values[s.key]);
    }
  });

  it('keeps AC within the rating and counters monotonic over a cloudy, faulty month', () => {
    const series = run(stip, Date.UTC(2025, 4, 1), Date.UTC(2025, 5, 1), 5 * MIN, {
      faults: { inverterTripsPerDay: 0.5, commLossesPerDay: 1, stringLossesPerDay: 0.3 },
    });
    const last = new Map<string, Record<string, number>>();
    let trips = 0;
    let offline = 0;
    let clippedOrFull = 0;
    for (const { samples } of series) {
      for (const s of samples) {
        const r = s.readings;
        const key = String(s.deviceId);
        const prev = last.get(key);
        if (s.type === 'inverter') {
          expect(r.ac_power).toBeLessThanOrEqual(100);
          expect(r.ac_power).toBeGreaterThanOrEqual(0);
          if (prev) expect(r.total_energy).toBeGreaterThanOrEqual(prev.total_energy!);
          if (r.status_code === 7) {
            trips++;
            expect(r.ac_power).toBe(0);
            expect(r.event_bits).toBeGreaterThan(0);
          }
          if (r.ac_power! >= 99) clippedOrFull++;
        }
        if (s.type === 'meter' && prev) {
          expect(r.export_energy).toBeGreaterThanOrEqual(prev.export_energy!);
          expect(r.import_energy).toBeGreaterThanOrEqual(prev.import_energy!);
        }
        if (!s.online) {
          offline++;
          expect(s.values).toEqual({});
        }
        last.set(key, r);
      }
    }
    expect(trips).toBeGreaterThan(0);
    expect(offline).toBeGreaterThan(0);
    expect(clippedOrFull).toBeGreaterThanOrEqual(0);
    // May in Štip, 1440 kWp: a plausible monthly yield of 120–200 kWh/kWp.
    // The export counter is a lifetime counter (it starts at what the plant produced since 2020): the
    // month's yield is its increase.
    const exportAt = (i: number) =>
      series.at(i)!.samples.find((s) => s.deviceId === 'meter-1')!.readings.export_energy!;
    expect(exportAt(0)).toBeGreaterThan(1000 * stip.dcCapacityKwp);
    const total = exportAt(-1) - exportAt(0);
    expect(total / stip.dcCapacityKwp).toBeGreaterThan(100);
    expect(total / stip.dcCapacityKwp).toBeLessThan(220);
  });

  for (const [definition, zone, midnightUtcHour] of [
    [karapinar, 'Europe/Istanbul', 21],
    [stip, 'Europe/Skopje', 22],
  ] as const) {
    it(`restarts daily energy at local midnight (${zone})`, () => {
      expect(definition.timeZone).toBe(zone);
      const series = run(definition, Date.UTC(2025, 5, 20, 12), Date.UTC(2025, 5, 22, 12), 5 * MIN);
      const daily = (ts: number) =>
        series.find((s) => s.ts === ts)!.samples.find((d) => d.deviceId === 'inv-02')!.readings.daily_energy!;
      const midnight = Date.UTC(2025, 5, 20, midnightUtcHour);
      expect(daily(midnight - 5 * MIN)).toBeGreaterThan(50);
      expect(daily(midnight)).toBe(0);
      expect(daily(midnight + 4 * 3_600_000)).toBe(0);
      // Daily energy equals the growth of the total since local midnight.
      const total = (ts: number) =>
        series.find((s) => s.ts === ts)!.samples.find((d) => d.deviceId === 'inv-02')!.readings.total_energy!;
      const evening = midnight + DAY - 5 * MIN;
      expect(daily(evening)).toBeCloseTo(total(evening) - total(midnight), 1);
    });
  }

  it('repeats the same series for the same seed and differs for another', () => {
    const values = (seed: number) => {
      const plant = createVirtualPlant(karapinar, { seed });
      const out: number[] = [];
      for (let ts = Date.UTC(2025, 3, 1); ts < Date.UTC(2025, 3, 4); ts += 10 * MIN) {
        for (const s of plant.sample(ts)) out.push(...Object.values(s.readings));
      }
      return out;
    };
    const a = values(5);
    expect(values(5)).toEqual(a);
    expect(values(6)).not.toEqual(a);
  });

  it('integrates correctly whatever the sampling interval', () => {
    const energy = (step: number) => {
      const plant = createVirtualPlant(karapinar, { seed: 3, faults: false, clouds: false });
      let last: DeviceSample[] = [];
      for (let ts = Date.UTC(2025, 5, 21, 0); ts <= Date.UTC(2025, 5, 21, 20); ts += step)
        last = plant.sample(ts);
      return byDevice(last, 'inv-01').readings.total_energy!;
    };
    const fine = energy(MIN);
    expect(fine).toBeGreaterThan(500);
    expect(energy(60 * MIN)).toBeCloseTo(fine, -1);
  });

  it('trips on demand and reports the fault state', () => {
    const plant = createVirtualPlant(karapinar, { seed: 1, faults: false, clouds: false });
    const t0 = Date.UTC(2025, 5, 21, 9);
    plant.sample(t0);
    plant.forceFault('inv-03', 'trip', t0, 10 * MIN);
    plant.forceFault('meter-1', 'comm_loss', t0, 10 * MIN);
    const during = plant.sample(t0 + MIN);
    expect(byDevice(during, 'inv-03').values.status_code).toBe(7);
    expect(byDevice(during, 'inv-03').values.ac_power).toBe(0);
    expect(byDevice(during, 'meter-1').online).toBe(false);
    const after = plant.sample(t0 + 11 * MIN);
    expect(byDevice(after, 'inv-03').values.status_code).toBe(4);
    expect(byDevice(after, 'meter-1').online).toBe(true);
  });

  it('backfills a month of six plants at 5-minute steps in seconds', async () => {
    const plants = exampleTopology().map((d) => createVirtualPlant(d, { seed: 11 }));
    let batches = 0;
    let largest = 0;
    let lastTs = 0;
    const from = Date.UTC(2025, 4, 1);
    const to = Date.UTC(2025, 4, 31);
    const result = await backfillPlants(plants, from, to, 5 * MIN, (points: TelemetryPoint[]) => {
      batches++;
      largest = Math.max(largest, points.length);
      lastTs = Math.max(lastTs, points.at(-1)!.ts);
    });
    expect(result.samples).toBe(6 * (30 * 288 + 1));
    expect(largest).toBeLessThanOrEqual(10_000);
    expect(batches).toBeGreaterThan(100);
    expect(lastTs).toBe(to);
    expect(result.elapsedMs).toBeLessThan(20_000);
    console.warn(
      `backfill: ${result.samples} plant samples, ${result.points} points in ${Math.round(result.elapsedMs)} ms`,
    );
  });
});
