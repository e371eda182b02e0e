/**
 * A virtual PV plant: its devices' readings at any instant from @solar/pv-model's physics and the effects in
 * ./physics (the field's weather, soiling, degradation, inverters, faults of the plant and of its data),
 * stateful so that energy counters integrate from one sample to the next. Plain data in (the topology the
 * server passes), numbers out; no database, no I/O. What the KPI model does not know is ground truth,
 * readable through `truth()` (docs/simulator.md).
 */
import {
  clearSkyGhiHaurwitz,
  dayOfYear,
  decomposeGhi,
  moduleTemperatureFaiman,
  planeOfArrayIsotropic,
  sunPosition,
} from '@solar/pv-model';
import { SUNSPEC_INVERTER_EVENT1_BITS, SUNSPEC_INVERTER_STATES, TELEMETRY_MAX_POINTS } from '@solar/shared';
import type { DeviceType } from '@solar/shared';
import { DataFaultInjector } from './physics/data-faults';
import type { DataFault, InjectedDataFault } from './physics/data-faults';
import { degradationFactor, degradationRateFromSeed } from './physics/degradation';
import { EnergyCounter, lifetimeEnergyEstimateKwh, trapezoidKwh } from './physics/energy';
import { FieldWeather, solarDayIndex } from './physics/field-weather';
import { SoilingModel, soilingRateFromSeed } from './physics/soiling';
import type { SoilingOptions, SoilingResetKind } from './physics/soiling';
import { DEFAULT_FAULT_RATES, FaultProcess, NO_FAULTS } from './physics/faults';
import type { FaultKind, FaultRates } from './physics/faults';
import {
  DC_LOSS_FRACTION,
  NOMINAL_INVERTER_EFFICIENCY,
  dcPowerKw,
  dcVoltage,
  inverterAcPower,
  inverterEfficiency,
} from './physics/power';
import { OrnsteinUhlenbeck, createRandom, gaussian, hashString } from './physics/random';
import type { Random } from './physics/random';
import { stringCount, stringCurrents, stringLayout, type StringLayout } from './physics/strings';
import {
  ambientTemperature,
  climateForLatitude,
  firstOrderLag,
  inverterCabinetTemperature,
  transformerWindingTemperature,
} from './physics/temperature';
import type { Climate } from './physics/temperature';

export interface VirtualSignalDefinition {
  signalId: number;
  /** What the signal measures: `ac_power`, `total_energy`… (see the keys per device type in the README of this module). */
  key: string;
}

export interface VirtualDeviceDefinition {
  deviceId: number | string;
  type: DeviceType;
  /** Rated AC power of an inverter, or rated kVA of a transformer. */
  ratedPowerKw?: number | null;
  signals: VirtualSignalDefinition[];
  /** Where the inverter's total energy counter starts (a plant commissioned years ago). */
  initialTotalEnergyKwh?: number;
  /**
   * Where a meter's export and import counters start (what was stored before a restart). Without them the
   * export counter is derived from the inverters' counters, which a restart must not do: the losses
   * between inverters and meter vary, so the derived value differs from the one the meter had reached.
   */
  initialExportEnergyKwh?: number;
  initialImportEnergyKwh?: number;
}

export interface VirtualPlantDefinition {
  plantId: number | string;
  /** IANA time zone; the daily energy restarts at its midnight. */
  timeZone: string;
  latitude: number;
  longitude: number;
  tiltDeg: number;
  /** Clockwise from north (180 = south). */
  azimuthDeg: number;
  dcCapacityKwp: number;
  /**
   * `YYYY-MM-DD` the plant went into service: the inverters' lifetime counters start at what they would
   * have produced since (unless `initialTotalEnergyKwh` says otherwise). Unknown: they start as new.
   */
  commissioningDate?: string | null;
  /**
   * The field the plant stands on: plants of one field share one weather (clouds, rain, air temperature,
   * wind), computed at the field's place. Absent: the plant is a field of its own.
   */
  field?: { id: number | string; latitude: number; longitude: number } | null;
  devices: VirtualDeviceDefinition[];
  /** Overrides the climate guessed from latitude. */
  climate?: Partial<Climate>;
}

export interface VirtualPlantOptions {
  /** Same seed, same definition, same sample times → the same series. */
  seed?: number;
  /** false: no faults; true or omitted: DEFAULT_FAULT_RATES; an object overrides some rates. */
  faults?: boolean | Partial<FaultRates>;
  /** false: a clear sky all the time (and no rain). */
  clouds?: boolean;
  /**
   * Module degradation per year (negative: −0.005 is −0.5 %/yr) by inverter device id, or one rate for
   * all; inverters not named draw theirs from the seed (DEGRADATION_RANGE_PER_YEAR). false: none.
   */
  degradationPerYear?: false | number | Record<string, number>;
  /** Soiling rate and cleaning schedule; false: the modules stay clean. Default: a rate from the seed, cleaning every 90 days. */
  soiling?: false | SoilingOptions;
  /** Data faults injected into what the devices report (none by default). */
  dataFaults?: readonly DataFault[];
}

/** Default cleaning schedule of a plant: once a season. */
export const DEFAULT_CLEANING_EVERY_DAYS = 90;

/** What the simulator knows and the KPI model does not: the ground truth an engine is tested against. */
export interface PlantTruth {
  plantId: number | string;
  /** The field whose weather the plant shares. */
  fieldId: number | string;
  /** When the plant's modules started (commissioning date, else the first sample); undefined before it. */
  commissionedMs: number | undefined;
  /** Module degradation per year by inverter device id (−0.005 = −0.5 %/yr), linear from commissioning. */
  degradationPerYear: Record<string, number>;
  /** The share of its first-year power an inverter's array keeps at an instant. */
  degradationFactor(deviceId: number | string, tsMs: number): number;
  /** Loss of transmission per dry day (0.002 = 0.2 %/day); 0 without soiling. */
  soilingRatePerDay: number;
  /** The soiling ratio (1 = clean) of the solar day holding `tsMs`. */
  soilingRatio(tsMs: number): number;
  /** Rains and cleanings (and the commissioning) that washed the modules, by solar day, in [fromMs, toMs]. */
  soilingResets(fromMs: number, toMs: number): { dayStartMs: number; kind: SoilingResetKind }[];
  /** Whether it rains on the field on the solar day holding `tsMs`. */
  rainOn(tsMs: number): boolean;
  /** The inverters' part-load efficiency curve (./physics/power.ts inverterEfficiency). */
  inverterEfficiency: {
    model: 'pvwatts-v5';
    nominalEfficiency: number;
    curve(dcLoadFraction: number): number;
  };
  /** Losses as shares: DC lumped (mismatch, wiring, LID), cables and transformer to the meter, auxiliaries. */
  losses: {
    dcLumpedFraction: number;
    cableFraction: number;
    transformerNoLoadFractionOfRating: number;
    transformerLoadFractionOfRating: number;
    auxiliaryFractionOfAcCapacity: number;
  };
  /** Every data fault scheduled, with its period, the reason a quality engine should give, and what was injected. */
  dataFaults: InjectedDataFault[];
}

/** One device at one instant. */
export interface DeviceSample {
  deviceId: number | string;
  type: DeviceType;
  /** false while in communication loss: the device answers nothing, `values` and `points` are empty. */
  online: boolean;
  /** The device's signals, by signal key (only the keys the definition lists and the model knows). */
  values: Record<string, number>;
  /** The same values by signal id. */
  points: { signalId: number; value: number }[];
  /** Everything the model computes for the device, also when offline (drives the SunSpec server). */
  readings: Record<string, number>;
}

/** The plant's weather at the last sample. */
export interface PlantWeather {
  tsMs: number;
  sunElevationDeg: number;
  ghiClearWm2: number;
  ghiWm2: number;
  poaWm2: number;
  cloudCover: number;
  /** GHI / clear-sky GHI: the field's clouds at this instant. */
  clearSkyIndex: number;
  /** It rains on the field today (solar day). */
  rainDay: boolean;
  ambientC: number;
  moduleC: number;
  windSpeedMs: number;
  gridVoltageV: number;
  frequencyHz: number;
}

/** A point as POST /api/telemetry takes it. */
export interface TelemetryPoint {
  signal_id: number;
  ts: number;
  value: number;
}

export interface BackfillResult {
  samples: number;
  points: number;
  elapsedMs: number;
}

export type BackfillBatchHandler = (points: TelemetryPoint[]) => void | Promise<void>;

/**
 * One hour of a plant as the coarse model gives it, for a history stored as hourly and daily rollups only:
 * each signal's mean over the hour, and for a lifetime counter its reading at the hour's end.
 */
export interface HourlyPoint {
  signalId: number;
  /** The hour's start (epoch ms). */
  hourMs: number;
  value: number;
}

/** Signal keys the coarse model gives, by device type; every other key is left out of an hourly history. */
export const HOURLY_HISTORY_KEYS: Readonly<Partial<Record<DeviceType, readonly string[]>>> = {
  inverter: ['ac_power', 'total_energy'],
  meter: ['active_power', 'export_energy', 'import_energy'],
  weather_station: ['irradiance', 'ghi', 'module_temperature', 'ambient_temperature', 'wind_speed'],
  transformer: ['temperature', 'load'],
};

export interface VirtualPlant {
  readonly definition: VirtualPlantDefinition;
  /** Every device at `tsMs`. Times must not go back: an earlier or equal time answers the last sample again. */
  sample(tsMs: number): DeviceSample[];
  /**
   * Samples from `fromMs` to `toMs` (inclusive) every `stepMs` and hands the points to `onBatch` in batches
   * of at most `batchSize` (default: what one POST /api/telemetry may carry). Advances the plant's state.
   */
  backfill(
    fromMs: number,
    toMs: number,
    stepMs: number,
    onBatch: BackfillBatchHandler,
    options?: { batchSize?: number },
  ): Promise<BackfillResult>;
  /**
   * Starts a fault on a device now, whatever the rates: a string loss takes `fraction` of its DC, a
   * curtailment limits an inverter to `fraction` of its rated power, a grid outage on a meter disconnects
   * every inverter of the plant.
   */
  forceFault(
    deviceId: number | string,
    kind: FaultKind,
    tsMs: number,
    durationMs: number,
    fraction?: number,
  ): void;
  /**
   * The coarse model of the hours [fromMs, toMs) (both on whole hours): the same plant, field weather and
   * truth (degradation, soiling, losses, efficiency curve) at 5-minute steps, averaged into hours, with
   * steady module temperatures, no sensor noise and no faults, and nothing stored but the hours. Its lifetime counters are the plant's:
   * they start at the commissioning estimate at the first call and the next call, or the first `sample`,
   * continues them. Only before the first `sample`, and in time order (a RangeError otherwise). Answers
   * each hour's HOURLY_HISTORY_KEYS signals the definition lists.
   */
  hourlyHistory(fromMs: number, toMs: number): HourlyPoint[];
  /** The weather at the last sample; undefined before the first. */
  weather(): PlantWeather | undefined;
  /** Changes every device's fault rates from the next sample on (false: no faults). */
  setFaultRates(faults: boolean | Partial<FaultRates>): void;
  /** Schedules a data fault (see DataFault); it acts on the samples within its period. */
  injectDataFault(fault: DataFault): void;
  /** The ground truth: degradation, soiling, efficiency, losses and the injected data faults. */
  truth(): PlantTruth;
}

/** Internal steps are at most this long, so counters integrate correctly whatever the sampling interval. */
const MAX_STEP_MS = 5 * 60_000;
/** A longer gap between samples is skipped rather than integrated step by step. */
const MAX_GAP_MS = 7 * 86_400_000;
const NOMINAL_FREQUENCY_HZ = 50;
const NOMINAL_PHASE_VOLTAGE_V = 230;
/** Cable and LV losses between the inverters and the meter, as a share of their output. */
const CABLE_LOSS_FRACTION = 0.006;
/** Transformer no-load and full-load copper losses, as shares of its rating. */
const TRANSFORMER_NO_LOAD_LOSS = 0.0012;
const TRANSFORMER_LOAD_LOSS = 0.011;
/** Plant auxiliaries (SCADA, lighting, cameras), as a share of the AC capacity; drawn from the grid at night. */
const AUXILIARY_FRACTION = 0.0015;

const MPPT_INPUTS = 2;
const HOUR_MS = 3_600_000;
/**
 * Steps of an hour in the coarse model (hourlyHistory): the field's clouds at the 5-minute readings' pace,
 * so a day's sum follows the fine model's day by day (a mean cloud factor per hour left days 25 % apart).
 */
const HOURLY_SUBSTEPS = 12;

interface InverterState {
  def: VirtualDeviceDefinition;
  ratedKw: number;
  dcKwp: number;
  /** Ground truth: yearly change of the array's power (negative). */
  degradationPerYear: number;
  /** Module mismatch and orientation differences between inverters. */
  gain: number;
  voltageOffsetV: number;
  faults: FaultProcess;
  energy: EnergyCounter;
  mpptEnergyKwh: number[];
  /** The string inputs its signals name (physics/strings.ts); none for most inverters. */
  strings: StringLayout;
  acKw: number;
  dcKw: number;
  cabinetC: number;
  readings: Record<string, number>;
  online: boolean;
}

interface OtherState {
  def: VirtualDeviceDefinition;
  faults: FaultProcess;
  readings: Record<string, number>;
  online: boolean;
  windingC?: number;
}

const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

/** Builds a virtual plant from its topology. */
export function createVirtualPlant(
  definition: VirtualPlantDefinition,
  options: VirtualPlantOptions = {},
): VirtualPlant {
  const seed = hashString(`${options.seed ?? 1}:${definition.plantId}`);
  const rates = faultRatesOf(options.faults);
  const climate: Climate = { ...climateForLatitude(definition.latitude), ...definition.climate };
  const random: Random = createRandom(seed);
  const field = definition.field ?? {
    id: definition.plantId,
    latitude: definition.latitude,
    longitude: definition.longitude,
  };
  // The field's weather is keyed by the field, not the plant: neighbours see the same sky.
  const fieldWeather = new FieldWeather(
    hashString(`${options.seed ?? 1}:field:${field.id}`),
    field.latitude,
    field.longitude,
  );
  const cloudy = options.clouds !== false;
  const rainOnDay = (day: number) => cloudy && fieldWeather.day(day * 86_400_000 + 43_200_000).rain;
  const gridVoltage = new OrnsteinUhlenbeck(random, NOMINAL_PHASE_VOLTAGE_V + 1, 600, 1.5);
  const frequency = new OrnsteinUhlenbeck(random, NOMINAL_FREQUENCY_HZ, 60, 0.02);

  const inverterDefs = definition.devices.filter((d) => d.type === 'inverter');
  const degradationOption = options.degradationPerYear;
  const degradationRates: Record<string, number> = {};
  for (const d of inverterDefs) {
    const key = String(d.deviceId);
    degradationRates[key] =
      degradationOption === false
        ? 0
        : typeof degradationOption === 'number'
          ? degradationOption
          : (degradationOption?.[key] ??
            degradationRateFromSeed(options.seed ?? 1, String(definition.plantId), key));
  }
  const soilingOption = options.soiling;
  const soilingRate =
    soilingOption === false
      ? 0
      : (soilingOption?.ratePerDay ?? soilingRateFromSeed(options.seed ?? 1, String(definition.plantId)));
  /** Set at the first sample: from the commissioning date, else that sample. */
  let commissionedMs: number | undefined;
  let soiling: SoilingModel | undefined;
  const dataFaults = new DataFaultInjector(seed);
  for (const f of options.dataFaults ?? []) dataFaults.add(f);
  const fallbackRatedKw = definition.dcCapacityKwp / 1.2 / Math.max(inverterDefs.length, 1);
  const ratedOf = (d: VirtualDeviceDefinition) => d.ratedPowerKw ?? fallbackRatedKw;
  const totalRatedKw = inverterDefs.reduce((sum, d) => sum + ratedOf(d), 0);
  const inverters: InverterState[] = inverterDefs.map((def) => ({
    def,
    degradationPerYear: degradationRates[String(def.deviceId)] ?? 0,
    ratedKw: ratedOf(def),
    dcKwp: (definition.dcCapacityKwp * ratedOf(def)) / (totalRatedKw || 1),
    gain: 1 + 0.015 * gaussian(random),
    voltageOffsetV: 0.8 * gaussian(random),
    faults: new FaultProcess(seed, String(def.deviceId), rates),
    energy: new EnergyCounter(definition.timeZone, def.initialTotalEnergyKwh ?? 0),
    mpptEnergyKwh: Array.from({ length: MPPT_INPUTS }, () => 0),
    strings: stringLayout(seed, String(def.deviceId), stringCount(def.signals.map((s) => s.key))),
    acKw: 0,
    dcKw: 0,
    cabinetC: Number.NaN,
    readings: {},
    online: true,
  }));
  const others: OtherState[] = definition.devices
    .filter((d) => d.type !== 'inverter')
    .map((def) => ({
      def,
      faults: new FaultProcess(seed, String(def.deviceId), rates),
      readings: {},
      online: true,
    }));
  const transformerKva =
    definition.devices
      .filter((d) => d.type === 'transformer')
      .reduce((s, d) => s + (d.ratedPowerKw ?? 0), 0) || totalRatedKw * 1.1;
  const meterDefinition = definition.devices.find((d) => d.type === 'meter');
  const meterExport = new EnergyCounter(definition.timeZone, meterDefinition?.initialExportEnergyKwh ?? 0);
  const meterImport = new EnergyCounter(definition.timeZone, meterDefinition?.initialImportEnergyKwh ?? 0);
  let meterKw = 0;

  let lastTs: number | undefined;
  /** Set when the counters have their start (the first sample, or the first hour of a coarse history). */
  let countersStarted = false;
  /** The end of the coarse history written so far (hourlyHistory). */
  let hourlyUntil: number | undefined;
  let moduleC = Number.NaN;
  let weather: PlantWeather | undefined;
  let lastSamples: DeviceSample[] = [];

  /** Advances every device to `ts`, `dtMs` after the previous step (0 for the first). */
  function advance(ts: number, dtMs: number): void {
    const dtS = dtMs / 1000;
    const doy = dayOfYear(ts);
    const sun = sunPosition(ts, definition.latitude, definition.longitude);
    const ghiClear = clearSkyGhiHaurwitz(sun.zenithDeg);
    const fieldSky = fieldWeather.at(ts);
    const sky = cloudy ? fieldSky : { cover: 0, obscuration: 0, clearSkyIndex: 1 };
    const ghi = ghiClear * sky.clearSkyIndex;
    const poa = planeOfArrayIsotropic(
      decomposeGhi(ghi, sun.zenithDeg, doy),
      sun,
      definition.tiltDeg,
      definition.azimuthDeg,
    );
    const windMs = fieldSky.windSpeedMs;
    const ambientC =
      ambientTemperature(ts, doy, definition.latitude, definition.longitude, climate, sky.cover) +
      fieldSky.ambientAnomalyK;
    // Dust on the glass lets less light through; the pyranometer (kept clean) does not see it.
    const soilingRatio = soiling ? soiling.ratio(solarDayIndex(ts, definition.longitude)) : 1;
    const moduleTarget = moduleTemperatureFaiman(poa, ambientC, windMs);
    // Modules have a thermal time constant of several minutes (Faiman's model is the steady state).
    moduleC = Number.isNaN(moduleC) ? moduleTarget : firstOrderLag(moduleC, moduleTarget, dtS, 420);
    const gridV = gridVoltage.step(dtS);
    const hz = frequency.step(dtS);
    weather = {
      tsMs: ts,
      sunElevationDeg: sun.elevationDeg,
      ghiClearWm2: ghiClear,
      ghiWm2: ghi,
      poaWm2: poa,
      cloudCover: sky.cover,
      clearSkyIndex: sky.clearSkyIndex,
      rainDay: cloudy && fieldSky.rainDay,
      ambientC,
      moduleC,
      windSpeedMs: windMs,
      gridVoltageV: gridV,
      frequencyHz: hz,
    };

    // The other devices' faults first: a grid outage seen by the meter disconnects every inverter.
    const otherFaults = others.map((dev) => dev.faults.step(ts, dtS, { inverter: false, operating: false }));
    const gridDown = others.some((dev, i) => dev.def.type === 'meter' && otherFaults[i]!.gridDown);

    let sumAcKw = 0;
    for (const inv of inverters) {
      const fault = inv.faults.step(ts, dtS, { inverter: true, operating: inv.acKw > 0 });
      inv.online = !fault.commLost;
      const poaInv = poa * inv.gain;
      const degradation =
        commissionedMs === undefined ? 1 : degradationFactor(inv.degradationPerYear, commissionedMs, ts);
      const mppDcKw = dcPowerKw(poaInv * soilingRatio, moduleC, inv.dcKwp * degradation, {
        lostStringFraction: fault.lostStringFraction,
      });
      const tripped = fault.tripped || gridDown;
      const limitKw = inv.ratedKw * fault.powerLimitFraction;
      let acKw = 0;
      let dcKw = 0;
      let clipped = false;
      if (!tripped) {
        const out = inverterAcPower(mppDcKw, inv.ratedKw);
        // A curtailed inverter holds its output at the limit (SunSpec WMaxLimPct), as clipping does.
        acKw = Math.min(out.acKw, limitKw);
        clipped = out.clipped || out.acKw > limitKw;
        // A clipping inverter leaves the maximum power point and draws only what it can convert.
        dcKw = acKw === 0 ? 0 : clipped ? acKw / inverterEfficiency(acKw / inv.ratedKw) : mppDcKw;
      }
      const prevAc = inv.acKw;
      const prevDc = inv.dcKw;
      inv.acKw = acKw;
      inv.dcKw = dcKw;
      if (dtMs > 0) {
        inv.energy.add(trapezoidKwh(prevAc, acKw, dtMs), ts - dtMs, ts);
        const dcKwh = trapezoidKwh(prevDc, dcKw, dtMs);
        inv.mpptEnergyKwh = inv.mpptEnergyKwh.map(
          (e, i) => e + dcKwh * mpptShare(i, fault.lostStringFraction),
        );
      }
      const loadFraction = acKw / inv.ratedKw;
      const cabinetTarget = inverterCabinetTemperature(ambientC, loadFraction);
      inv.cabinetC = Number.isNaN(inv.cabinetC)
        ? cabinetTarget
        : firstOrderLag(inv.cabinetC, cabinetTarget, dtS, 900);
      const acV = gridV + inv.voltageOffsetV + 2 * loadFraction;
      const pf = acKw > 0 ? 0.999 : 1;
      const dcV = dcVoltage(poaInv, moduleC, { openCircuit: dcKw === 0 });
      const status = tripped
        ? SUNSPEC_INVERTER_STATES.FAULT
        : acKw > 0
          ? clipped
            ? SUNSPEC_INVERTER_STATES.THROTTLED
            : SUNSPEC_INVERTER_STATES.MPPT
          : poa > 0
            ? SUNSPEC_INVERTER_STATES.STANDBY
            : SUNSPEC_INVERTER_STATES.SLEEPING;
      const r: Record<string, number> = {
        ac_power: round(acKw, 3),
        dc_power: round(dcKw, 3),
        daily_energy: round(inv.energy.dailyKwh, 3),
        total_energy: round(inv.energy.totalKwh, 3),
        ac_voltage: round(acV, 1),
        ac_current: round((acKw * 1000) / (3 * acV * pf), 2),
        dc_voltage: round(dcV, 1),
        dc_current: round(dcV > 0 ? (dcKw * 1000) / dcV : 0, 2),
        temperature: round(inv.cabinetC, 1),
        heat_sink_temperature: round(inv.cabinetC + 12 * loadFraction, 1),
        status_code: status,
        event_bits: gridDown
          ? fault.eventBits | (2 ** SUNSPEC_INVERTER_EVENT1_BITS.GRID_DISCONNECT)
          : fault.eventBits,
        // SunSpec model 123 WMaxLimPct as in force (100 while WMaxLim_Ena is off).
        active_power_limit_pct: round(fault.powerLimitFraction * 100, 1),
        frequency: round(hz, 3),
        power_factor: pf,
        apparent_power: round(acKw / pf, 3),
        reactive_power: round((acKw / pf) * Math.sqrt(1 - pf * pf), 3),
        efficiency: round(dcKw > 0 ? (acKw / dcKw) * 100 : 0, 2),
      };
      for (let i = 0; i < MPPT_INPUTS; i++) {
        const share = mpptShare(i, fault.lostStringFraction);
        const n = i + 1;
        r[`mppt${n}_dc_power`] = round(dcKw * share, 3);
        r[`mppt${n}_dc_voltage`] = round(dcV * (i === 0 ? 1 : 0.99), 1);
        r[`mppt${n}_dc_current`] = round(
          dcV > 0 ? (dcKw * share * 1000) / (dcV * (i === 0 ? 1 : 0.99)) : 0,
          2,
        );
        r[`mppt${n}_dc_energy`] = round(inv.mpptEnergyKwh[i] ?? 0, 3);
      }
      if (inv.strings.count > 0) {
        const currents = stringCurrents(inv.strings, r.dc_current!, fault.lostStringFraction);
        currents.forEach((current, i) => {
          r[`string${i + 1}_dc_current`] = round(current, 2);
          r[`string${i + 1}_dc_voltage`] = round(dcV, 1);
        });
      }
      inv.readings = r;
      sumAcKw += acKw;
    }

    // The meter sees the inverters' output less cable and transformer losses and the plant's own use.
    const trLoad = sumAcKw / transformerKva;
    const lossesKw =
      CABLE_LOSS_FRACTION * sumAcKw +
      transformerKva * (TRANSFORMER_NO_LOAD_LOSS + TRANSFORMER_LOAD_LOSS * trLoad * trLoad) +
      AUXILIARY_FRACTION * totalRatedKw;
    const prevMeterKw = meterKw;
    meterKw = sumAcKw - lossesKw;
    if (dtMs > 0) {
      meterExport.add(trapezoidKwh(Math.max(prevMeterKw, 0), Math.max(meterKw, 0), dtMs), ts - dtMs, ts);
      meterImport.add(trapezoidKwh(Math.max(-prevMeterKw, 0), Math.max(-meterKw, 0), dtMs), ts - dtMs, ts);
    }
    const meterPf = meterKw > 0 ? 0.995 : 0.86;

    for (const [i, dev] of others.entries()) {
      const fault = otherFaults[i]!;
      dev.online = !fault.commLost;
      switch (dev.def.type) {
        case 'meter':
          dev.readings = {
            active_power: round(meterKw, 3),
            export_energy: round(meterExport.totalKwh, 3),
            import_energy: round(meterImport.totalKwh, 3),
            voltage: round(gridV, 1),
            current: round((Math.abs(meterKw) * 1000) / (3 * gridV * meterPf), 2),
            frequency: round(hz, 3),
            power_factor: meterPf,
            // 1 while the grid at the connection point is there, 0 during an outage.
            grid_available: fault.gridDown ? 0 : 1,
            apparent_power: round(Math.abs(meterKw) / meterPf, 3),
            reactive_power: round((Math.abs(meterKw) / meterPf) * Math.sqrt(1 - meterPf * meterPf), 3),
          };
          break;
        case 'weather_station':
          // Sensor noise: a pyranometer reads within ~1 %, a PT100 within a few tenths of a kelvin.
          dev.readings = {
            irradiance: round(Math.max(poa * (1 + 0.005 * gaussian(random)), 0), 1),
            ghi: round(Math.max(ghi * (1 + 0.005 * gaussian(random)), 0), 1),
            module_temperature: round(moduleC + 0.2 * gaussian(random), 1),
            ambient_temperature: round(ambientC + 0.1 * gaussian(random), 1),
            wind_speed: round(windMs, 1),
          };
          break;
        case 'transformer': {
          const rated = dev.def.ratedPowerKw ?? transformerKva;
          const load = sumAcKw / 0.999 / rated;
          const target = transformerWindingTemperature(ambientC, load);
          dev.windingC = dev.windingC === undefined ? target : firstOrderLag(dev.windingC, target, dtS, 1800);
          dev.readings = { temperature: round(dev.windingC, 1), load: round(load * 100, 1) };
          break;
        }
        default:
          dev.readings = {};
      }
    }
  }

  function output(): DeviceSample[] {
    const all: { def: VirtualDeviceDefinition; online: boolean; readings: Record<string, number> }[] = [
      ...inverters,
      ...others,
    ];
    const byId = new Map(all.map((d) => [d.def.deviceId, d]));
    return definition.devices.map((def) => {
      const d = byId.get(def.deviceId);
      const readings = dataFaults.apply(def.deviceId, lastTs ?? 0, d?.readings ?? {});
      const online = d?.online ?? true;
      const values: Record<string, number> = {};
      const points: { signalId: number; value: number }[] = [];
      if (online) {
        for (const s of def.signals) {
          const value = readings[s.key];
          if (value === undefined || !Number.isFinite(value)) continue;
          values[s.key] = value;
          points.push({ signalId: s.signalId, value });
        }
      }
      return { deviceId: def.deviceId, type: def.type, online, values, points, readings };
    });
  }

  /**
   * At the first sample, counters without a stored start are set to what the plant would have produced
   * since its commissioning (never 0), and the meter's export counter to what of it reached the grid.
   */
  function startCounters(tsMs: number): void {
    countersStarted = true;
    const commissioned = definition.commissioningDate
      ? Date.parse(`${definition.commissioningDate}T00:00:00Z`)
      : NaN;
    commissionedMs = Number.isFinite(commissioned) ? commissioned : tsMs;
    if (soilingOption !== false) {
      soiling = new SoilingModel(
        rainOnDay,
        solarDayIndex(commissionedMs, definition.longitude),
        soilingRate,
        soilingOption?.cleaningEveryDays ?? DEFAULT_CLEANING_EVERY_DAYS,
        soilingOption?.cleaningDays ?? [],
      );
    }
    for (const inv of inverters) {
      if (inv.def.initialTotalEnergyKwh !== undefined) continue;
      inv.energy.totalKwh = lifetimeEnergyEstimateKwh(
        inv.dcKwp,
        definition.latitude,
        commissionedMs,
        tsMs,
        -inv.degradationPerYear,
      );
    }
    if (meterDefinition?.initialExportEnergyKwh !== undefined) return;
    const producedKwh = inverters.reduce((sum, inv) => sum + inv.energy.totalKwh, 0);
    meterExport.totalKwh = producedKwh * (1 - CABLE_LOSS_FRACTION - TRANSFORMER_LOAD_LOSS);
  }

  function sample(tsMs: number): DeviceSample[] {
    if (lastTs !== undefined && tsMs <= lastTs) return lastSamples;
    if (!countersStarted) startCounters(tsMs);
    if (lastTs === undefined || tsMs - lastTs > MAX_GAP_MS) {
      advance(tsMs, 0);
    } else {
      let t = lastTs;
      while (tsMs - t > MAX_STEP_MS) {
        advance(t + MAX_STEP_MS, MAX_STEP_MS);
        t += MAX_STEP_MS;
      }
      advance(tsMs, tsMs - t);
    }
    lastTs = tsMs;
    // The data faults act on what is reported at this sample time (output reads lastTs).
    lastSamples = output();
    return lastSamples;
  }

  function hourlyHistory(fromMs: number, toMs: number): HourlyPoint[] {
    if (lastTs !== undefined) throw new RangeError('An hourly history comes before the first sample');
    if (fromMs % HOUR_MS !== 0 || toMs % HOUR_MS !== 0) throw new RangeError('Hours start on whole hours');
    if (hourlyUntil !== undefined && fromMs !== hourlyUntil)
      throw new RangeError('An hourly history continues where the last one ended');
    if (!countersStarted) startCounters(fromMs);
    hourlyUntil = toMs;
    const signalsOf = (def: VirtualDeviceDefinition) => {
      const keys = HOURLY_HISTORY_KEYS[def.type] ?? [];
      return def.signals.filter((s) => keys.includes(s.key));
    };
    const invSignals = inverters.map((inv) => signalsOf(inv.def));
    const otherSignals = others.map((dev) => signalsOf(dev.def));
    const out: HourlyPoint[] = [];
    const stepH = 1 / HOURLY_SUBSTEPS;
    for (let hourMs = fromMs; hourMs < toMs; hourMs += HOUR_MS) {
      const acMean = inverters.map(() => 0);
      let poaMean = 0;
      let ghiMean = 0;
      let moduleMean = 0;
      let ambientMean = 0;
      let windMean = 0;
      let meterMean = 0;
      let loadMean = 0;
      let windingMean = 0;
      for (let k = 0; k < HOURLY_SUBSTEPS; k++) {
        const ts = hourMs + (k + 1) * stepH * HOUR_MS;
        const doy = dayOfYear(ts);
        const sun = sunPosition(ts, definition.latitude, definition.longitude);
        const fieldSky = fieldWeather.at(ts);
        const cover = cloudy ? fieldSky.cover : 0;
        const ghi = clearSkyGhiHaurwitz(sun.zenithDeg) * (cloudy ? fieldSky.clearSkyIndex : 1);
        const poa = planeOfArrayIsotropic(
          decomposeGhi(ghi, sun.zenithDeg, doy),
          sun,
          definition.tiltDeg,
          definition.azimuthDeg,
        );
        const ambientC =
          ambientTemperature(ts, doy, definition.latitude, definition.longitude, climate, cover) +
          fieldSky.ambientAnomalyK;
        const modC = moduleTemperatureFaiman(poa, ambientC, fieldSky.windSpeedMs);
        const soilingRatio = soiling ? soiling.ratio(solarDayIndex(ts, definition.longitude)) : 1;
        let sumAcKw = 0;
        for (const [i, inv] of inverters.entries()) {
          const degradation =
            commissionedMs === undefined ? 1 : degradationFactor(inv.degradationPerYear, commissionedMs, ts);
          const dc = dcPowerKw(poa * inv.gain * soilingRatio, modC, inv.dcKwp * degradation);
          const ac = inverterAcPower(dc, inv.ratedKw).acKw;
          acMean[i] = acMean[i]! + ac * stepH;
          inv.energy.add(ac * stepH, ts, ts);
          sumAcKw += ac;
        }
        const trLoad = sumAcKw / transformerKva;
        const plantKw =
          sumAcKw -
          (CABLE_LOSS_FRACTION * sumAcKw +
            transformerKva * (TRANSFORMER_NO_LOAD_LOSS + TRANSFORMER_LOAD_LOSS * trLoad * trLoad) +
            AUXILIARY_FRACTION * totalRatedKw);
        meterExport.add(Math.max(plantKw, 0) * stepH, ts, ts);
        meterImport.add(Math.max(-plantKw, 0) * stepH, ts, ts);
        poaMean += poa * stepH;
        ghiMean += ghi * stepH;
        moduleMean += modC * stepH;
        ambientMean += ambientC * stepH;
        windMean += fieldSky.windSpeedMs * stepH;
        meterMean += plantKw * stepH;
        loadMean += (sumAcKw / 0.999) * stepH;
        windingMean += transformerWindingTemperature(ambientC, sumAcKw / 0.999 / transformerKva) * stepH;
      }
      const push = (signals: VirtualSignalDefinition[], values: Record<string, number>) => {
        for (const s of signals) {
          const value = values[s.key];
          if (value !== undefined) out.push({ signalId: s.signalId, hourMs, value });
        }
      };
      for (const [i, inv] of inverters.entries())
        push(invSignals[i]!, {
          ac_power: round(acMean[i]!, 3),
          total_energy: round(inv.energy.totalKwh, 3),
        });
      for (const [i, dev] of others.entries()) {
        const signals = otherSignals[i]!;
        if (!signals.length) continue;
        if (dev.def.type === 'meter')
          push(signals, {
            active_power: round(meterMean, 3),
            export_energy: round(meterExport.totalKwh, 3),
            import_energy: round(meterImport.totalKwh, 3),
          });
        else if (dev.def.type === 'weather_station')
          push(signals, {
            irradiance: round(poaMean, 1),
            ghi: round(ghiMean, 1),
            module_temperature: round(moduleMean, 1),
            ambient_temperature: round(ambientMean, 1),
            wind_speed: round(windMean, 1),
          });
        else if (dev.def.type === 'transformer') {
          const rated = dev.def.ratedPowerKw ?? transformerKva;
          push(signals, { temperature: round(windingMean, 1), load: round((loadMean / rated) * 100, 1) });
        }
      }
    }
    return out;
  }

  async function backfill(
    fromMs: number,
    toMs: number,
    stepMs: number,
    onBatch: BackfillBatchHandler,
    { batchSize = TELEMETRY_MAX_POINTS }: { batchSize?: number } = {},
  ): Promise<BackfillResult> {
    if (!(stepMs > 0)) throw new RangeError('stepMs must be positive');
    const started = performance.now();
    let buffer: TelemetryPoint[] = [];
    let samples = 0;
    let points = 0;
    for (let ts = fromMs; ts <= toMs; ts += stepMs) {
      samples++;
      for (const device of sample(ts)) {
        for (const p of device.points) buffer.push({ signal_id: p.signalId, ts, value: p.value });
      }
      while (buffer.length >= batchSize) {
        const batch = buffer.slice(0, batchSize);
        buffer = buffer.slice(batchSize);
        points += batch.length;
        await onBatch(batch);
      }
    }
    if (buffer.length > 0) {
      points += buffer.length;
      await onBatch(buffer);
    }
    return { samples, points, elapsedMs: performance.now() - started };
  }

  function forceFault(
    deviceId: number | string,
    kind: FaultKind,
    tsMs: number,
    durationMs: number,
    fraction?: number,
  ): void {
    const device = [...inverters, ...others].find((d) => d.def.deviceId === deviceId);
    if (!device) throw new RangeError(`Plant ${definition.plantId} has no device ${deviceId}`);
    device.faults.force(kind, tsMs, durationMs, fraction);
  }

  function setFaultRates(faults: boolean | Partial<FaultRates>): void {
    const next = faultRatesOf(faults);
    for (const device of [...inverters, ...others]) device.faults.setRates(next);
  }

  function truth(): PlantTruth {
    const dayOf = (ts: number) => solarDayIndex(ts, definition.longitude);
    // The solar day d starts at UTC midnight shifted by the longitude (see solarDayIndex).
    const dayStartMs = (day: number) =>
      Math.round(day * 86_400_000 - (definition.longitude / 360) * 86_400_000);
    return {
      plantId: definition.plantId,
      fieldId: field.id,
      commissionedMs,
      degradationPerYear: { ...degradationRates },
      degradationFactor(deviceId, tsMs) {
        const rate = degradationRates[String(deviceId)];
        if (rate === undefined)
          throw new RangeError(`Plant ${definition.plantId} has no inverter ${deviceId}`);
        return commissionedMs === undefined ? 1 : degradationFactor(rate, commissionedMs, tsMs);
      },
      soilingRatePerDay: soilingRate,
      soilingRatio: (tsMs) => (soiling ? soiling.ratio(dayOf(tsMs)) : 1),
      soilingResets: (fromMs, toMs) =>
        soiling
          ? soiling
              .resets(dayOf(fromMs), dayOf(toMs))
              .map((r) => ({ dayStartMs: dayStartMs(r.day), kind: r.kind }))
          : [],
      rainOn: (tsMs) => rainOnDay(dayOf(tsMs)),
      inverterEfficiency: {
        model: 'pvwatts-v5',
        nominalEfficiency: NOMINAL_INVERTER_EFFICIENCY,
        curve: (load) => inverterEfficiency(load),
      },
      losses: {
        dcLumpedFraction: DC_LOSS_FRACTION,
        cableFraction: CABLE_LOSS_FRACTION,
        transformerNoLoadFractionOfRating: TRANSFORMER_NO_LOAD_LOSS,
        transformerLoadFractionOfRating: TRANSFORMER_LOAD_LOSS,
        auxiliaryFractionOfAcCapacity: AUXILIARY_FRACTION,
      },
      dataFaults: dataFaults.injected(),
    };
  }

  return {
    definition,
    sample,
    backfill,
    forceFault,
    hourlyHistory,
    weather: () => weather,
    setFaultRates,
    injectDataFault: (fault) => dataFaults.add(fault),
    truth,
  };
}

/** The rates an option asks for: false none, true or omitted the defaults, an object some overridden. */
function faultRatesOf(faults: boolean | Partial<FaultRates> | undefined): FaultRates {
  if (faults === false) return NO_FAULTS;
  return { ...DEFAULT_FAULT_RATES, ...(typeof faults === 'object' ? faults : {}) };
}

/** Share of an inverter's DC on MPPT input i; lost strings come off input 1. */
function mpptShare(i: number, lostStringFraction: number): number {
  const first = 0.52 * (1 - lostStringFraction);
  return (i === 0 ? first : 0.48) / (first + 0.48);
}

/** Backfills several plants one after another; see VirtualPlant.backfill. */
export async function backfillPlants(
  plants: readonly VirtualPlant[],
  fromMs: number,
  toMs: number,
  stepMs: number,
  onBatch: BackfillBatchHandler,
  options?: { batchSize?: number },
): Promise<BackfillResult> {
  const started = performance.now();
  let samples = 0;
  let points = 0;
  for (const plant of plants) {
    const r = await plant.backfill(fromMs, toMs, stepMs, onBatch, options);
    samples += r.samples;
    points += r.points;
  }
  return { samples, points, elapsedMs: performance.now() - started };
}
