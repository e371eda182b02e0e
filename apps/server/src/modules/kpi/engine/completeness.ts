/**
 * Data completeness (IEC 61724-1:2021 reports the fraction of valid data alongside every metric): the
 * share of expected samples a device delivered in a local day.
 */
import { localDayRange, type TimeRangeMs } from './periods';

/**
 * Samples a device polled every `pollIntervalS` should deliver in the range, counted up to `untilMs`
 * (now, for today) when given. The range is the local day, so a DST day expects 23 or 25 hours' worth.
 */
export function expectedSampleCount(range: TimeRangeMs, pollIntervalS: number, untilMs?: number): number {
  if (!(pollIntervalS > 0)) return 0;
  const endMs = untilMs === undefined ? range.endMs : Math.min(Math.max(untilMs, range.startMs), range.endMs);
  return Math.floor((endMs - range.startMs) / (pollIntervalS * 1000));
}

/** received / expected, capped at 1 (a device pushing faster than its poll interval is complete, not 120 %); null when nothing was expected. */
export function dataCompleteness(receivedSamples: number, expectedSamples: number): number | null {
  if (!(expectedSamples > 0)) return null;
  return Math.min(Math.max(receivedSamples, 0) / expectedSamples, 1);
}

/** The rollup the observed interval is measured in (FIXED_BUCKET_MS['5m']). */
const BUCKET_S = 300;

/**
 * The interval a device's data was meant to arrive at on a day: its poll interval, unless its samples came
 * slower, at a steady pace, in every 5-minute bucket that holds any (a history back-filled at 5 minutes for
 * a device now polled every 30 s): then their spacing within those buckets. Missing buckets stay missing;
 * the observed interval never exceeds a bucket, so a device that sent one sample an hour is not complete.
 */
export function expectedIntervalS(
  pollIntervalS: number,
  receivedSamples: number,
  bucketsWithData: number,
  bucketS = BUCKET_S,
): number {
  if (!(receivedSamples > 0) || !(bucketsWithData > 0)) return pollIntervalS;
  const observedS = Math.min((bucketsWithData * bucketS) / receivedSamples, bucketS);
  return Math.max(pollIntervalS, observedS);
}

export interface DailyCompletenessInput {
  /** Local date, YYYY-MM-DD. */
  date: string;
  timeZone: string;
  pollIntervalS: number;
  /**
   * Samples received that day: the number of distinct sample times of the device, e.g. the `count` of
   * the 1d rollup of one signal every sample carries (AC power), not the sum over its signals.
   */
  receivedSamples: number;
  /** 5-minute buckets of the day holding any of the device's data (expectedIntervalS); absent: poll interval. */
  bucketsWithData?: number;
  /**
   * The width of those buckets, s: 300, or 3600 for a day held only as hourly rollups (a history written
   * hourly), whose one sample an hour is then complete.
   */
  bucketS?: number;
  /** For today: count expectations only up to now. */
  nowMs?: number;
}

export interface DailyCompleteness {
  /** The interval the samples were expected at (expectedIntervalS). */
  expectedIntervalS: number;
  expectedSamples: number;
  receivedSamples: number;
  completeness: number | null;
}

/** Completeness of one device on one local day (DST-aware through the day's true length). */
export function dailyCompleteness(input: DailyCompletenessInput): DailyCompleteness {
  const intervalS =
    input.bucketsWithData === undefined
      ? input.pollIntervalS
      : expectedIntervalS(input.pollIntervalS, input.receivedSamples, input.bucketsWithData, input.bucketS);
  const expectedSamples = expectedSampleCount(
    localDayRange(input.date, input.timeZone),
    intervalS,
    input.nowMs,
  );
  return {
    expectedIntervalS: intervalS,
    expectedSamples,
    receivedSamples: input.receivedSamples,
    completeness: dataCompleteness(input.receivedSamples, expectedSamples),
  };
}

/**
 * A plant's completeness over its devices: Σ received (each capped at its expectation) / Σ expected, so
 * a device polled every 30 s weighs more than one polled every 5 min, as its share of the samples does.
 */
export function plantDataCompleteness(devices: readonly DailyCompleteness[]): number | null {
  let received = 0;
  let expected = 0;
  for (const d of devices) {
    received += Math.min(Math.max(d.receivedSamples, 0), d.expectedSamples);
    expected += d.expectedSamples;
  }
  return dataCompleteness(received, expected);
}

/**
 * The share of a period that has data: the mean over its elapsed days of each day's data completeness,
 * a day without any data counting 0 (IEC 61724-1 asks for the fraction of valid data next to every metric;
 * a month's completeness over the three days that reported would hide the other 28). Null when no day of
 * the period has elapsed.
 */
export function periodCoverage(elapsedDays: readonly (number | null | undefined)[]): number | null {
  if (!elapsedDays.length) return null;
  return elapsedDays.reduce<number>((a, c) => a + Math.min(Math.max(c ?? 0, 0), 1), 0) / elapsedDays.length;
}
