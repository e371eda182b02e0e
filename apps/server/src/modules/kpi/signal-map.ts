/**
 * Which signal means what for the KPIs: a role per (device type, signal key), as the demo seed
 * (seed/organisation.ts), the simulator (apps/simulator plant.ts) and the SunSpec templates
 * (packages/shared sunspec/models.ts) name them. The first key of a role is the seed's; the others are
 * aliases a hand-made device may use.
 */
export const SIGNAL_ROLES = {
  /** Plane-of-array irradiance, W/m²: the seed's `irradiance` is the station's in-plane pyranometer. */
  poa: { deviceType: 'weather_station', keys: ['irradiance', 'poa_irradiance', 'poa'] },
  /** Global horizontal irradiance, W/m² (transposed to POA when the station has no POA sensor). */
  ghi: { deviceType: 'weather_station', keys: ['ghi', 'ghi_irradiance', 'global_horizontal_irradiance'] },
  moduleTemperature: { deviceType: 'weather_station', keys: ['module_temperature'] },
  ambientTemperature: { deviceType: 'weather_station', keys: ['ambient_temperature'] },
  windSpeed: { deviceType: 'weather_station', keys: ['wind_speed'] },
  /** Inverter AC power, kW (SunSpec 103 W). */
  inverterAcPower: { deviceType: 'inverter', keys: ['ac_power'] },
  /** Inverter lifetime AC energy counter, kWh (SunSpec 103 WH): the source of inverter energy. */
  inverterEnergyTotal: { deviceType: 'inverter', keys: ['total_energy'] },
  /** Inverter energy today, kWh (resets at the inverter's midnight; informative only). */
  inverterEnergyToday: { deviceType: 'inverter', keys: ['daily_energy'] },
  /** Grid meter export counter, kWh: the plant's energy when present. */
  meterExportEnergy: { deviceType: 'meter', keys: ['export_energy'] },
  /**
   * Grid outage, 0/1: 1 while the grid at the connection point is there, 0 during an outage (the meter
   * sees it first; a protection relay's "grid healthy" contact wired to the meter's digital input reads
   * the same). Any 0 in an interval excuses every inverter of the plant for it: no inverter can feed a
   * dead grid, and they wait out the grid code's reconnection delay after it returns.
   */
  gridAvailable: { deviceType: 'meter', keys: ['grid_available'] },
  /**
   * Curtailment, % of rated power: the active-power limit in force on an inverter, SunSpec model 123
   * WMaxLimPct as the inverter applies it (a reader reports 100 while WMaxLim_Ena is off, so the key
   * holds the effective limit, not a stored setpoint). Per inverter rather than a plant setpoint because
   * that is what a SunSpec inverter reports and what a power-plant controller ends up writing; a limit
   * below 100 % in an interval excuses that inverter for it, and its whole shortfall is grid curtailment.
   */
  inverterPowerLimitPct: { deviceType: 'inverter', keys: ['active_power_limit_pct', 'wmaxlimpct'] },
} as const satisfies Record<string, { deviceType: string; keys: readonly string[] }>;

export type SignalRole = keyof typeof SIGNAL_ROLES;

/** Device types whose signals the KPIs read. */
export const KPI_DEVICE_TYPES = ['weather_station', 'inverter', 'meter'] as const;

/** (device type, key) → role, built once: the overview resolves a role per signal of every plant in scope. */
const ROLE_BY_TYPE_KEY = new Map<string, SignalRole>(
  (Object.entries(SIGNAL_ROLES) as [SignalRole, (typeof SIGNAL_ROLES)[SignalRole]][]).flatMap(([role, def]) =>
    (def.keys as readonly string[]).map((key) => [`${def.deviceType}\u0000${key}`, role] as const),
  ),
);

/** The role of a signal, or undefined when the KPIs do not read it. */
export function roleOf(deviceType: string, key: string): SignalRole | undefined {
  return ROLE_BY_TYPE_KEY.get(`${deviceType}\u0000${key}`);
}

/** Every key the KPIs read, for the repository's filter. */
export const KPI_SIGNAL_KEYS: readonly string[] = [
  ...new Set(Object.values(SIGNAL_ROLES).flatMap((r) => r.keys as readonly string[])),
];

/** Inverter signals of the summary page (SunSpec model 103 and the seed's register map). */
export const INVERTER_KEYS = {
  acPower: 'ac_power',
  dcPower: 'dc_power',
  dcVoltage: 'dc_voltage',
  dcCurrent: 'dc_current',
  temperature: 'temperature',
  statusCode: 'status_code',
  efficiencyPercent: 'efficiency',
  energyTotal: 'total_energy',
} as const;

/** SunSpec model 160 repeating module points: mppt{n}_dc_voltage, _dc_current, _dc_power. */
export const MPPT_KEY = /^mppt(\d+)_dc_(voltage|current|power)$/;
