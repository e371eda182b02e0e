import { flagOver, median, round, runsWhere, stepMs } from './common';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/** Physical bounds per kind, in the series' units. */
export const RANGE_LIMITS = {
  /** Thermopile night offsets reach a few W/m² below zero; 1500 W/m² is above any cloud enhancement seen at ground level (pvanalytics quality.irradiance.check_ghi_limits_qcrad uses ~1.5 · S₀ · cos Z^1.2 + 100). */
  irradianceWm2: [-10, 1500],
  /** Ambient air: below the coldest and above the hottest air temperatures recorded near any PV plant. */
  ambientC: [-50, 60],
  /** Module back-sheet: cold night skies to hot roofs (pvanalytics quality.temperature.check_temperature_limits uses −40…185 for loose limits). */
  moduleC: [-50, 100],
  /** Inverter or transformer internals. */
  deviceC: [-40, 120],
  /** Grid frequency: 50/60 Hz grids trip far inside these (EN 50549-1 47.5–51.5 Hz). */
  frequencyHz: [45, 65],
} as const;

/** Power may exceed the device's rating by this factor before it is impossible. */
export const POWER_RATING_FACTOR = 1.2;
/** A single device may not exceed the whole plant's AC capacity by more than measurement error. */
export const PLANT_CAPACITY_FACTOR = 1.05;
/** A voltage above this multiple of its day's median (when that median is a real voltage) is impossible. */
export const VOLTAGE_MEDIAN_FACTOR = 1.5;

/**
 * Out of physical range by kind: irradiance −10…1500 W/m²; ambient −50…60 °C, module −50…100 °C, device
 * −40…120 °C; frequency 45…65 Hz; voltage negative or above 1.5 × its day's median (the nominal is not on
 * the series, the median of a working day is); AC power below −5 % or above 1.2 × the device's rating, or
 * above 1.05 × the plant's AC capacity; DC power likewise against the DC capacity; a negative counter.
 * Bounds follow the spirit of pvanalytics `quality.irradiance` / `quality.temperature` limit checks.
 * Consecutive readings out of range make one flag; `detail`: the lowest and highest value and the bounds.
 */
export function detectOutOfRange(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  const bounds = boundsFor(series, plant);
  if (!bounds) return [];
  const [lo, hi] = bounds;
  const r = series.readings;
  const step = stepMs(series) ?? 60_000;
  return runsWhere(r.length, (i) => r[i]!.value < lo || r[i]!.value > hi).map(([from, to]) => {
    let min = Infinity;
    let max = -Infinity;
    for (let i = from; i <= to; i++) {
      min = Math.min(min, r[i]!.value);
      max = Math.max(max, r[i]!.value);
    }
    return flagOver(series, 'out_of_range', r, from, to, step, {
      min: round(min),
      max: round(max),
      ...(Number.isFinite(lo) ? { lowerBound: round(lo) } : {}),
      ...(Number.isFinite(hi) ? { upperBound: round(hi) } : {}),
    });
  });
}

function boundsFor(series: SignalSeries, plant: PlantDay): [number, number] | null {
  switch (series.kind) {
    case 'irradiance_poa':
    case 'irradiance_ghi':
      return [...RANGE_LIMITS.irradianceWm2];
    case 'temperature_ambient':
      return [...RANGE_LIMITS.ambientC];
    case 'temperature_module':
      return [...RANGE_LIMITS.moduleC];
    case 'temperature_device':
      return [...RANGE_LIMITS.deviceC];
    case 'frequency':
      return [...RANGE_LIMITS.frequencyHz];
    case 'voltage': {
      const m = median(series.readings.map((x) => x.value));
      return [0, m > 50 ? VOLTAGE_MEDIAN_FACTOR * m : Infinity];
    }
    case 'ac_power': {
      const caps: number[] = [];
      if (series.ratedPowerKw !== null) caps.push(POWER_RATING_FACTOR * series.ratedPowerKw);
      if (plant.acCapacityKw !== null) caps.push(PLANT_CAPACITY_FACTOR * plant.acCapacityKw);
      if (caps.length === 0) return null;
      const rating = series.ratedPowerKw ?? plant.acCapacityKw!;
      return [-0.05 * rating, Math.min(...caps)];
    }
    case 'dc_power': {
      const caps: number[] = [];
      if (series.ratedPowerKw !== null) caps.push(POWER_RATING_FACTOR * series.ratedPowerKw * 1.5);
      if (plant.dcCapacityKwp !== null) caps.push(POWER_RATING_FACTOR * plant.dcCapacityKwp);
      if (caps.length === 0) return null;
      return [-0.05 * Math.min(...caps), Math.min(...caps)];
    }
    case 'energy_counter':
      return [0, Infinity];
    default:
      return null;
  }
}
