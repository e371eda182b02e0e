import type { DataQualityReason } from '@solar/shared';

/**
 * What a signal measures, as far as the detectors care. Derived from the signal's key and unit by the
 * engine (see the data-quality module's signal-kinds), so the detectors never look at names.
 */
export type SignalKind =
  | 'ac_power'
  | 'dc_power'
  | 'energy_counter'
  | 'irradiance_poa'
  | 'irradiance_ghi'
  | 'temperature_module'
  | 'temperature_ambient'
  | 'temperature_device'
  | 'frequency'
  | 'voltage'
  | 'current'
  | 'other';

/** One reading; `ts` in epoch milliseconds (UTC), values in the units named on the series. */
export interface Reading {
  ts: number;
  value: number;
}

/** A signal's readings over one local day of its plant, sorted by time, with what the detectors need. */
export interface SignalSeries {
  signalId: number;
  deviceId: number;
  kind: SignalKind;
  /**
   * The unit the values are in, lower case: power in kW, energy counters in kWh, irradiance in W/m²,
   * temperatures in °C, frequency in Hz, voltage in V, current in A (the engine converts before calling).
   */
  unit: string;
  /** The interval the device is meant to report at; null when unknown (no gap detection then). */
  expectedIntervalMs: number | null;
  /** The device's AC rating in kW (power and counters); null when unknown. */
  ratedPowerKw: number | null;
  /** For counters: the register width when it wraps (acc32 → 32), else null. */
  counterBits: 32 | null;
  /** The last reading before the day, for counters and for continuity; null when none. */
  previous: Reading | null;
  readings: Reading[];
}

/** The plant and the local day the series belong to. */
export interface PlantDay {
  plantId: number;
  /** IANA zone of the plant; the day is [dayStartMs, dayEndMs) on its clock (23 or 25 h on DST days). */
  timeZone: string;
  dayStartMs: number;
  dayEndMs: number;
  /**
   * The plant's position; null when it has none, and then the detectors that judge data against the sun are
   * not run (detectors/index.ts, SUN_BASED_CHECKS): the sun at 0° 0° would raise false flags.
   */
  latitude: number | null;
  longitude: number | null;
  /** Plane-of-array orientation; null when unknown (transposition is skipped). */
  tiltDeg: number | null;
  azimuthDeg: number | null;
  acCapacityKw: number | null;
  dcCapacityKwp: number | null;
}

/** One stretch of data a detector does not believe. */
export interface DetectedFlag {
  /** The signal concerned; null for a flag on the plant's day as a whole (day_energy_impossible). */
  signalId: number | null;
  deviceId: number | null;
  reason: DataQualityReason;
  /** [fromMs, toMs): the period concerned, inside the day. */
  fromMs: number;
  toMs: number;
  /**
   * How many readings the flag covers. For a gap, the readings present inside a sparse stretch (0 for a plain
   * gap); the readings that are missing go in `detail.missing`.
   */
  readings: number;
  /**
   * Figures that explain the flag, in the units of the series (e.g. `{ jumpKwh: 83, maxKwh: 1.4 }`,
   * `{ shiftMinutes: 60 }`, `{ missing: 12 }`); shown to the operator with the reason's translated text.
   */
  detail: Record<string, number>;
}

/** What a neighbouring plant's irradiance sensor read over the same day (plants on the same field). */
export interface NeighbourIrradiance {
  plantId: number;
  distanceKm: number;
  series: SignalSeries;
}

/** Everything the plant-level detectors look at for one local day. */
export interface PlantDayInput {
  plant: PlantDay;
  series: SignalSeries[];
  /** The same signals' readings of the days before (newest first), for replayed-day detection; may be empty. */
  earlierDays: { dayStartMs: number; series: SignalSeries[] }[];
  neighbours: NeighbourIrradiance[];
  /**
   * Hourly means of the plant's POA irradiance and AC power signals over the weeks before the day (the
   * sensor-drift check's baseline; readings stamped at each hour's start); absent or empty: not checked.
   */
  hourlyHistory?: SignalSeries[];
}
