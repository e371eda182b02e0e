/**
 * Faults of the data, not of the plant: what a device or its logger reports goes wrong while the plant
 * itself runs on (a stuck sensor, spikes, a counter reset, a clock an hour off, a replayed day, a dirty
 * irradiance sensor). They are injected on a schedule into the readings a sample reports and recorded with
 * their periods and the data-quality reason an engine should find (packages/shared data-quality.ts), so
 * the engine can be tested against ground truth. The kinds are those the pvanalytics quality checks aim
 * at (`pvanalytics.quality.gaps.stale_values_diff`, `quality.outliers.hampel`, `quality.time.shifts_ruptures`,
 * `features.daytime`), described here, not reimplemented.
 */
import type { DataQualityReason } from '@solar/shared';
import { hashUniform } from './field-weather';
import { hashString } from './random';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type DataFaultKind =
  'stuck_sensor' | 'spikes' | 'counter_reset' | 'clock_shift' | 'replayed_day' | 'soiled_irradiance_sensor';

export const DATA_FAULT_KINDS: readonly DataFaultKind[] = [
  'stuck_sensor',
  'spikes',
  'counter_reset',
  'clock_shift',
  'replayed_day',
  'soiled_irradiance_sensor',
];

/** The reason a data-quality engine should give for each injected kind. */
export const DATA_FAULT_REASON: Record<DataFaultKind, DataQualityReason> = {
  stuck_sensor: 'stale',
  spikes: 'spike',
  counter_reset: 'counter_reset',
  clock_shift: 'clock_shift',
  replayed_day: 'replayed_day',
  soiled_irradiance_sensor: 'irradiance_power_drift',
};

/** Share of the samples in a `spikes` period that carry a spike. */
export const SPIKE_SHARE = 0.15;

export interface DataFault {
  kind: DataFaultKind;
  deviceId: number | string;
  /**
   * The signal key concerned (stuck_sensor, spikes, counter_reset; soiled_irradiance_sensor: default
   * `irradiance`); clock_shift and replayed_day concern every signal of the device.
   */
  signalKey?: string;
  /** Start (inclusive); a counter_reset happens at the first sample at or after it. */
  fromMs: number;
  /** End (exclusive); ignored by counter_reset, whose counter continues from its new start. */
  toMs: number;
  /**
   * spikes: the factor a spiked reading is multiplied by (default 2.5); clock_shift: the shift in ms
   * (default +1 h: the logger stamps a reading an hour late); soiled_irradiance_sensor: the sensor's loss
   * per day (default 0.01 = 1 %/day).
   */
  magnitude?: number;
}

/** A fault as it was injected: its reason, and for spikes the instants that carry one. */
export interface InjectedDataFault extends DataFault {
  reason: DataQualityReason;
  /** spikes: the sample times that were spiked; counter_reset: the sample time of the reset. */
  instantsMs: number[];
}

interface Buffered {
  ts: number;
  readings: Record<string, number>;
}

/** The latest buffered entry at or before `ts` (entries in time order). */
function entryAtOrBefore(entries: Buffered[], ts: number): Buffered | undefined {
  let lo = 0;
  let hi = entries.length - 1;
  let found: Buffered | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = entries[mid]!;
    if (e.ts <= ts) {
      found = e;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Applies a schedule of data faults to one plant's device readings, sample by sample. */
export class DataFaultInjector {
  private readonly faults: InjectedDataFault[] = [];
  /** Uncorrupted readings of the devices whose faults look back in time (clock shift, replayed day). */
  private readonly history = new Map<string, Buffered[]>();
  private readonly previous = new Map<string, Record<string, number>>();
  private readonly stuckValue = new Map<InjectedDataFault, number>();
  private readonly resetOffset = new Map<InjectedDataFault, number>();

  constructor(private readonly seed: number) {}

  add(fault: DataFault): void {
    this.faults.push({ ...fault, reason: DATA_FAULT_REASON[fault.kind], instantsMs: [] });
  }

  /** Every fault scheduled so far, with what was injected. */
  injected(): InjectedDataFault[] {
    return this.faults.map((f) => ({ ...f, instantsMs: [...f.instantsMs] }));
  }

  private lookbackMs(deviceKey: string): number {
    let most = 0;
    for (const f of this.faults) {
      if (String(f.deviceId) !== deviceKey) continue;
      if (f.kind === 'replayed_day') most = Math.max(most, DAY_MS);
      if (f.kind === 'clock_shift') most = Math.max(most, Math.abs(f.magnitude ?? HOUR_MS));
    }
    return most;
  }

  /** The readings a device reports at `ts` given its true `readings` (which are not changed). */
  apply(deviceId: number | string, ts: number, readings: Record<string, number>): Record<string, number> {
    const key = String(deviceId);
    const mine = this.faults.filter((f) => String(f.deviceId) === key);
    if (mine.length === 0) return readings;
    const lookback = this.lookbackMs(key);
    if (lookback > 0) {
      const entries = this.history.get(key) ?? [];
      entries.push({ ts, readings });
      // Keep a little more than the lookback, so the entry just before it is still there.
      while (entries.length > 1 && entries[1]!.ts <= ts - lookback - HOUR_MS) entries.shift();
      this.history.set(key, entries);
    }
    let out = readings;
    // Time faults first: they replace the whole record, the value faults then act on what is reported.
    for (const f of mine) {
      if (ts < f.fromMs || ts >= f.toMs) continue;
      if (f.kind !== 'clock_shift' && f.kind !== 'replayed_day') continue;
      const back = f.kind === 'replayed_day' ? DAY_MS : (f.magnitude ?? HOUR_MS);
      const old = entryAtOrBefore(this.history.get(key) ?? [], ts - back);
      if (old) out = { ...old.readings };
    }
    for (const f of mine) {
      const signal = f.signalKey ?? (f.kind === 'soiled_irradiance_sensor' ? 'irradiance' : undefined);
      if (signal === undefined) continue;
      const value = out[signal];
      if (value === undefined) continue;
      if (f.kind === 'counter_reset') {
        if (ts < f.fromMs) continue;
        let offset = this.resetOffset.get(f);
        if (offset === undefined) {
          // The counter restarts at 0 at this sample and keeps counting from there.
          offset = value;
          this.resetOffset.set(f, offset);
          f.instantsMs.push(ts);
        }
        out = { ...out, [signal]: Math.round((value - offset) * 1000) / 1000 };
        continue;
      }
      if (ts < f.fromMs || ts >= f.toMs) continue;
      if (f.kind === 'stuck_sensor') {
        let stuck = this.stuckValue.get(f);
        if (stuck === undefined) {
          stuck = this.previous.get(key)?.[signal] ?? value;
          this.stuckValue.set(f, stuck);
        }
        out = { ...out, [signal]: stuck };
      } else if (f.kind === 'spikes') {
        const spiked =
          value !== 0 &&
          hashUniform(hashString(`spike:${this.seed}:${key}:${signal}`), ts / 1000) < SPIKE_SHARE;
        if (spiked) {
          out = { ...out, [signal]: Math.round(value * (f.magnitude ?? 2.5) * 1000) / 1000 };
          f.instantsMs.push(ts);
        }
      } else if (f.kind === 'soiled_irradiance_sensor') {
        const days = (ts - f.fromMs) / DAY_MS;
        const ratio = Math.max(1 - (f.magnitude ?? 0.01) * days, 0.5);
        out = { ...out, [signal]: Math.round(value * ratio * 10) / 10 };
      }
    }
    this.previous.set(key, readings);
    return out;
  }
}

/** The devices a schedule of data faults needs from a plant: ids and types. */
interface PlantDevices {
  devices: readonly { deviceId: number | string; type: string }[];
}

/**
 * One fault of each kind on one plant, in the UTC days after `startMs` (the standalone simulator's
 * `--data-faults`; times suit plants around 20–40° E, where 07:00–10:00 UTC is daylight): day 1 a stuck
 * pyranometer from 07:00 to 10:00 and spikes on the first inverter's AC power all day, day 2 the second
 * inverter's counter reset at 09:00 and the third's clock an hour late all day, day 3 the pyranometer's
 * logger replaying day 2, days 4 to 10 the pyranometer dirtying at 1 %/day. Kinds whose device the plant
 * lacks are left out.
 */
export function exampleDataFaults(plant: PlantDevices, startMs: number): DataFault[] {
  const inverters = plant.devices.filter((d) => d.type === 'inverter');
  const station = plant.devices.find((d) => d.type === 'weather_station');
  const faults: DataFault[] = [];
  const day1 = Math.floor(startMs / DAY_MS) * DAY_MS + DAY_MS;
  if (station) {
    faults.push(
      {
        kind: 'stuck_sensor',
        deviceId: station.deviceId,
        signalKey: 'irradiance',
        fromMs: day1 + 7 * HOUR_MS,
        toMs: day1 + 10 * HOUR_MS,
      },
      {
        kind: 'replayed_day',
        deviceId: station.deviceId,
        fromMs: day1 + 2 * DAY_MS,
        toMs: day1 + 3 * DAY_MS,
      },
      {
        kind: 'soiled_irradiance_sensor',
        deviceId: station.deviceId,
        signalKey: 'irradiance',
        fromMs: day1 + 3 * DAY_MS,
        toMs: day1 + 10 * DAY_MS,
        magnitude: 0.01,
      },
    );
  }
  const [first, second, third] = inverters;
  if (first) {
    faults.push({
      kind: 'spikes',
      deviceId: first.deviceId,
      signalKey: 'ac_power',
      fromMs: day1,
      toMs: day1 + DAY_MS,
    });
  }
  if (second) {
    faults.push({
      kind: 'counter_reset',
      deviceId: second.deviceId,
      signalKey: 'total_energy',
      fromMs: day1 + DAY_MS + 9 * HOUR_MS,
      toMs: day1 + DAY_MS + 9 * HOUR_MS,
    });
  }
  if (third) {
    faults.push({
      kind: 'clock_shift',
      deviceId: third.deviceId,
      fromMs: day1 + DAY_MS,
      toMs: day1 + 2 * DAY_MS,
    });
  }
  return faults;
}
