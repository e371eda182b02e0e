import { round } from './common';
import type { DetectedFlag, PlantDay, PlantDayInput, SignalSeries } from './types';

/** At least this many varying readings must match, and this share of the day's varying readings. */
export const REPLAY_MIN_READINGS = 24;
export const REPLAY_MIN_SHARE = 0.8;
/**
 * A day drawn from fewer distinct non-zero values than this is not judged: a setpoint (active power limit
 * 100 %), a status code, a grid-available flag or a power factor held at 0.99 repeats yesterday's sequence
 * with no replay at all. Measured quantities (irradiance, power, temperature at 0.1) take hundreds of values
 * a day; the simulator's demo plants showed every such constant signal flagged every day before this bound.
 */
export const REPLAY_MIN_DISTINCT_VALUES = 12;

/**
 * What a replay is matched on: the signal's non-zero values (nights and outages are zero on every day).
 * Counters are left out: their quantised steps repeat on any two similar days, and a replayed counter day
 * goes backwards, which counters.ts flags.
 */
function fingerprint(series: SignalSeries): { ts: number; key: number }[] {
  const out: { ts: number; key: number }[] = [];
  if (series.kind === 'energy_counter') return out;
  for (const x of series.readings) if (x.value !== 0) out.push({ ts: x.ts, key: x.value });
  return out;
}

/**
 * Replayed days: a signal whose day repeats an earlier day's readings exactly, at the same time of day or
 * after a time offset, as a logger that re-sends its buffer or a portal that fills a gap with a copy does.
 * Real measurements never repeat a whole day's sequence of varying values (a stuck value is stale.ts's).
 * The earlier day's fingerprint is indexed by value, today's first varying readings are looked up in it,
 * and the longest aligned equal run is kept: O(n) per earlier day and signal. A run of at least 24 readings
 * covering at least 80 % of the day's varying readings is flagged over the whole day. `detail`: daysBack (1 =
 * yesterday), offsetMinutes (today's time minus the copy's, less the days between), matchedReadings.
 */
export function detectReplayedDays(input: PlantDayInput): DetectedFlag[] {
  const flags: DetectedFlag[] = [];
  for (const series of input.series) {
    const today = fingerprint(series);
    if (today.length < REPLAY_MIN_READINGS) continue;
    if (new Set(today.map((x) => x.key)).size < REPLAY_MIN_DISTINCT_VALUES) continue;
    for (const earlier of input.earlierDays) {
      const old = earlier.series.find((s) => s.signalId === series.signalId);
      if (!old) continue;
      const match = longestMatch(today, fingerprint(old));
      if (match && match.length >= REPLAY_MIN_READINGS && match.length >= REPLAY_MIN_SHARE * today.length) {
        flags.push(replayFlag(series, input.plant, earlier.dayStartMs, match));
        break;
      }
    }
  }
  return flags;
}

function replayFlag(
  series: SignalSeries,
  plant: PlantDay,
  earlierStartMs: number,
  match: { length: number; offsetMs: number },
): DetectedFlag {
  const dayMs = plant.dayStartMs - earlierStartMs;
  return {
    signalId: series.signalId,
    deviceId: series.deviceId,
    reason: 'replayed_day',
    fromMs: plant.dayStartMs,
    toMs: plant.dayEndMs,
    readings: series.readings.length,
    detail: {
      daysBack: Math.max(1, Math.round(dayMs / 86_400_000)),
      offsetMinutes: round((match.offsetMs - dayMs) / 60_000, 0),
      matchedReadings: match.length,
    },
  };
}

/**
 * The longest run of today's fingerprint equal, item by item, to a stretch of the earlier day's. Candidate
 * alignments come from a few of today's readings spread over the day, each looked up by value (at most 4
 * earlier positions per value), so the work stays linear however long the days are.
 */
function longestMatch(
  today: { ts: number; key: number }[],
  old: { ts: number; key: number }[],
): { length: number; offsetMs: number } | null {
  if (old.length === 0) return null;
  const where = new Map<number, number[]>();
  old.forEach((x, j) => {
    const list = where.get(x.key);
    if (!list) where.set(x.key, [j]);
    else if (list.length < 4) list.push(j);
  });
  let best: { length: number; offsetMs: number } | null = null;
  const probes = 8;
  const tried = new Set<number>();
  for (let p = 0; p < probes; p++) {
    const i = Math.floor((p * today.length) / probes);
    for (const j of where.get(today[i]!.key) ?? []) {
      const shift = j - i;
      if (tried.has(shift)) continue;
      tried.add(shift);
      let run = 0;
      let longest = 0;
      let start = 0;
      let bestStart = 0;
      for (let k = Math.max(0, -shift); k < today.length && k + shift < old.length; k++) {
        if (today[k]!.key === old[k + shift]!.key) {
          if (run === 0) start = k;
          run++;
          if (run > longest) {
            longest = run;
            bestStart = start;
          }
        } else run = 0;
      }
      if (!best || longest > best.length)
        best = { length: longest, offsetMs: today[bestStart]!.ts - old[bestStart + shift]!.ts };
    }
  }
  return best;
}
