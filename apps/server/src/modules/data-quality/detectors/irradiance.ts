import { IRRADIANCE_KINDS, flagOver, median, round, runsWhere, stepMs } from './common';
import { elevationAt, sunDay, sunIndex } from './sun';
import type { DetectedFlag, NeighbourIrradiance, PlantDay, SignalSeries } from './types';

/** Cloud enhancement lifts 5-minute irradiance up to ~1.3 × clear sky; above 1.4 × + 50 W/m² it is the sensor. */
export const CLEAR_SKY_FACTOR = 1.4;
export const CLEAR_SKY_MARGIN_WM2 = 50;
/** Night: the sun this far below the horizon (after civil twilight's brightest part). */
export const NIGHT_ELEVATION_DEG = -3;
/** A night reading beyond ±this is an offset (thermopiles show a few W/m² of negative night offset). */
export const NIGHT_OFFSET_WM2 = 10;

/**
 * POA (or GHI) above a clear-sky bound: more than 1.4 × the clear-sky irradiance + 50 W/m² with the sun up.
 * Clear sky from @solar/pv-model (Haurwitz GHI, Erbs split, isotropic transposition to the plant's tilt and
 * azimuth; a plane facing the sun when the tilt is unknown) — the idea of pvanalytics
 * `quality.irradiance.clearsky_limits`, whose default is 1.1 × a Ineichen clear sky; the margin here is
 * wider because Haurwitz has no altitude or turbidity term and 5-minute cloud enhancement reaches 1.3 ×.
 * `detail`: the highest reading, the clear-sky irradiance then and their ratio.
 */
export function detectAboveClearSky(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  if (!IRRADIANCE_KINDS.has(series.kind)) return [];
  const sun = sunDay(plant);
  const clear = series.kind === 'irradiance_ghi' ? sun.clearGhiWm2 : sun.clearPoaWm2;
  const r = series.readings;
  const step = stepMs(series) ?? 60_000;
  const bound = (i: number): number =>
    CLEAR_SKY_FACTOR * clear[sunIndex(sun, r[i]!.ts)]! + CLEAR_SKY_MARGIN_WM2;
  return runsWhere(r.length, (i) => elevationAt(sun, r[i]!.ts) > 0 && r[i]!.value > bound(i)).map(
    ([from, to]) => {
      let worst = from;
      for (let i = from; i <= to; i++) if (r[i]!.value > r[worst]!.value) worst = i;
      const clearWm2 = clear[sunIndex(sun, r[worst]!.ts)]!;
      return flagOver(series, 'irradiance_above_clear_sky', r, from, to, step, {
        maxWm2: round(r[worst]!.value, 1),
        clearSkyWm2: round(clearWm2, 1),
        ratio: clearWm2 > 0 ? round(r[worst]!.value / clearWm2, 2) : 999,
      });
    },
  );
}

/**
 * Night-time offset: |G| above 10 W/m² with the sun more than 3° below the horizon — a sensor with a bad
 * zero, a lamp or a wrong scaling (pvanalytics `quality.irradiance` limit checks set the night floor the
 * same way from the zenith). `detail`: the largest |G| and the mean of the run.
 */
export function detectNightOffset(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  if (!IRRADIANCE_KINDS.has(series.kind)) return [];
  const sun = sunDay(plant);
  const r = series.readings;
  const step = stepMs(series) ?? 60_000;
  return runsWhere(
    r.length,
    (i) => elevationAt(sun, r[i]!.ts) < NIGHT_ELEVATION_DEG && Math.abs(r[i]!.value) > NIGHT_OFFSET_WM2,
  ).map(([from, to]) => {
    let maxAbs = 0;
    let sum = 0;
    for (let i = from; i <= to; i++) {
      maxAbs = Math.max(maxAbs, Math.abs(r[i]!.value));
      sum += r[i]!.value;
    }
    return flagOver(series, 'irradiance_night_offset', r, from, to, step, {
      maxAbsWm2: round(maxAbs, 1),
      meanWm2: round(sum / (to - from + 1), 1),
    });
  });
}

/** The clear-period ratio P / (G/1000 · P_dc) may lie in this band; outside, the sensor does not fit the plant. */
export const DRIFT_RATIO_BAND: readonly [number, number] = [0.6, 1.0];
/** Morning and afternoon clear-period ratios may differ by this share (temperature alone makes ~5 %). */
export const DRIFT_AM_PM_SHARE = 0.15;
/** Each half-day needs this many clear readings to be judged. */
const DRIFT_MIN_POINTS = 6;

/**
 * A POA sensor that disagrees with the plant's own power by a drifting ratio (soiled, shaded or tilted
 * sensor): over the day's clear periods — sun above 15°, G within 0.6…1.3 × clear sky and steady (its ratio
 * to clear sky moving < 3 % against both neighbours), total AC power of all inverters present and below
 * 95 % of their ratings (not clipping) — the ratio k = P_ac / (G/1000 · P_dc) is a performance ratio
 * (IEC 61724-1:2021 §10.3). Flagged when its median leaves 0.6…1.0 (a sensor reading low makes k > 1) or
 * when the morning and afternoon medians differ by more than 15 % (a tilted or partly shaded sensor); the
 * clear-period filter follows the idea of pvanalytics `irradiance.clearsky_limits` / RdTools' clear-sky
 * workflow. `detail`: ratio, morningRatio, afternoonRatio, clearReadings.
 */
export function detectPowerDrift(
  irradiance: SignalSeries,
  power: SignalSeries[],
  plant: PlantDay,
): DetectedFlag[] {
  if (irradiance.kind !== 'irradiance_poa' || power.length === 0) return [];
  const sun = sunDay(plant);
  const step = stepMs(irradiance);
  if (step === null) return [];
  const ratings = power.map((p) => p.ratedPowerKw);
  const ratedKw = ratings.every((x) => x !== null) ? ratings.reduce((a, b) => a + b, 0) : plant.acCapacityKw;
  const dcKwp = plant.dcCapacityKwp ?? (ratedKw !== null ? ratedKw * 1.2 : null);
  if (dcKwp === null) return [];
  const slot = (ts: number): number => Math.round((ts - plant.dayStartMs) / step);
  const slots = Math.ceil((plant.dayEndMs - plant.dayStartMs) / step) + 1;
  const totalKw = new Float64Array(slots);
  const present = new Uint16Array(slots);
  for (const p of power)
    for (const x of p.readings) {
      const k = slot(x.ts);
      if (k < 0 || k >= slots) continue;
      totalKw[k] = totalKw[k]! + x.value;
      present[k] = present[k]! + 1;
    }
  const r = irradiance.readings;
  const kt = r.map((x) => {
    const c = sun.clearPoaWm2[sunIndex(sun, x.ts)]!;
    return c > 0 ? x.value / c : NaN;
  });
  const am: number[] = [];
  const pm: number[] = [];
  let first = -1;
  let last = -1;
  for (let i = 1; i < r.length - 1; i++) {
    const x = r[i]!;
    if (elevationAt(sun, x.ts) < 15) continue;
    const k = kt[i]!;
    if (!(k >= 0.6 && k <= 1.3)) continue;
    if (!(Math.abs(kt[i - 1]! / k - 1) < 0.03 && Math.abs(kt[i + 1]! / k - 1) < 0.03)) continue;
    const at = slot(x.ts);
    if (at < 0 || at >= slots || present[at] !== power.length) continue;
    const kw = totalKw[at]!;
    if (ratedKw !== null && kw >= 0.95 * ratedKw) continue;
    const ratio = kw / ((x.value / 1000) * dcKwp);
    (x.ts < sun.solarNoonMs ? am : pm).push(ratio);
    if (first < 0) first = i;
    last = i;
  }
  if (am.length + pm.length < 2 * DRIFT_MIN_POINTS) return [];
  const all = median([...am, ...pm]);
  const morning = am.length >= DRIFT_MIN_POINTS ? median(am) : NaN;
  const afternoon = pm.length >= DRIFT_MIN_POINTS ? median(pm) : NaN;
  const asym = Math.abs(morning - afternoon) / ((morning + afternoon) / 2);
  const outOfBand = all < DRIFT_RATIO_BAND[0] || all > DRIFT_RATIO_BAND[1];
  if (!outOfBand && !(asym > DRIFT_AM_PM_SHARE)) return [];
  return [
    {
      ...flagOver(irradiance, 'irradiance_power_drift', r, first, last, step, {
        ratio: round(all),
        ...(Number.isNaN(morning) ? {} : { morningRatio: round(morning) }),
        ...(Number.isNaN(afternoon) ? {} : { afternoonRatio: round(afternoon) }),
        clearReadings: am.length + pm.length,
      }),
      readings: am.length + pm.length,
    },
  ];
}

/** Neighbours farther than this see different clouds: not compared. */
export const NEIGHBOUR_MAX_KM = 5;
/** Daily insolation of sensors a few km apart agrees within this band (clouds average out over a day). */
export const NEIGHBOUR_INSOLATION_BAND: readonly [number, number] = [0.75, 1 / 0.75];
/** Hourly means of sensors a few km apart correlate at least this well. */
export const NEIGHBOUR_MIN_CORRELATION = 0.8;

/** Hourly mean irradiance over the day (NaN where an hour has no reading). */
function hourly(series: SignalSeries, plant: PlantDay): Float64Array {
  const hours = Math.round((plant.dayEndMs - plant.dayStartMs) / 3_600_000);
  const sum = new Float64Array(hours);
  const n = new Float64Array(hours);
  for (const x of series.readings) {
    const h = Math.floor((x.ts - plant.dayStartMs) / 3_600_000);
    if (h < 0 || h >= hours) continue;
    sum[h] = sum[h]! + Math.max(x.value, 0);
    n[h] = n[h]! + 1;
  }
  return sum.map((s, h) => (n[h]! > 0 ? s / n[h]! : NaN));
}

/**
 * Neighbouring plants' sensors that disagree beyond what clouds explain: against each neighbour within
 * 5 km with a sensor of the same kind, over the hours both have data with the sun above 5°, the daily
 * insolation (sum of hourly means) must agree within a ratio of 0.75…1.33 and the hourly means must
 * correlate with r ≥ 0.8 (the pairwise-comparison idea of Killinger et al. 2016, "QCPV: a quality control
 * algorithm for distributed photovoltaic array power output", Solar Energy 143:120, applied to sensors).
 * With several neighbours the sensor is flagged only when it disagrees with most of them, so one bad
 * neighbour does not flag a good sensor. `detail`: insolationKwhM2, neighbourInsolationKwhM2 (median),
 * ratio, correlation (lowest), neighbours (how many disagree), distanceKm (nearest disagreeing).
 */
export function detectNeighbourDisagreement(
  series: SignalSeries,
  neighbours: NeighbourIrradiance[],
  plant: PlantDay,
): DetectedFlag[] {
  if (!IRRADIANCE_KINDS.has(series.kind)) return [];
  const near = neighbours.filter((n) => n.distanceKm <= NEIGHBOUR_MAX_KM && n.series.kind === series.kind);
  if (near.length === 0 || series.readings.length === 0) return [];
  const sun = sunDay(plant);
  const mine = hourly(series, plant);
  const compared: { insolation: number; theirs: number; r: number; km: number; bad: boolean }[] = [];
  for (const n of near) {
    const theirs = hourly(n.series, plant);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let h = 0; h < mine.length; h++) {
      const mid = plant.dayStartMs + h * 3_600_000 + 1_800_000;
      if (elevationAt(sun, mid) < 5 || Number.isNaN(mine[h]!) || Number.isNaN(theirs[h]!)) continue;
      xs.push(mine[h]!);
      ys.push(theirs[h]!);
    }
    if (xs.length < 4) continue;
    const a = xs.reduce((s, v) => s + v, 0) / 1000;
    const b = ys.reduce((s, v) => s + v, 0) / 1000;
    const r = pearson(xs, ys);
    const ratio = b > 0 ? a / b : a > 0 ? Infinity : 1;
    const bad =
      ratio < NEIGHBOUR_INSOLATION_BAND[0] ||
      ratio > NEIGHBOUR_INSOLATION_BAND[1] ||
      r < NEIGHBOUR_MIN_CORRELATION;
    compared.push({ insolation: a, theirs: b, r, km: n.distanceKm, bad });
  }
  const bad = compared.filter((c) => c.bad);
  if (bad.length === 0 || bad.length * 2 <= compared.length) return [];
  const theirs = median(bad.map((c) => c.theirs));
  const insolation = bad[0]!.insolation;
  return [
    {
      signalId: series.signalId,
      deviceId: series.deviceId,
      reason: 'irradiance_neighbour_disagreement',
      fromMs: Math.max(plant.dayStartMs, sun.sunriseMs),
      toMs: Math.min(plant.dayEndMs, sun.sunsetMs + 300_000),
      readings: series.readings.filter((x) => x.ts >= sun.sunriseMs && x.ts <= sun.sunsetMs).length,
      detail: {
        insolationKwhM2: round(insolation, 2),
        neighbourInsolationKwhM2: round(theirs, 2),
        ratio: theirs > 0 ? round(insolation / theirs, 2) : 999,
        correlation: round(Math.min(...bad.map((c) => c.r)), 3),
        neighbours: bad.length,
        distanceKm: round(Math.min(...bad.map((c) => c.km)), 1),
      },
    },
  ];
}

/** Pearson correlation; 1 when either side is constant and both are equal, else 0 for a constant side. */
function pearson(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return sxx === syy ? 1 : 0;
  return sxy / Math.sqrt(sxx * syy);
}
