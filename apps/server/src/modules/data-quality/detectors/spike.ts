import { IRRADIANCE_KINDS, POWER_KINDS, SOLAR_KINDS, flagOver, median, round, stepMs } from './common';
import { elevationAt, sunDay, sunIndex } from './sun';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/** Half-width of the Hampel window in readings (7 readings: 35 minutes at 5-minute data). */
export const HAMPEL_HALF_WINDOW = 3;
/** Scale factor from the median absolute deviation to σ for Gaussian data (Hampel 1974; Pearson et al. 2016). */
const MAD_TO_SIGMA = 1.4826;
/** Below this elevation irradiance and power ramp steeply at sunrise and sunset: not judged. */
export const SPIKE_MIN_ELEVATION_DEG = 5;

/**
 * The smallest jump that may be a spike, per kind: the Hampel test alone fires on any step from a flat run
 * (MAD = 0), so a reading must also be this far from the window's median.
 */
function floorFor(series: SignalSeries, values: Float64Array): number {
  let max = -Infinity;
  let min = Infinity;
  for (const v of values) {
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const range = max - min;
  if (POWER_KINDS.has(series.kind))
    return 0.1 * (series.ratedPowerKw !== null ? series.ratedPowerKw : Math.max(Math.abs(max), 1e-6));
  if (IRRADIANCE_KINDS.has(series.kind)) return 50;
  switch (series.kind) {
    case 'temperature_ambient':
    case 'temperature_module':
    case 'temperature_device':
      return 5;
    case 'frequency':
      return 0.5;
    case 'voltage':
      return 0.05 * Math.max(Math.abs(max), 1);
    default:
      return 0.1 * Math.max(range, 1e-9);
  }
}

/**
 * Spikes, by the Hampel filter (Hampel 1974, J. Am. Stat. Assoc. 69:383; as in Pearson, Neuvo, Astola &
 * Gabbouj 2016, "Generalized Hampel filters", EURASIP J. Adv. Signal Process. 2016:87): a reading more
 * than t·1.4826·MAD from the median of its 7-reading window, and more than the kind's floor (10 % of the
 * rating for power, 50 W/m², 5 °C, 0.5 Hz, 5 % of the voltage; for irradiance and power also 20 % of the
 * median), is a spike. t = 3 in general; t = 4 for
 * irradiance and power, whose clouds make the distribution heavy-tailed, and those are judged only with the
 * sun above 5° (not on the sunrise and sunset ramp) and under a steady sky: the other readings of the window
 * must have clear-sky indexes (value / clear-sky POA) within 15 % of each other, because under broken
 * clouds a single bright or dark 5-minute reading is real. Counters are judged by counters.ts. O(n · w log w).
 * `detail`: the reading's value, the window median and the deviation in robust σ.
 *
 * `underBrokenSky` answers instead the candidates of irradiance and power under an unsteady sky, marked
 * `unsteadySky: 1`: alone they cannot be told from a cloud edge, so only confirmSolarSpikes may keep them,
 * when the plant's other power and irradiance signals exist and do not share the deviation (the
 * simulator's ×2.5 spikes on an inverter under November clouds went unflagged without this).
 */
export function detectSpikes(series: SignalSeries, plant: PlantDay, underBrokenSky = false): DetectedFlag[] {
  if (series.kind === 'energy_counter') return [];
  // Only irradiance and power have a sky to be unsteady under.
  if (underBrokenSky && !SOLAR_KINDS.has(series.kind)) return [];
  const r = series.readings;
  const n = r.length;
  if (n < 2 * HAMPEL_HALF_WINDOW + 1) return [];
  const step = stepMs(series) ?? 60_000;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = r[i]!.value;
  const floor = floorFor(series, values);
  const solar = SOLAR_KINDS.has(series.kind);
  const t = solar ? 4 : 3;
  const sun = solar ? sunDay(plant) : null;
  // The clear-sky index of each reading (value over the clear-sky irradiance: for power its scale does not
  // matter), to tell a steady sky from broken clouds.
  const index = new Float64Array(n).fill(NaN);
  if (sun)
    for (let i = 0; i < n; i++) {
      const c = sun.clearPoaWm2[sunIndex(sun, r[i]!.ts)]!;
      if (c > 20) index[i] = values[i]! / c;
    }
  const win = new Float64Array(2 * HAMPEL_HALF_WINDOW + 1);
  const dev = new Float64Array(2 * HAMPEL_HALF_WINDOW + 1);
  const flags: DetectedFlag[] = [];
  for (let i = 0; i < n; i++) {
    if (sun && elevationAt(sun, r[i]!.ts) < SPIKE_MIN_ELEVATION_DEG) continue;
    const lo = Math.max(0, i - HAMPEL_HALF_WINDOW);
    const hi = Math.min(n - 1, i + HAMPEL_HALF_WINDOW);
    // The median lies within the window's range: a reading within the floor of every neighbour cannot be
    // a spike, which spares the two sorts on nearly every reading of a smooth day.
    const x = values[i]!;
    let far = false;
    for (let j = lo; j <= hi; j++)
      if (Math.abs(values[j]! - x) > floor) {
        far = true;
        break;
      }
    if (!far) continue;
    const unsteady = sun !== null && !steadySky(index, lo, hi, i);
    if (unsteady !== underBrokenSky) continue;
    const m = hi - lo + 1;
    for (let j = 0; j < m; j++) win[j] = values[lo + j]!;
    const med = sortedMedian(win, m);
    for (let j = 0; j < m; j++) dev[j] = Math.abs(win[j]! - med);
    const mad = sortedMedian(dev, m);
    const distance = Math.abs(values[i]! - med);
    // Irradiance and power flicker by tens of percent at cloud edges: a spike is also 20 % off the median.
    const least = solar ? Math.max(floor, SOLAR_MIN_SHARE * Math.abs(med)) : floor;
    if (distance > least && distance > t * MAD_TO_SIGMA * mad)
      flags.push(
        flagOver(series, 'spike', r, i, i, step, {
          value: values[i]!,
          median: round(med),
          sigmas: mad > 0 ? round(distance / (MAD_TO_SIGMA * mad), 1) : 999,
          ...(unsteady ? { unsteadySky: 1 } : {}),
        }),
      );
  }
  return flags;
}

/** Irradiance and power spikes must also lie this share of the window's median away from it. */
export const SOLAR_MIN_SHARE = 0.2;

/** The sky is steady around reading i: its window's other clear-sky indexes within 15 % of each other. */
export const STEADY_SKY_SPREAD = 0.15;

function steadySky(index: Float64Array, lo: number, hi: number, i: number): boolean {
  let min = Infinity;
  let max = -Infinity;
  let count = 0;
  for (let j = lo; j <= hi; j++) {
    if (j === i || Number.isNaN(index[j]!)) continue;
    min = Math.min(min, index[j]!);
    max = Math.max(max, index[j]!);
    count++;
  }
  return count >= 4 && max - min <= STEADY_SKY_SPREAD * Math.max(Math.abs(max), Math.abs(min));
}

/** Median of the first m items of a small buffer, sorted in place by insertion (m ≤ 7: faster than sort()). */
function sortedMedian(a: Float64Array, m: number): number {
  for (let i = 1; i < m; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
  return m % 2 ? a[(m - 1) / 2]! : (a[m / 2 - 1]! + a[m / 2]!) / 2;
}

/** The reading's deviation from the median of its 7-reading window, relative to that median; NaN when none. */
function relativeDeviation(series: SignalSeries, ts: number): number {
  const r = series.readings;
  let lo = 0;
  let hi = r.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r[mid]!.ts < ts) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= r.length || r[lo]!.ts !== ts) return NaN;
  const from = Math.max(0, lo - HAMPEL_HALF_WINDOW);
  const to = Math.min(r.length - 1, lo + HAMPEL_HALF_WINDOW);
  const win = new Float64Array(to - from + 1);
  for (let j = from; j <= to; j++) win[j - from] = r[j]!.value;
  const med = sortedMedian(win, win.length);
  return med > 0 ? r[lo]!.value / med - 1 : NaN;
}

/**
 * Keeps the spikes of irradiance and power that the plant's other irradiance and power signals do not
 * share: a cloud darkens every inverter and the sensor at once, a glitch only one signal. A spike is dropped
 * when the median relative deviation of the peers at the same time has its sign and at least half its size.
 * Flags of other kinds, and spikes of a plant without peers, pass unchanged.
 */
export function confirmSolarSpikes(flags: DetectedFlag[], series: SignalSeries[]): DetectedFlag[] {
  const solar = series.filter((s) => SOLAR_KINDS.has(s.kind));
  const byId = new Map(series.map((s) => [s.signalId, s]));
  return flags.filter((f) => {
    if (f.reason !== 'spike' || f.signalId === null) return true;
    const own = byId.get(f.signalId);
    if (!own || !SOLAR_KINDS.has(own.kind)) return true;
    // A candidate under a broken sky stands only when peers show it is not their cloud too.
    const unrefuted = f.detail.unsteadySky !== 1;
    const peers = solar.filter((s) => s.signalId !== own.signalId && s.deviceId !== own.deviceId);
    if (peers.length === 0) return unrefuted;
    const mine = relativeDeviation(own, f.fromMs);
    const theirs = peers.map((p) => relativeDeviation(p, f.fromMs)).filter((d) => !Number.isNaN(d));
    if (Number.isNaN(mine) || theirs.length === 0) return unrefuted;
    const shared = median(theirs);
    return !(Math.sign(shared) === Math.sign(mine) && Math.abs(shared) >= 0.5 * Math.abs(mine));
  });
}
