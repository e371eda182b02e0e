import { IRRADIANCE_KINDS, round } from './common';
import { SUN_MARGIN_MS, SUN_STEP_MS, sunDay } from './sun';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/** The profile is compared with the sun for shifts up to ±3 h in 5-minute steps. */
const MAX_SHIFT_STEPS = SUN_MARGIN_MS / SUN_STEP_MS;
/** A shift is a clock fault when at least 45 min and within 15 min of a whole number of hours. */
export const CLOCK_MIN_SHIFT_MINUTES = 45;
export const CLOCK_WHOLE_HOUR_TOLERANCE_MINUTES = 15;
/** The shifted profile must match the sun's this well (Pearson r) to be believed: cloudy days are not judged. */
export const CLOCK_MIN_CORRELATION = 0.9;
/** Centroid offsets below this leave no room for a ≥ 45 min shift: the correlation search is skipped. */
const CENTROID_SKIP_MINUTES = 20;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `ts`, in minutes (+180 for Europe/Istanbul). */
export function utcOffsetMinutes(timeZone: string, ts: number): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ts)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((local - Math.floor(ts / 1000) * 1000) / 60_000);
}

/**
 * The shift (minutes, positive = the data is late against the sun) that best aligns a day's power or
 * irradiance profile with the clear-sky profile at the plant, and the correlation there; null when the day
 * has too little daylight data. The readings are averaged into the sun's 5-minute grid, then the Pearson
 * correlation with the clear-sky profile is searched over shifts of ±3 h (73 × the grid: linear in n).
 */
export function profileShift(
  series: SignalSeries,
  plant: PlantDay,
): { shiftMinutes: number; correlation: number } | null {
  const sun = sunDay(plant);
  const ref = series.kind === 'irradiance_ghi' ? sun.clearGhiWm2 : sun.clearPoaWm2;
  const n = ref.length;
  const m = onSunGridOnce(series, plant);
  let positive = 0;
  let peak = 0;
  for (let i = 0; i < n; i++) if (m[i]! > peak) peak = m[i]!;
  for (let i = 0; i < n; i++) if (m[i]! > 0.05 * peak) positive++;
  if (peak <= 0 || positive < 24) return null;
  const centroid = (values: ArrayLike<number>): number => {
    let w = 0;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (Number.isNaN(v) || Number.isNaN(m[i]!)) continue;
      w += v;
      s += v * i;
    }
    return w > 0 ? s / w : NaN;
  };
  const centroidShift = (centroid(m) - centroid(ref)) * (SUN_STEP_MS / 60_000);
  if (Math.abs(centroidShift) < CENTROID_SKIP_MINUTES)
    return { shiftMinutes: round(centroidShift, 0), correlation: correlationAt(m, ref, 0) };
  let best = 0;
  let bestR = -Infinity;
  for (let s = -MAX_SHIFT_STEPS; s <= MAX_SHIFT_STEPS; s++) {
    const r = correlationAt(m, ref, s);
    if (r > bestR) {
      bestR = r;
      best = s;
    }
  }
  return { shiftMinutes: (best * SUN_STEP_MS) / 60_000, correlation: round(bestR, 4) };
}

/** Pearson correlation of m(t) with ref(t − s) over the grid points where both exist. */
function correlationAt(m: Float64Array, ref: Float64Array, s: number): number {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = Math.max(0, s); i < Math.min(m.length, ref.length + s); i++) {
    const x = m[i]!;
    if (Number.isNaN(x)) continue;
    const y = ref[i - s]!;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const vx = sxx - (sx * sx) / n;
  const vy = syy - (sy * sy) / n;
  return n > 2 && vx > 0 && vy > 0 ? (sxy - (sx * sy) / n) / Math.sqrt(vx * vy) : 0;
}

/** Whether the zone keeps a different offset half a year from `ts` (it observes daylight saving time). */
function observesDst(timeZone: string, ts: number): boolean {
  const half = 182 * 86_400_000;
  const now = utcOffsetMinutes(timeZone, ts);
  return utcOffsetMinutes(timeZone, ts - half) !== now || utcOffsetMinutes(timeZone, ts + half) !== now;
}

/**
 * Clock faults: a power or irradiance profile shifted against the sun at the plant (the daily peak against
 * solar noon, the rise and fall against sunrise and sunset, all at once through the correlation with the
 * clear-sky profile; the idea of pvanalytics `shifts` (changepoints of the daily peak time against solar
 * noon) and `daytime` (daylight edges), done per day). A shift of at least 45 min, within 15 min of whole
 * hours, with r ≥ 0.9 is flagged over the whole day. It is a dst_error when it is one hour in the direction a
 * logger that ignores daylight saving produces — data 60 min early while the zone keeps summer time (the
 * logger still on winter time), 60 min late while on winter time (the logger still on summer time) — or one
 * hour on the day the clocks change; otherwise a clock_shift. `detail`: shiftMinutes, correlation.
 */
export function detectClockFault(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  // AC power stands for its device (its DC power shares the logger's clock); irradiance for its sensor.
  if (series.kind !== 'ac_power' && !IRRADIANCE_KINDS.has(series.kind)) return [];
  const found = profileShift(series, plant);
  if (!found) return [];
  const { shiftMinutes, correlation } = found;
  const hours = Math.round(shiftMinutes / 60);
  if (
    Math.abs(shiftMinutes) < CLOCK_MIN_SHIFT_MINUTES ||
    Math.abs(shiftMinutes - hours * 60) > CLOCK_WHOLE_HOUR_TOLERANCE_MINUTES ||
    correlation < CLOCK_MIN_CORRELATION
  )
    return [];
  const reason = Math.abs(hours) === 1 && isDstError(plant, hours) ? 'dst_error' : 'clock_shift';
  return [
    {
      signalId: series.signalId,
      deviceId: series.deviceId,
      reason,
      fromMs: plant.dayStartMs,
      toMs: plant.dayEndMs,
      readings: series.readings.length,
      detail: { shiftMinutes, correlation },
    },
  ];
}

function isDstError(plant: PlantDay, hours: number): boolean {
  const lengthHours = (plant.dayEndMs - plant.dayStartMs) / 3_600_000;
  if (lengthHours !== 24) return true;
  if (!observesDst(plant.timeZone, plant.dayStartMs)) return false;
  const mid = plant.dayStartMs + 12 * 3_600_000;
  const now = utcOffsetMinutes(plant.timeZone, mid);
  const other = Math.min(
    utcOffsetMinutes(plant.timeZone, mid - 182 * 86_400_000),
    utcOffsetMinutes(plant.timeZone, mid + 182 * 86_400_000),
  );
  const summer = now > other;
  return summer ? hours === -1 : hours === 1;
}

/** A series averaged onto the sun's 5-minute grid (NaN where it has no reading), negatives as 0. */
function onSunGrid(series: SignalSeries, plant: PlantDay): Float64Array {
  const sun = sunDay(plant);
  const n = sun.clearPoaWm2.length;
  const sum = new Float64Array(n);
  const count = new Uint16Array(n);
  for (const x of series.readings) {
    const i = Math.round((x.ts - sun.gridStartMs) / SUN_STEP_MS);
    if (i < 0 || i >= n || !Number.isFinite(x.value)) continue;
    sum[i] = sum[i]! + x.value;
    count[i]!++;
  }
  const m = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) if (count[i]! > 0) m[i] = Math.max(sum[i]! / count[i]!, 0);
  return m;
}

/**
 * Each series on the sun's grid, kept while the series lives (one plant day): every AC power series is a
 * peer of every other, so without it a day of N inverters would grid N² series instead of N.
 */
const sunGrids = new WeakMap<SignalSeries, Float64Array>();
function onSunGridOnce(series: SignalSeries, plant: PlantDay): Float64Array {
  let grid = sunGrids.get(series);
  if (!grid) sunGrids.set(series, (grid = onSunGrid(series, plant)));
  return grid;
}

/** Peers needed for the comparison: with one, a shifted peer could not be told from a shifted self. */
export const CLOCK_MIN_PEERS = 2;

/**
 * Clock shifts against the plant's other inverters, for the days the sun cannot judge: under clouds the
 * profile no longer matches the clear sky (r < 0.9), but the plant's inverters stand under the same clouds
 * and report the same profile on one clock. Each AC power series is correlated with the mean profile of the
 * other devices' AC power (each scaled to its own peak) for shifts of ±3 h; a best shift of at least 45 min,
 * within 15 min of whole hours, with r ≥ 0.9 is a clock_shift over the whole day, unless the sun already
 * judged the series (detectClockFault). With fewer than two peers nothing is judged. `detail`: shiftMinutes,
 * correlation, peers. The simulator's inverter an hour late on a cloudy November day went unflagged without it.
 */
export function detectClockAgainstPeers(
  series: SignalSeries,
  all: readonly SignalSeries[],
  plant: PlantDay,
): DetectedFlag[] {
  if (series.kind !== 'ac_power') return [];
  const peers = all.filter((s) => s.kind === 'ac_power' && s.deviceId !== series.deviceId);
  if (peers.length < CLOCK_MIN_PEERS) return [];
  const own = onSunGridOnce(series, plant);
  const n = own.length;
  const ref = new Float64Array(n);
  const used = new Uint16Array(n);
  for (const peer of peers) {
    const m = onSunGridOnce(peer, plant);
    let peak = 0;
    for (let i = 0; i < n; i++) if (m[i]! > peak) peak = m[i]!;
    if (peak <= 0) continue;
    for (let i = 0; i < n; i++)
      if (!Number.isNaN(m[i]!)) {
        ref[i] = ref[i]! + m[i]! / peak;
        used[i]!++;
      }
  }
  let positive = 0;
  let peak = 0;
  for (let i = 0; i < n; i++) {
    ref[i] = used[i]! > 0 ? ref[i]! / used[i]! : 0;
    if (own[i]! > peak) peak = own[i]!;
  }
  for (let i = 0; i < n; i++) if (own[i]! > 0.05 * peak) positive++;
  if (peak <= 0 || positive < 24) return [];
  let best = 0;
  let bestR = -Infinity;
  for (let s = -MAX_SHIFT_STEPS; s <= MAX_SHIFT_STEPS; s++) {
    const r = correlationAt(own, ref, s);
    if (r > bestR) {
      bestR = r;
      best = s;
    }
  }
  const shiftMinutes = (best * SUN_STEP_MS) / 60_000;
  const hours = Math.round(shiftMinutes / 60);
  if (
    Math.abs(shiftMinutes) < CLOCK_MIN_SHIFT_MINUTES ||
    Math.abs(shiftMinutes - hours * 60) > CLOCK_WHOLE_HOUR_TOLERANCE_MINUTES ||
    bestR < CLOCK_MIN_CORRELATION
  )
    return [];
  return [
    {
      signalId: series.signalId,
      deviceId: series.deviceId,
      reason: 'clock_shift',
      fromMs: plant.dayStartMs,
      toMs: plant.dayEndMs,
      readings: series.readings.length,
      detail: { shiftMinutes, correlation: round(bestR, 4), peers: peers.length },
    },
  ];
}
