import {
  clearSkyGhiHaurwitz,
  dayOfYear,
  decomposeGhi,
  planeOfArrayIsotropic,
  sunPosition,
} from '@solar/pv-model';
import { median, round } from './common';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** How many days before the checked one the drift check reads (hourly means): its baseline. */
export const SENSOR_DRIFT_HISTORY_DAYS = 28;
/** The newest days (the checked one included) whose ratios must climb day after day. */
export const SENSOR_DRIFT_WINDOW_DAYS = 3;
/** The checked day's ratio must exceed the baseline's median by this share. */
export const SENSOR_DRIFT_MIN_RISE = 0.02;
/** Each day of the window must raise the ratio by at least this share of the baseline (beyond day noise). */
export const SENSOR_DRIFT_MIN_STEP = 0.003;
/** A day whose ratio lies further than this share from the median of all days is not compared. */
export const SENSOR_DRIFT_OUTLIER_SHARE = 0.25;
/** Days with a ratio the baseline needs before the days before the window are trusted as one. */
const MIN_BASELINE_DAYS = 4;
/** Clear hours a day needs for its ratio. */
const MIN_CLEAR_HOURS = 3;
/** An hour is clear-ish when its mean POA lies within this band of the clear-sky POA at its middle. */
const CLEAR_BAND: readonly [number, number] = [0.3, 1.3];
/** Hours with the sun lower than this at their middle are left out (cosine response and shading at low sun). */
const MIN_ELEVATION_DEG = 10;
/** Hours whose total AC mean reaches this share of the inverters' ratings may be clipped: left out. */
const UNCLIPPED_SHARE = 0.9;

/** One local day's ratio of AC energy to POA insolation over its clear-ish, unclipped hours. */
export interface DayRatio {
  dayStartMs: number;
  /** Median over the day's clear hours of P_ac / (G/1000 · P_dc). */
  ratio: number;
  /** The first clear hour's start and the last clear hour's end. */
  fromMs: number;
  toMs: number;
  hours: number;
}

/** Clear-sky POA at an instant (the same model chain as sun.ts: Haurwitz, Erbs, isotropic). */
function clearPoaAt(plant: PlantDay, ts: number): { elevationDeg: number; poa: number } {
  const sun = sunPosition(ts, plant.latitude!, plant.longitude!);
  const ghi = clearSkyGhiHaurwitz(sun.zenithDeg);
  if (ghi <= 0) return { elevationDeg: sun.elevationDeg, poa: 0 };
  const parts = decomposeGhi(ghi, sun.zenithDeg, dayOfYear(ts));
  const poa =
    plant.tiltDeg !== null && plant.azimuthDeg !== null
      ? planeOfArrayIsotropic(parts, sun, plant.tiltDeg, plant.azimuthDeg)
      : parts.dni + parts.dhi;
  return { elevationDeg: sun.elevationDeg, poa };
}

/** Hourly means of a series, by the hour's start (epoch ms, whole UTC hours). */
function hourlyMeans(series: SignalSeries): Map<number, number> {
  const sum = new Map<number, number>();
  const n = new Map<number, number>();
  for (const x of series.readings) {
    const h = Math.floor(x.ts / HOUR_MS) * HOUR_MS;
    sum.set(h, (sum.get(h) ?? 0) + x.value);
    n.set(h, (n.get(h) ?? 0) + 1);
  }
  const out = new Map<number, number>();
  for (const [h, s] of sum) out.set(h, s / n.get(h)!);
  return out;
}

/**
 * The daily ratios of AC power to POA irradiance over clear-ish, unclipped hours: one per local day of
 * `plant.dayStartMs − k · 24 h` that has at least three such hours. An hour counts when the sensor's mean
 * lies within 0.75…1.2 × the clear-sky POA at its middle with the sun above 20°, every inverter has a mean
 * for it and their total stays below 90 % of their ratings. `irradiance` and `power` may be 5-minute
 * readings or hourly means (the rollup's, stamped at the hour's start): both become hourly means here.
 */
export function dailyRatios(
  irradiance: SignalSeries,
  power: SignalSeries[],
  plant: PlantDay,
  dcKwp: number,
  ratedKw: number | null,
): DayRatio[] {
  const g = hourlyMeans(irradiance);
  const p = power.map(hourlyMeans);
  const byDay = new Map<number, { ratios: number[]; kwh: number; kwhm2: number; from: number; to: number }>();
  for (const [h, gh] of g) {
    if (!(gh > 0)) continue;
    let kw = 0;
    let all = true;
    for (const m of p) {
      const v = m.get(h);
      if (v === undefined) {
        all = false;
        break;
      }
      kw += v;
    }
    if (!all || (ratedKw !== null && kw >= UNCLIPPED_SHARE * ratedKw)) continue;
    const clear = clearPoaAt(plant, h + HOUR_MS / 2);
    if (clear.elevationDeg < MIN_ELEVATION_DEG || clear.poa <= 0) continue;
    const kt = gh / clear.poa;
    if (kt < CLEAR_BAND[0] || kt > CLEAR_BAND[1]) continue;
    // Days counted back from the checked one (a DST day shifts its hours by one, harmlessly: the sun is
    // judged at each hour's own instant).
    const day = plant.dayStartMs - Math.ceil((plant.dayStartMs - h) / DAY_MS) * DAY_MS;
    const d = byDay.get(day) ?? { ratios: [], kwh: 0, kwhm2: 0, from: h, to: h + HOUR_MS };
    d.ratios.push(kw / ((gh / 1000) * dcKwp));
    d.kwh += kw;
    d.kwhm2 += gh / 1000;
    d.from = Math.min(d.from, h);
    d.to = Math.max(d.to, h + HOUR_MS);
    byDay.set(day, d);
  }
  return [...byDay]
    .filter(([, d]) => d.ratios.length >= MIN_CLEAR_HOURS)
    .map(([dayStartMs, d]) => ({
      dayStartMs,
      ratio: d.kwh / (d.kwhm2 * dcKwp),
      fromMs: d.from,
      toMs: d.to,
      hours: d.ratios.length,
    }))
    .sort((a, b) => a.dayStartMs - b.dayStartMs);
}

/** Theil–Sen slope: the median of the pairwise slopes (Sen 1968), robust to one odd day. */
export function theilSen(xs: readonly number[], ys: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++)
      if (xs[j] !== xs[i]) slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
  return median(slopes);
}

/**
 * A POA sensor that reads low by a growing factor (dirt building on its dome): the plant makes what it
 * made, the sensor sees less, so the daily ratio of AC power to POA irradiance over clear-ish, unclipped
 * hours climbs day after day. The checked day is flagged `irradiance_power_drift` when its ratio exceeds
 * the median of the ratios of the weeks before (up to 28 days, the window's days left out) by more than
 * 2 %, and the ratio rose by at least 0.3 % of that baseline on each of the last three days with a ratio,
 * the checked one the last (a sustained, monotone rise: its Theil–Sen slope is in `detail`). Soiled
 * modules lower the power and leave the sensor right, so their ratio falls and is not flagged; a rain that
 * washes them lifts the ratio in one step, which the day-after-day rise refuses.
 * The idea is the irradiance–power consistency check of pvanalytics (`quality.irradiance`,
 * `check_*_consistency`) and RdTools' sensor-based normalisation (Deceglie et al. 2018, "Quantifying soiling
 * loss directly from PV yield", IEEE JPV 8:547), here watched over days against its own baseline.
 * `history`: hourly means of the same signals over the days before; `detail`: ratio, baselineRatio,
 * risePct, slopePctPerDay, days (ratios in the baseline).
 */
export function detectSensorDrift(
  irradiance: SignalSeries,
  power: SignalSeries[],
  plant: PlantDay,
  history: readonly SignalSeries[],
): DetectedFlag[] {
  if (irradiance.kind !== 'irradiance_poa' || power.length === 0) return [];
  if (plant.latitude === null || plant.longitude === null) return [];
  const ratings = power.map((p) => p.ratedPowerKw);
  const ratedKw = ratings.every((x) => x !== null) ? ratings.reduce((a, b) => a + b, 0) : plant.acCapacityKw;
  const dcKwp = plant.dcCapacityKwp ?? (ratedKw !== null ? ratedKw * 1.2 : null);
  if (dcKwp === null) return [];
  const past = (s: SignalSeries) => history.find((h) => h.signalId === s.signalId)?.readings ?? [];
  const today = dailyRatios(irradiance, power, plant, dcKwp, ratedKw).find(
    (d) => d.dayStartMs === plant.dayStartMs,
  );
  if (!today) return [];
  const before = dailyRatios(
    { ...irradiance, readings: past(irradiance) },
    power.map((p) => ({ ...p, readings: past(p) })),
    plant,
    dcKwp,
    ratedKw,
  ).filter((d) => d.dayStartMs < plant.dayStartMs);
  // A day whose ratio is far from the rest is not comparable (a replayed or stuck sensor day, snow on the
  // modules, an outage): left out of both the baseline and the window, as flagged data is.
  const all = median([...before, today].map((d) => d.ratio));
  const comparable = (d: DayRatio) => Math.abs(d.ratio / all - 1) <= SENSOR_DRIFT_OUTLIER_SHARE;
  if (!comparable(today)) return [];
  const days = [...before.filter(comparable), today];
  if (days.length < SENSOR_DRIFT_WINDOW_DAYS + MIN_BASELINE_DAYS) return [];
  const window = days.slice(-SENSOR_DRIFT_WINDOW_DAYS);
  const baseline = median(days.slice(0, -SENSOR_DRIFT_WINDOW_DAYS).map((d) => d.ratio));
  if (!(baseline > 0)) return [];
  const rise = today.ratio / baseline - 1;
  if (!(rise > SENSOR_DRIFT_MIN_RISE)) return [];
  for (let i = 1; i < window.length; i++)
    if (!(window[i]!.ratio - window[i - 1]!.ratio >= SENSOR_DRIFT_MIN_STEP * baseline)) return [];
  const slope = theilSen(
    window.map((d) => (d.dayStartMs - plant.dayStartMs) / DAY_MS),
    window.map((d) => d.ratio / baseline),
  );
  return [
    {
      signalId: irradiance.signalId,
      deviceId: irradiance.deviceId,
      reason: 'irradiance_power_drift',
      fromMs: Math.max(today.fromMs, plant.dayStartMs),
      toMs: Math.min(today.toMs, plant.dayEndMs),
      readings: irradiance.readings.filter((x) => x.ts >= today.fromMs && x.ts < today.toMs).length,
      detail: {
        ratio: round(today.ratio),
        baselineRatio: round(baseline),
        risePct: round(rise * 100, 1),
        slopePctPerDay: round(slope * 100, 2),
        days: days.length - SENSOR_DRIFT_WINDOW_DAYS,
      },
    },
  ];
}
