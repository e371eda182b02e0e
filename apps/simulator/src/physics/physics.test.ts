import {
  clearSkyGhiHaurwitz,
  dayOfYear,
  decomposeGhi,
  moduleTemperatureFaiman,
  planeOfArrayIsotropic,
  sunPosition,
} from '@solar/pv-model';
import { describe, expect, it } from 'vitest';
import { CloudProcess, clearSkyIndex } from './clouds';
import { EnergyCounter, localDate, nextLocalMidnight, trapezoidKwh } from './energy';
import { FaultProcess, DEFAULT_FAULT_RATES } from './faults';
import { dcPowerKw, dcVoltage, inverterAcPower, inverterEfficiency } from './power';
import { OrnsteinUhlenbeck, createRandom } from './random';
import { ambientTemperature, climateForLatitude } from './temperature';

const KONYA = { lat: 37.9, lon: 32.5 };

function poaAt(ts: number, tilt = 30, azimuth = 180) {
  const sun = sunPosition(ts, KONYA.lat, KONYA.lon);
  const doy = dayOfYear(ts);
  const ghi = clearSkyGhiHaurwitz(sun.zenithDeg);
  return { sun, ghi, poa: planeOfArrayIsotropic(decomposeGhi(ghi, sun.zenithDeg, doy), sun, tilt, azimuth) };
}

describe('solar geometry and clear sky', () => {
  it('gives a plausible clear-sky POA at noon on a June day at Konya', () => {
    // Solar noon at 32.5°E is about 09:50 UTC (12:50 local, UTC+3).
    const { sun, ghi, poa } = poaAt(Date.UTC(2025, 5, 21, 9, 50));
    expect(sun.elevationDeg).toBeGreaterThan(74);
    expect(sun.elevationDeg).toBeLessThan(77);
    expect(Math.abs(sun.azimuthDeg - 180)).toBeLessThan(10);
    expect(ghi).toBeGreaterThan(950);
    expect(ghi).toBeLessThan(1050);
    expect(poa).toBeGreaterThan(850);
    expect(poa).toBeLessThan(1100);
  });

  it('gives nothing at night', () => {
    const { sun, ghi, poa } = poaAt(Date.UTC(2025, 5, 21, 22, 0));
    expect(sun.elevationDeg).toBeLessThan(0);
    expect(ghi).toBe(0);
    expect(poa).toBe(0);
  });

  it('splits GHI into beam and diffuse that add up', () => {
    const ts = Date.UTC(2025, 2, 20, 10, 0);
    const sun = sunPosition(ts, KONYA.lat, KONYA.lon);
    const ghi = clearSkyGhiHaurwitz(sun.zenithDeg);
    const c = decomposeGhi(ghi, sun.zenithDeg, dayOfYear(ts));
    expect(c.dni * Math.cos((sun.zenithDeg * Math.PI) / 180) + c.dhi).toBeCloseTo(ghi, 6);
    expect(c.dhi / ghi).toBeLessThan(0.3);
    // A flat plane sees GHI.
    expect(planeOfArrayIsotropic(c, sun, 0, 180)).toBeCloseTo(ghi, 6);
  });

  it('favours a south-facing plane in the morning less than an east-facing one', () => {
    const morning = Date.UTC(2025, 5, 21, 4, 30);
    expect(poaAt(morning, 30, 90).poa).toBeGreaterThan(poaAt(morning, 30, 180).poa);
  });
});

describe('temperatures', () => {
  it('warms in the afternoon and in summer', () => {
    const climate = climateForLatitude(KONYA.lat);
    const at = (ts: number) => ambientTemperature(ts, dayOfYear(ts), KONYA.lat, KONYA.lon, climate);
    const julyAfternoon = at(Date.UTC(2025, 6, 20, 12, 0));
    const julyNight = at(Date.UTC(2025, 6, 20, 0, 0));
    const januaryAfternoon = at(Date.UTC(2025, 0, 20, 12, 0));
    expect(julyAfternoon).toBeGreaterThan(julyNight + 8);
    expect(julyAfternoon).toBeGreaterThan(januaryAfternoon + 15);
    expect(julyAfternoon).toBeGreaterThan(25);
    expect(julyAfternoon).toBeLessThan(40);
  });

  it('heats modules by irradiance, less with wind (Faiman)', () => {
    expect(moduleTemperatureFaiman(0, 20, 1)).toBe(20);
    const calm = moduleTemperatureFaiman(1000, 25, 1);
    expect(calm).toBeCloseTo(25 + 1000 / 31.84, 6);
    expect(moduleTemperatureFaiman(1000, 25, 6)).toBeLessThan(calm);
  });
});

describe('power', () => {
  it('loses about 0.4 %/K of DC power with temperature', () => {
    const at25 = dcPowerKw(1000, 25, 100, { lossFraction: 0 });
    expect(at25).toBeCloseTo(100, 6);
    expect(dcPowerKw(1000, 50, 100, { lossFraction: 0 })).toBeCloseTo(90, 6);
    expect(dcPowerKw(0, 25, 100)).toBe(0);
    expect(dcPowerKw(1000, 25, 100, { lossFraction: 0, lostStringFraction: 0.25 })).toBeCloseTo(75, 6);
  });

  it('has an efficiency curve rising from 0 to ~98 %', () => {
    expect(inverterEfficiency(0)).toBe(0);
    expect(inverterEfficiency(0.005)).toBe(0);
    expect(inverterEfficiency(0.02)).toBeLessThan(0.8);
    expect(inverterEfficiency(0.1)).toBeGreaterThan(0.9);
    const peak = Math.max(...Array.from({ length: 100 }, (_, i) => inverterEfficiency((i + 1) / 100)));
    expect(peak).toBeGreaterThan(0.975);
    expect(peak).toBeLessThan(0.99);
  });

  it('never gives more AC than the rating', () => {
    for (let dc = 0; dc <= 300; dc += 0.7) {
      const { acKw, clipped } = inverterAcPower(dc, 100);
      expect(acKw).toBeLessThanOrEqual(100);
      expect(acKw).toBeLessThanOrEqual(dc);
      if (clipped) expect(acKw).toBe(100);
    }
    expect(inverterAcPower(130, 100).clipped).toBe(true);
    expect(inverterAcPower(0.1, 100).acKw).toBe(0);
  });

  it('gives plausible string voltages', () => {
    expect(dcVoltage(0, 20)).toBe(0);
    const v = dcVoltage(1000, 45);
    expect(v).toBeGreaterThan(500);
    expect(v).toBeLessThan(650);
    expect(dcVoltage(1000, 45, { openCircuit: true })).toBeGreaterThan(v);
  });
});

describe('energy counters', () => {
  it('integrates with the trapezoidal rule', () => {
    expect(trapezoidKwh(0, 100, 3_600_000)).toBe(50);
    expect(trapezoidKwh(10, 10, -1)).toBe(0);
  });

  it('finds local midnights in Istanbul and Skopje, across DST', () => {
    // Istanbul is UTC+3 all year: midnight is 21:00 UTC.
    expect(nextLocalMidnight(Date.UTC(2025, 5, 21, 12), 'Europe/Istanbul')).toBe(Date.UTC(2025, 5, 21, 21));
    // Skopje: UTC+2 in summer, UTC+1 in winter; 30 March 2025 is the spring change.
    expect(nextLocalMidnight(Date.UTC(2025, 5, 21, 12), 'Europe/Skopje')).toBe(Date.UTC(2025, 5, 21, 22));
    expect(nextLocalMidnight(Date.UTC(2025, 0, 21, 12), 'Europe/Skopje')).toBe(Date.UTC(2025, 0, 21, 23));
    expect(nextLocalMidnight(Date.UTC(2025, 2, 30, 12), 'Europe/Skopje')).toBe(Date.UTC(2025, 2, 30, 22));
    expect(nextLocalMidnight(Date.UTC(2025, 2, 29, 12), 'Europe/Skopje')).toBe(Date.UTC(2025, 2, 29, 23));
    expect(localDate(Date.UTC(2025, 5, 21, 21, 30), 'Europe/Istanbul')).toBe('2025-06-22');
    expect(localDate(Date.UTC(2025, 5, 21, 21, 30), 'Europe/Skopje')).toBe('2025-06-21');
  });

  for (const [zone, midnightUtcHour] of [
    ['Europe/Istanbul', 21],
    ['Europe/Skopje', 22],
  ] as const) {
    it(`restarts the daily energy at local midnight in ${zone}`, () => {
      const counter = new EnergyCounter(zone);
      const start = Date.UTC(2025, 5, 21, 20, 0);
      const step = 10 * 60_000;
      let previousTotal = 0;
      const daily: [number, number][] = [];
      for (let ts = start + step; ts <= start + 4 * 3_600_000; ts += step) {
        counter.add(1, ts - step, ts);
        expect(counter.totalKwh).toBeGreaterThan(previousTotal);
        previousTotal = counter.totalKwh;
        daily.push([ts, counter.dailyKwh]);
      }
      const midnight = Date.UTC(2025, 5, 21, midnightUtcHour);
      const before = daily.filter(([ts]) => ts < midnight);
      const after = daily.filter(([ts]) => ts > midnight);
      expect(before.at(-1)![1]).toBeCloseTo(before.length, 6);
      // A reading stamped at midnight already belongs to the new day.
      expect(daily.find(([ts]) => ts === midnight)![1]).toBe(0);
      expect(after[0]![1]).toBeCloseTo(1, 6);
      expect(after.at(-1)![1]).toBeCloseTo(after.length, 6);
    });
  }
});

describe('random processes', () => {
  it('repeats for a seed', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const sa = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(sa);
    expect(Array.from({ length: 5 }, c)).not.toEqual(sa);
  });

  it('keeps an Ornstein–Uhlenbeck process around its mean with its spread', () => {
    const ou = new OrnsteinUhlenbeck(createRandom(7), 10, 60, 2, 10);
    const xs = Array.from({ length: 20_000 }, () => ou.step(30));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
    expect(mean).toBeCloseTo(10, 0);
    expect(sd).toBeGreaterThan(1.7);
    expect(sd).toBeLessThan(2.3);
  });

  it('makes clouds that dip irradiance, repeatably', () => {
    const series = (seed: number) => {
      const clouds = new CloudProcess(seed, KONYA.lat, KONYA.lon);
      const out: number[] = [];
      for (let ts = Date.UTC(2025, 3, 1); ts < Date.UTC(2025, 4, 1); ts += 5 * 60_000) {
        out.push(clouds.at(ts, dayOfYear(ts)).clearSkyIndex);
      }
      return out;
    };
    const a = series(1);
    expect(series(1)).toEqual(a);
    expect(series(2)).not.toEqual(a);
    expect(Math.min(...a)).toBeLessThan(0.5);
    expect(Math.max(...a)).toBeCloseTo(1, 2);
    expect(a.every((k) => k > 0 && k <= 1)).toBe(true);
    expect(clearSkyIndex(0.9, 1)).toBeLessThan(0.25);
  });

  it('trips inverters at about the configured rate, repeatably', () => {
    const run = () => {
      const f = new FaultProcess(3, 'inv', { ...DEFAULT_FAULT_RATES, inverterTripsPerDay: 1 });
      let trips = 0;
      let wasTripped = false;
      for (let i = 0; i < 30 * 288; i++) {
        const s = f.step(i * 300_000, 300, { inverter: true, operating: true });
        if (s.tripped && !wasTripped) trips++;
        if (s.tripped) expect(s.eventBits).toBeGreaterThan(0);
        wasTripped = s.tripped;
      }
      return trips;
    };
    const trips = run();
    expect(trips).toBe(run());
    expect(trips).toBeGreaterThan(15);
    expect(trips).toBeLessThan(45);
  });
});
