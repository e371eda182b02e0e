/**
 * The SunSpec information models the product ships templates for, written from the SunSpec Alliance's
 * model definitions (https://github.com/sunspec/models, Apache-2.0; spec: "SunSpec Information Model
 * Specification" and "SunSpec Modbus", https://sunspec.org/specifications/).
 *
 * Layout convention, the same as the standard's: a point's `offset` counts registers from the start of
 * its model, where the model ID register is offset 0 and the length register L is offset 1; L itself
 * counts the registers that follow it. So the absolute address of a point is the address of its model's ID
 * register plus `offset`, and the next model starts at model address + 2 + L. Points of a repeating block
 * (model 160's modules) count from the start of their block instance instead.
 *
 * A test checks every point here against the Alliance's JSON definitions (models.test.ts; they are not kept
 * in this repository).
 */

/** Point types of the SunSpec information model (the subset these models use, plus the common numeric ones). */
export const SUNSPEC_POINT_TYPES = [
  'int16',
  'uint16',
  'count',
  'acc16',
  'enum16',
  'bitfield16',
  'pad',
  'sunssf',
  'int32',
  'uint32',
  'acc32',
  'enum32',
  'bitfield32',
  'int64',
  'uint64',
  'acc64',
  'float32',
  'float64',
  'string',
] as const;
export type SunSpecPointType = (typeof SUNSPEC_POINT_TYPES)[number];

/**
 * How a point becomes one of our signals. The value in `unit` is
 * raw × 10^sf (the standard's value, in the standard's `units`) × `factor`,
 * e.g. W → kW is factor 0.001, Wh → kWh 0.001, a power factor in Pct → unitless 0.01.
 */
export interface SunSpecSignalMapping {
  /** Our signal key; `{n}` in a repeating block stands for the 1-based instance number. */
  key: string;
  name: string;
  /** Our unit (`kW`, `kWh`, `°C`…), null for codes and bit fields. */
  unit: string | null;
  factor: number;
  /** A monotonically increasing counter (energy totals). */
  isCounter?: boolean;
  /**
   * In a repeating block: only the first instance becomes this signal (the key takes no `{n}`). The
   * weather models repeat one block per sensor; the first is the station's, as our signals have one
   * plane-of-array irradiance and one module temperature per station.
   */
  firstInstanceOnly?: boolean;
}

export interface SunSpecPoint {
  /** The standard's point name (`W`, `W_SF`, `WH`…). */
  name: string;
  /** Registers from the start of the model (ID = 0, L = 1), or of the block instance for repeating points. */
  offset: number;
  /** Size in 16-bit registers. */
  size: number;
  type: SunSpecPointType;
  /** Scale factor: the name of a `sunssf` point of the same model, or a fixed power-of-ten exponent. */
  sf?: string | number;
  /** Units as the standard spells them (`W`, `Wh`, `C`, `Pct`, `mps`…). */
  units?: string;
  /** Mandatory in the standard ("M"). */
  mandatory?: boolean;
  signal?: SunSpecSignalMapping;
}

/** A block that repeats after the fixed part of a model (model 160: one per MPPT input). */
export interface SunSpecRepeatingBlock {
  name: string;
  /** Registers per instance. */
  length: number;
  points: readonly SunSpecPoint[];
}

export interface SunSpecModel {
  id: number;
  /** The standard's group name, e.g. `inverter_three_phase`. */
  name: string;
  label: string;
  /** L of the fixed part: registers after ID and L, without any repeating block. */
  fixedLength: number;
  points: readonly SunSpecPoint[];
  repeating?: SunSpecRepeatingBlock;
}

/** Values of model 103's operating state St. */
export const SUNSPEC_INVERTER_STATES = {
  OFF: 1,
  SLEEPING: 2,
  STARTING: 3,
  MPPT: 4,
  THROTTLED: 5,
  SHUTTING_DOWN: 6,
  FAULT: 7,
  STANDBY: 8,
} as const;

/** Bit numbers (0 = least significant) of model 103's event bit field Evt1. */
export const SUNSPEC_INVERTER_EVENT1_BITS = {
  GROUND_FAULT: 0,
  DC_OVER_VOLT: 1,
  AC_DISCONNECT: 2,
  DC_DISCONNECT: 3,
  GRID_DISCONNECT: 4,
  CABINET_OPEN: 5,
  MANUAL_SHUTDOWN: 6,
  OVER_TEMP: 7,
  OVER_FREQUENCY: 8,
  UNDER_FREQUENCY: 9,
  AC_OVER_VOLT: 10,
  AC_UNDER_VOLT: 11,
  BLOWN_STRING_FUSE: 12,
  UNDER_TEMP: 13,
  MEMORY_LOSS: 14,
  HW_TEST_FAILURE: 15,
} as const;

/** ID and L head every model. */
const header = (): SunSpecPoint[] => [
  { name: 'ID', offset: 0, size: 1, type: 'uint16', mandatory: true },
  { name: 'L', offset: 1, size: 1, type: 'uint16', mandatory: true },
];

const kw = (key: string, name: string): SunSpecSignalMapping => ({ key, name, unit: 'kW', factor: 0.001 });
const kwh = (key: string, name: string): SunSpecSignalMapping => ({
  key,
  name,
  unit: 'kWh',
  factor: 0.001,
  isCounter: true,
});
const same = (key: string, name: string, unit: string | null): SunSpecSignalMapping => ({
  key,
  name,
  unit,
  factor: 1,
});

/** Model 1, Common: identifies the device; every SunSpec device starts its chain with it. */
export const SUNSPEC_MODEL_1: SunSpecModel = {
  id: 1,
  name: 'common',
  label: 'Common',
  fixedLength: 66,
  points: [
    ...header(),
    { name: 'Mn', offset: 2, size: 16, type: 'string', mandatory: true },
    { name: 'Md', offset: 18, size: 16, type: 'string', mandatory: true },
    { name: 'Opt', offset: 34, size: 8, type: 'string' },
    { name: 'Vr', offset: 42, size: 8, type: 'string' },
    { name: 'SN', offset: 50, size: 16, type: 'string', mandatory: true },
    { name: 'DA', offset: 66, size: 1, type: 'uint16' },
    { name: 'Pad', offset: 67, size: 1, type: 'pad' },
  ],
};

/** Model 103, three-phase inverter with integer values and scale factors. */
export const SUNSPEC_MODEL_103: SunSpecModel = {
  id: 103,
  name: 'inverter_three_phase',
  label: 'Inverter (Three Phase)',
  fixedLength: 50,
  points: [
    ...header(),
    {
      name: 'A',
      offset: 2,
      size: 1,
      type: 'uint16',
      sf: 'A_SF',
      units: 'A',
      mandatory: true,
      signal: same('ac_current', 'AC Current', 'A'),
    },
    { name: 'AphA', offset: 3, size: 1, type: 'uint16', sf: 'A_SF', units: 'A', mandatory: true },
    { name: 'AphB', offset: 4, size: 1, type: 'uint16', sf: 'A_SF', units: 'A', mandatory: true },
    { name: 'AphC', offset: 5, size: 1, type: 'uint16', sf: 'A_SF', units: 'A', mandatory: true },
    { name: 'A_SF', offset: 6, size: 1, type: 'sunssf', mandatory: true },
    { name: 'PPVphAB', offset: 7, size: 1, type: 'uint16', sf: 'V_SF', units: 'V' },
    { name: 'PPVphBC', offset: 8, size: 1, type: 'uint16', sf: 'V_SF', units: 'V' },
    { name: 'PPVphCA', offset: 9, size: 1, type: 'uint16', sf: 'V_SF', units: 'V' },
    // Phase A to neutral is the one voltage the standard makes mandatory; it stands for the AC voltage.
    {
      name: 'PhVphA',
      offset: 10,
      size: 1,
      type: 'uint16',
      sf: 'V_SF',
      units: 'V',
      mandatory: true,
      signal: same('ac_voltage', 'AC Voltage', 'V'),
    },
    { name: 'PhVphB', offset: 11, size: 1, type: 'uint16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PhVphC', offset: 12, size: 1, type: 'uint16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'V_SF', offset: 13, size: 1, type: 'sunssf', mandatory: true },
    {
      name: 'W',
      offset: 14,
      size: 1,
      type: 'int16',
      sf: 'W_SF',
      units: 'W',
      mandatory: true,
      signal: kw('ac_power', 'AC Power'),
    },
    { name: 'W_SF', offset: 15, size: 1, type: 'sunssf', mandatory: true },
    {
      name: 'Hz',
      offset: 16,
      size: 1,
      type: 'uint16',
      sf: 'Hz_SF',
      units: 'Hz',
      mandatory: true,
      signal: same('frequency', 'Frequency', 'Hz'),
    },
    { name: 'Hz_SF', offset: 17, size: 1, type: 'sunssf', mandatory: true },
    { name: 'VA', offset: 18, size: 1, type: 'int16', sf: 'VA_SF', units: 'VA' },
    { name: 'VA_SF', offset: 19, size: 1, type: 'sunssf' },
    { name: 'VAr', offset: 20, size: 1, type: 'int16', sf: 'VAr_SF', units: 'var' },
    { name: 'VAr_SF', offset: 21, size: 1, type: 'sunssf' },
    { name: 'PF', offset: 22, size: 1, type: 'int16', sf: 'PF_SF', units: 'Pct' },
    { name: 'PF_SF', offset: 23, size: 1, type: 'sunssf' },
    {
      name: 'WH',
      offset: 24,
      size: 2,
      type: 'acc32',
      sf: 'WH_SF',
      units: 'Wh',
      mandatory: true,
      signal: kwh('total_energy', 'Total Energy'),
    },
    { name: 'WH_SF', offset: 26, size: 1, type: 'sunssf', mandatory: true },
    {
      name: 'DCA',
      offset: 27,
      size: 1,
      type: 'uint16',
      sf: 'DCA_SF',
      units: 'A',
      signal: same('dc_current', 'DC Current', 'A'),
    },
    { name: 'DCA_SF', offset: 28, size: 1, type: 'sunssf' },
    {
      name: 'DCV',
      offset: 29,
      size: 1,
      type: 'uint16',
      sf: 'DCV_SF',
      units: 'V',
      signal: same('dc_voltage', 'DC Voltage', 'V'),
    },
    { name: 'DCV_SF', offset: 30, size: 1, type: 'sunssf' },
    {
      name: 'DCW',
      offset: 31,
      size: 1,
      type: 'int16',
      sf: 'DCW_SF',
      units: 'W',
      signal: kw('dc_power', 'DC Power'),
    },
    { name: 'DCW_SF', offset: 32, size: 1, type: 'sunssf' },
    {
      name: 'TmpCab',
      offset: 33,
      size: 1,
      type: 'int16',
      sf: 'Tmp_SF',
      units: 'C',
      mandatory: true,
      signal: same('temperature', 'Cabinet Temperature', '°C'),
    },
    {
      name: 'TmpSnk',
      offset: 34,
      size: 1,
      type: 'int16',
      sf: 'Tmp_SF',
      units: 'C',
      signal: same('heat_sink_temperature', 'Heat Sink Temperature', '°C'),
    },
    { name: 'TmpTrns', offset: 35, size: 1, type: 'int16', sf: 'Tmp_SF', units: 'C' },
    { name: 'TmpOt', offset: 36, size: 1, type: 'int16', sf: 'Tmp_SF', units: 'C' },
    { name: 'Tmp_SF', offset: 37, size: 1, type: 'sunssf', mandatory: true },
    // St holds one of SUNSPEC_INVERTER_STATES.
    {
      name: 'St',
      offset: 38,
      size: 1,
      type: 'enum16',
      mandatory: true,
      signal: same('status_code', 'Operating State', null),
    },
    { name: 'StVnd', offset: 39, size: 1, type: 'enum16' },
    // Evt1 is a set of SUNSPEC_INVERTER_EVENT1_BITS, stored as one number.
    {
      name: 'Evt1',
      offset: 40,
      size: 2,
      type: 'bitfield32',
      mandatory: true,
      signal: same('event_bits', 'Event Bits', null),
    },
    { name: 'Evt2', offset: 42, size: 2, type: 'bitfield32', mandatory: true },
    { name: 'EvtVnd1', offset: 44, size: 2, type: 'bitfield32' },
    { name: 'EvtVnd2', offset: 46, size: 2, type: 'bitfield32' },
    { name: 'EvtVnd3', offset: 48, size: 2, type: 'bitfield32' },
    { name: 'EvtVnd4', offset: 50, size: 2, type: 'bitfield32' },
  ],
};

/** Model 160, multiple MPPT inverter extension: a fixed part, then one 20-register block per DC input. */
export const SUNSPEC_MODEL_160: SunSpecModel = {
  id: 160,
  name: 'mppt',
  label: 'Multiple MPPT Inverter Extension Model',
  fixedLength: 8,
  points: [
    ...header(),
    { name: 'DCA_SF', offset: 2, size: 1, type: 'sunssf' },
    { name: 'DCV_SF', offset: 3, size: 1, type: 'sunssf' },
    { name: 'DCW_SF', offset: 4, size: 1, type: 'sunssf' },
    { name: 'DCWH_SF', offset: 5, size: 1, type: 'sunssf' },
    { name: 'Evt', offset: 6, size: 2, type: 'bitfield32' },
    // N, the number of module blocks, is also (L - fixedLength) / block length.
    { name: 'N', offset: 8, size: 1, type: 'count' },
    { name: 'TmsPer', offset: 9, size: 1, type: 'uint16' },
  ],
  repeating: {
    name: 'module',
    length: 20,
    points: [
      { name: 'ID', offset: 0, size: 1, type: 'uint16' },
      { name: 'IDStr', offset: 1, size: 8, type: 'string' },
      {
        name: 'DCA',
        offset: 9,
        size: 1,
        type: 'uint16',
        sf: 'DCA_SF',
        units: 'A',
        signal: same('mppt{n}_dc_current', 'MPPT {n} DC Current', 'A'),
      },
      {
        name: 'DCV',
        offset: 10,
        size: 1,
        type: 'uint16',
        sf: 'DCV_SF',
        units: 'V',
        signal: same('mppt{n}_dc_voltage', 'MPPT {n} DC Voltage', 'V'),
      },
      {
        name: 'DCW',
        offset: 11,
        size: 1,
        type: 'uint16',
        sf: 'DCW_SF',
        units: 'W',
        signal: kw('mppt{n}_dc_power', 'MPPT {n} DC Power'),
      },
      {
        name: 'DCWH',
        offset: 12,
        size: 2,
        type: 'acc32',
        sf: 'DCWH_SF',
        units: 'Wh',
        signal: kwh('mppt{n}_dc_energy', 'MPPT {n} DC Energy'),
      },
      { name: 'Tms', offset: 14, size: 2, type: 'uint32', units: 'Secs' },
      { name: 'Tmp', offset: 16, size: 1, type: 'int16', units: 'C' },
      { name: 'DCSt', offset: 17, size: 1, type: 'enum16' },
      { name: 'DCEvt', offset: 18, size: 2, type: 'bitfield32' },
    ],
  },
};

/** Model 203, wye-connected three-phase meter (integer values and scale factors). */
export const SUNSPEC_MODEL_203: SunSpecModel = {
  id: 203,
  name: 'ac_meter_abcn',
  label: 'Wye-Connect Three Phase (abcn) Meter',
  fixedLength: 105,
  points: [
    ...header(),
    {
      name: 'A',
      offset: 2,
      size: 1,
      type: 'int16',
      sf: 'A_SF',
      units: 'A',
      mandatory: true,
      signal: same('current', 'Current', 'A'),
    },
    { name: 'AphA', offset: 3, size: 1, type: 'int16', sf: 'A_SF', units: 'A', mandatory: true },
    { name: 'AphB', offset: 4, size: 1, type: 'int16', sf: 'A_SF', units: 'A', mandatory: true },
    { name: 'AphC', offset: 5, size: 1, type: 'int16', sf: 'A_SF', units: 'A', mandatory: true },
    { name: 'A_SF', offset: 6, size: 1, type: 'sunssf', mandatory: true },
    {
      name: 'PhV',
      offset: 7,
      size: 1,
      type: 'int16',
      sf: 'V_SF',
      units: 'V',
      mandatory: true,
      signal: same('voltage', 'Voltage', 'V'),
    },
    { name: 'PhVphA', offset: 8, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PhVphB', offset: 9, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PhVphC', offset: 10, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PPV', offset: 11, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PhVphAB', offset: 12, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PhVphBC', offset: 13, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'PhVphCA', offset: 14, size: 1, type: 'int16', sf: 'V_SF', units: 'V', mandatory: true },
    { name: 'V_SF', offset: 15, size: 1, type: 'sunssf', mandatory: true },
    {
      name: 'Hz',
      offset: 16,
      size: 1,
      type: 'int16',
      sf: 'Hz_SF',
      units: 'Hz',
      mandatory: true,
      signal: same('frequency', 'Frequency', 'Hz'),
    },
    { name: 'Hz_SF', offset: 17, size: 1, type: 'sunssf' },
    {
      name: 'W',
      offset: 18,
      size: 1,
      type: 'int16',
      sf: 'W_SF',
      units: 'W',
      mandatory: true,
      signal: kw('active_power', 'Active Power'),
    },
    { name: 'WphA', offset: 19, size: 1, type: 'int16', sf: 'W_SF', units: 'W' },
    { name: 'WphB', offset: 20, size: 1, type: 'int16', sf: 'W_SF', units: 'W' },
    { name: 'WphC', offset: 21, size: 1, type: 'int16', sf: 'W_SF', units: 'W' },
    { name: 'W_SF', offset: 22, size: 1, type: 'sunssf', mandatory: true },
    { name: 'VA', offset: 23, size: 1, type: 'int16', sf: 'VA_SF', units: 'VA' },
    { name: 'VAphA', offset: 24, size: 1, type: 'int16', sf: 'VA_SF', units: 'VA' },
    { name: 'VAphB', offset: 25, size: 1, type: 'int16', sf: 'VA_SF', units: 'VA' },
    { name: 'VAphC', offset: 26, size: 1, type: 'int16', sf: 'VA_SF', units: 'VA' },
    { name: 'VA_SF', offset: 27, size: 1, type: 'sunssf' },
    { name: 'VAR', offset: 28, size: 1, type: 'int16', sf: 'VAR_SF', units: 'var' },
    { name: 'VARphA', offset: 29, size: 1, type: 'int16', sf: 'VAR_SF', units: 'var' },
    { name: 'VARphB', offset: 30, size: 1, type: 'int16', sf: 'VAR_SF', units: 'var' },
    { name: 'VARphC', offset: 31, size: 1, type: 'int16', sf: 'VAR_SF', units: 'var' },
    { name: 'VAR_SF', offset: 32, size: 1, type: 'sunssf' },
    // The standard gives PF in percent (Pct); ours is unitless (-1…1), hence the factor 0.01.
    {
      name: 'PF',
      offset: 33,
      size: 1,
      type: 'int16',
      sf: 'PF_SF',
      units: 'Pct',
      signal: { key: 'power_factor', name: 'Power Factor', unit: null, factor: 0.01 },
    },
    { name: 'PFphA', offset: 34, size: 1, type: 'int16', sf: 'PF_SF', units: 'Pct' },
    { name: 'PFphB', offset: 35, size: 1, type: 'int16', sf: 'PF_SF', units: 'Pct' },
    { name: 'PFphC', offset: 36, size: 1, type: 'int16', sf: 'PF_SF', units: 'Pct' },
    { name: 'PF_SF', offset: 37, size: 1, type: 'sunssf' },
    {
      name: 'TotWhExp',
      offset: 38,
      size: 2,
      type: 'acc32',
      sf: 'TotWh_SF',
      units: 'Wh',
      mandatory: true,
      signal: kwh('export_energy', 'Exported Energy'),
    },
    { name: 'TotWhExpPhA', offset: 40, size: 2, type: 'acc32', sf: 'TotWh_SF', units: 'Wh' },
    { name: 'TotWhExpPhB', offset: 42, size: 2, type: 'acc32', sf: 'TotWh_SF', units: 'Wh' },
    { name: 'TotWhExpPhC', offset: 44, size: 2, type: 'acc32', sf: 'TotWh_SF', units: 'Wh' },
    {
      name: 'TotWhImp',
      offset: 46,
      size: 2,
      type: 'acc32',
      sf: 'TotWh_SF',
      units: 'Wh',
      mandatory: true,
      signal: kwh('import_energy', 'Imported Energy'),
    },
    { name: 'TotWhImpPhA', offset: 48, size: 2, type: 'acc32', sf: 'TotWh_SF', units: 'Wh' },
    { name: 'TotWhImpPhB', offset: 50, size: 2, type: 'acc32', sf: 'TotWh_SF', units: 'Wh' },
    { name: 'TotWhImpPhC', offset: 52, size: 2, type: 'acc32', sf: 'TotWh_SF', units: 'Wh' },
    { name: 'TotWh_SF', offset: 54, size: 1, type: 'sunssf', mandatory: true },
    { name: 'TotVAhExp', offset: 55, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhExpPhA', offset: 57, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhExpPhB', offset: 59, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhExpPhC', offset: 61, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhImp', offset: 63, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhImpPhA', offset: 65, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhImpPhB', offset: 67, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAhImpPhC', offset: 69, size: 2, type: 'acc32', sf: 'TotVAh_SF', units: 'VAh' },
    { name: 'TotVAh_SF', offset: 71, size: 1, type: 'sunssf' },
    { name: 'TotVArhImpQ1', offset: 72, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ1PhA', offset: 74, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ1PhB', offset: 76, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ1PhC', offset: 78, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ2', offset: 80, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ2PhA', offset: 82, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ2PhB', offset: 84, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhImpQ2PhC', offset: 86, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ3', offset: 88, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ3PhA', offset: 90, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ3PhB', offset: 92, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ3PhC', offset: 94, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ4', offset: 96, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ4PhA', offset: 98, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ4PhB', offset: 100, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArhExpQ4PhC', offset: 102, size: 2, type: 'acc32', sf: 'TotVArh_SF', units: 'varh' },
    { name: 'TotVArh_SF', offset: 104, size: 1, type: 'sunssf' },
    { name: 'Evt', offset: 105, size: 2, type: 'bitfield32', mandatory: true },
  ],
};

/**
 * Model 307, base meteorological. It carries no irradiance and no module temperature (those are in
 * models 302/303 below, and 308), so from it the weather template maps ambient temperature and wind speed.
 */
export const SUNSPEC_MODEL_307: SunSpecModel = {
  id: 307,
  name: 'base_met',
  label: 'Base Met',
  fixedLength: 11,
  points: [
    ...header(),
    // A fixed scale factor in the standard: tenths of a degree.
    {
      name: 'TmpAmb',
      offset: 2,
      size: 1,
      type: 'int16',
      sf: -1,
      units: 'C',
      signal: same('ambient_temperature', 'Ambient Temperature', '°C'),
    },
    { name: 'RH', offset: 3, size: 1, type: 'int16', units: 'Pct' },
    { name: 'Pres', offset: 4, size: 1, type: 'int16', units: 'HPa' },
    {
      name: 'WndSpd',
      offset: 5,
      size: 1,
      type: 'int16',
      units: 'mps',
      signal: same('wind_speed', 'Wind Speed', 'm/s'),
    },
    { name: 'WndDir', offset: 6, size: 1, type: 'int16', units: 'deg' },
    { name: 'Rain', offset: 7, size: 1, type: 'int16', units: 'mm' },
    { name: 'Snw', offset: 8, size: 1, type: 'int16', units: 'mm' },
    { name: 'PPT', offset: 9, size: 1, type: 'int16' },
    { name: 'ElecFld', offset: 10, size: 1, type: 'int16', units: 'Vm' },
    { name: 'SurWet', offset: 11, size: 1, type: 'int16', units: 'kO' },
    { name: 'SoilWet', offset: 12, size: 1, type: 'int16', units: 'Pct' },
  ],
};

/**
 * Model 302, irradiance: no fixed part, then one 5-register block per sensor set (GHI, POAI, DFI, DNI,
 * OTI, whole W/m², no scale factor; sunspec/models json/model_302.json). The first block's POAI is the
 * station's plane-of-array irradiance and its GHI the global horizontal one.
 */
export const SUNSPEC_MODEL_302: SunSpecModel = {
  id: 302,
  name: 'irradiance',
  label: 'Irradiance Model',
  fixedLength: 0,
  points: header(),
  repeating: {
    name: 'repeating',
    length: 5,
    points: [
      {
        name: 'GHI',
        offset: 0,
        size: 1,
        type: 'uint16',
        units: 'W/m2',
        signal: { ...same('ghi', 'Global Horizontal Irradiance', 'W/m²'), firstInstanceOnly: true },
      },
      {
        name: 'POAI',
        offset: 1,
        size: 1,
        type: 'uint16',
        units: 'W/m2',
        signal: { ...same('poa_irradiance', 'POA Irradiance', 'W/m²'), firstInstanceOnly: true },
      },
      { name: 'DFI', offset: 2, size: 1, type: 'uint16', units: 'W/m2' },
      { name: 'DNI', offset: 3, size: 1, type: 'uint16', units: 'W/m2' },
      { name: 'OTI', offset: 4, size: 1, type: 'uint16', units: 'W/m2' },
    ],
  },
};

/**
 * Model 303, back-of-module temperature: no fixed part, then one 1-register block per sensor (TmpBOM,
 * int16 in tenths of a degree by the standard's fixed scale factor -1; sunspec/models json/model_303.json).
 * The first sensor is the station's module temperature.
 */
export const SUNSPEC_MODEL_303: SunSpecModel = {
  id: 303,
  name: 'bom_temp',
  label: 'Back of Module Temperature Model',
  fixedLength: 0,
  points: header(),
  repeating: {
    name: 'temp',
    length: 1,
    points: [
      {
        name: 'TmpBOM',
        offset: 0,
        size: 1,
        type: 'int16',
        sf: -1,
        units: 'C',
        mandatory: true,
        signal: {
          ...same('module_temperature', 'Module Temperature', '°C'),
          firstInstanceOnly: true,
        },
      },
    ],
  },
};

/** Every model the product defines, by model ID. */
export const SUNSPEC_MODELS: Readonly<Record<number, SunSpecModel>> = {
  1: SUNSPEC_MODEL_1,
  103: SUNSPEC_MODEL_103,
  160: SUNSPEC_MODEL_160,
  203: SUNSPEC_MODEL_203,
  302: SUNSPEC_MODEL_302,
  303: SUNSPEC_MODEL_303,
  307: SUNSPEC_MODEL_307,
};

/** L of a model with `blocks` instances of its repeating block (0 for a model without one). */
export function sunspecModelLength(model: SunSpecModel, blocks = 0): number {
  return model.fixedLength + (model.repeating ? model.repeating.length * blocks : 0);
}

/** One model of a device's chain, as discovery walks it (discovery.ts) and templates read it. */
export interface DiscoveredModel {
  id: number;
  /** 0-based protocol address of the model's ID register. */
  address: number;
  /** L: registers after ID and L. */
  length: number;
}
