import type { SignalKind } from './detectors';

/** What the engine knows of a signal to decide its kind. */
export interface SignalDescription {
  key: string;
  unit: string | null;
  isCounter: boolean;
  /** SunSpec point type (acc32 wraps at 2³²); null for plain Modbus and other protocols. */
  sunspecType?: string | null;
}

/** A signal's kind, the unit its values are converted to for the detectors and the factor that does it. */
export interface SignalKindOf {
  kind: SignalKind;
  /** Lower case, as the detectors' contract names it: kw, kwh, w/m², °c, hz, v, a; else the signal's own. */
  unit: string;
  /** Multiplies a stored value into `unit`. */
  factor: number;
  counterBits: 32 | null;
}

const POWER_TO_KW: Record<string, number> = { w: 0.001, kw: 1, mw: 1000 };
const ENERGY_TO_KWH: Record<string, number> = { wh: 0.001, kwh: 1, mwh: 1000 };
const VOLTAGE_TO_V: Record<string, number> = { v: 1, kv: 1000 };
const IRRADIANCE_UNITS = new Set(['w/m²', 'w/m2', 'w/m^2']);
const CELSIUS_UNITS = new Set(['°c', 'c', 'degc']);

/**
 * The kind of a signal from its key, unit and counter flag (the seed's, the simulator's and the SunSpec
 * templates' names, as modules/kpi/signal-map.ts reads them), so that the detectors never look at names.
 * Values are converted to the contract's units (power kW, energy kWh, voltage V); a unit the engine cannot
 * convert makes the signal `other`, which only gap detection looks at.
 */
export function signalKindOf(signal: SignalDescription): SignalKindOf {
  const unit = (signal.unit ?? '').trim().toLowerCase();
  const key = signal.key.trim().toLowerCase();
  const counterBits = signal.sunspecType?.toLowerCase() === 'acc32' ? 32 : null;
  const plain = (kind: SignalKind, to: string, factor = 1): SignalKindOf => ({
    kind,
    unit: to,
    factor,
    counterBits: null,
  });
  if (signal.isCounter) {
    // A counter without a unit is taken as kWh, as the KPIs take it (telemetry-store/energy-units.ts).
    const factor = unit === '' ? 1 : ENERGY_TO_KWH[unit];
    return factor === undefined
      ? plain('other', unit)
      : { kind: 'energy_counter', unit: 'kwh', factor, counterBits };
  }
  if (IRRADIANCE_UNITS.has(unit))
    return plain(/ghi|horizontal/.test(key) ? 'irradiance_ghi' : 'irradiance_poa', 'w/m²');
  const power = POWER_TO_KW[unit];
  if (power !== undefined) {
    if (/(^|_)dc_power$/.test(key)) return plain('dc_power', 'kw', power);
    if (/(^|_)(ac|active)_power$/.test(key) || key === 'power') return plain('ac_power', 'kw', power);
    return plain('other', unit);
  }
  if (CELSIUS_UNITS.has(unit)) {
    if (key.includes('module')) return plain('temperature_module', '°c');
    if (key.includes('ambient') || key.includes('air')) return plain('temperature_ambient', '°c');
    return plain('temperature_device', '°c');
  }
  if (unit === 'hz') return plain('frequency', 'hz');
  const voltage = VOLTAGE_TO_V[unit];
  if (voltage !== undefined) return plain('voltage', 'v', voltage);
  if (unit === 'a') return plain('current', 'a');
  return plain('other', unit);
}
