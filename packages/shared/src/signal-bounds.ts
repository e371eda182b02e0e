/**
 * Validity bounds of a signal's values: a reading outside them is refused as `out_of_range`
 * on every way in and never reaches raw data, latest values or rollups. A signal may set `min_value` and
 * `max_value`; each side it leaves empty takes the default of its unit below.
 */

/**
 * No value of any signal may lie beyond ± this, whatever its bounds say. Nothing we collect comes near it
 * (the lifetime energy of a 1 GW plant over 100 years is 8.8e14 Wh), and it keeps every rollup sum finite:
 * a day of 1-second points is 86,400 values, 8.6e19 at most, far from the 1.8e308 where a double overflows.
 */
export const SIGNAL_VALUE_LIMIT = 1e15;

/** The largest rating the device form accepts (deviceBody.rated_power_kw), used when a device has none. */
const LARGEST_RATING_KW = 1_000_000;

/** Inclusive bounds; null: that side is open (only SIGNAL_VALUE_LIMIT applies). */
export interface ValueBounds {
  min: number | null;
  max: number | null;
}

/** Power in kW for a device of this rating: a little consumption at night, and some overload headroom. */
function powerKw(ratedPowerKw: number | null): ValueBounds {
  // An inverter draws a few percent of its rating at night and may briefly exceed its rating (cos φ, DC
  // oversizing clipped late); 150 % is beyond any real overload. Without a rating: a meter that measures
  // both directions, so the same size on both sides, as large as the largest rating the form accepts.
  if (ratedPowerKw !== null && ratedPowerKw > 0)
    return { min: -0.05 * ratedPowerKw, max: 1.5 * ratedPowerKw };
  return { min: -1.5 * LARGEST_RATING_KW, max: 1.5 * LARGEST_RATING_KW };
}

const scaled = (b: ValueBounds, factor: number): ValueBounds => ({
  min: b.min === null ? null : b.min * factor,
  max: b.max === null ? null : b.max * factor,
});

/**
 * Default bounds by unit (lower case, trimmed). Units absent here have no default: only
 * SIGNAL_VALUE_LIMIT applies until someone sets bounds on the signal.
 */
export const UNIT_DEFAULT_BOUNDS: Record<string, (ratedPowerKw: number | null) => ValueBounds> = {
  kw: powerKw,
  w: (r) => scaled(powerKw(r), 1000),
  mw: (r) => scaled(powerKw(r), 0.001),
  // Above the atmosphere the sun gives 1,361 W/m²; cloud-edge enhancement at ground level stays below
  // 1,600. A pyranometer reads a few W/m² below zero at night (thermal offset, ISO 9060 "zero offset A",
  // up to 15-30 W/m² for simpler classes): refusing those would count every night of a healthy sensor.
  'w/m²': () => ({ min: -25, max: 1600 }),
  'w/m2': () => ({ min: -25, max: 1600 }),
  // Coldest plant sites stay above −50 °C; inverter heat sinks and modules stay below 100 °C, transformer
  // windings trip before 120 °C.
  '°c': () => ({ min: -50, max: 120 }),
  // Power factor in percent is signed; a transformer's load may exceed 100 % for a while; humidity, state
  // of charge and efficiency fit inside.
  '%': () => ({ min: -100, max: 200 }),
  // RMS and DC voltages are not negative; the highest grid a plant connects to is 400 kV.
  v: () => ({ min: 0, max: 500_000 }),
  kv: () => ({ min: 0, max: 500 }),
  // Signed on meters that measure both directions; 100 kA is beyond any plant conductor.
  a: () => ({ min: -100_000, max: 100_000 }),
  // Grids run at 50 or 60 Hz and protection trips within a few Hz; inverters report 0 while off-grid at night.
  hz: () => ({ min: 0, max: 70 }),
  // Energy registers and counters never go below zero; a negative reading is a decoding error.
  wh: () => ({ min: 0, max: null }),
  kwh: () => ({ min: 0, max: null }),
  mwh: () => ({ min: 0, max: null }),
};

/** The unit's default bounds for a device of this rating; both sides open for a unit without a default. */
export function defaultBounds(unit: string | null, ratedPowerKw: number | null): ValueBounds {
  const rule = unit === null ? undefined : UNIT_DEFAULT_BOUNDS[unit.trim().toLowerCase()];
  return rule ? rule(ratedPowerKw) : { min: null, max: null };
}

/** The bounds ingest applies: each side the signal sets, else its unit's default for the device. */
export function effectiveBounds(
  signal: { unit: string | null; min_value: number | null; max_value: number | null },
  ratedPowerKw: number | null,
): ValueBounds {
  const fallback = defaultBounds(signal.unit, ratedPowerKw);
  return { min: signal.min_value ?? fallback.min, max: signal.max_value ?? fallback.max };
}
