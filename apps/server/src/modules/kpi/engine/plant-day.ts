/**
 * The formulas of this folder composed for one plant-day, plus the period arithmetic on top: a day's KPIs
 * from its 5-minute intervals (what `kpi_daily` materialises and "today" computes live), and a month's or
 * year's KPIs from stored days by summing additive quantities and recomputing the ratios (IEC 61724-1:2021
 * aggregates PR as Σ E / (P0 Σ H), never as a mean of daily ratios).
 */
import { LOSS_KINDS, type EnergySource, type IrradianceSource, type LossKind } from '@solar/shared';
import {
  energyBasedAvailability,
  inverterTimeAvailability,
  ratedAvailability,
  type TimeAvailability,
} from './availability';
import { co2AvoidedKg } from './co2';
import { plantEnergy } from './energy';
import {
  addExcludedEnergy,
  dayEnergyLimitKwh,
  daylightHours,
  isDayEnergyImpossible,
  noExcludedEnergy,
  type ExcludedEnergyKwh,
} from './excluded-energy';
import { estimateModuleTemperatureC, expectedPowerKw } from './expected-power';
import type { InverterIntervalData } from './inverter-intervals';
import { combinedIrradianceSource, resolvePoa, type PlantGeometry } from './irradiance';
import { dayLosses } from './losses';
import {
  finalYieldKwhKwp,
  irradiationKwhM2,
  performanceRatio,
  referenceYieldKwhKwp,
  temperatureCorrectedReferenceKwh,
} from './yields';

/** The plant's parameters (the plant form), in the units the formulas take. */
export interface PlantKpiConfig {
  /** P0; null when not set (yields and PR are then null). */
  dcCapacityKwp: number | null;
  /** Clipping threshold; the inverters' summed rating when null. */
  acCapacityKw: number | null;
  /** Rated AC power of each inverter, in the order of PlantDayInterval.inverters. */
  inverterRatedAcKw: readonly number[];
  gammaPerK?: number;
  systemLossFraction?: number;
  /** Needed to transpose GHI when the station has no POA sensor. */
  geometry: PlantGeometry | null;
  /** Where the plant is, for the day's daylight hours (excluded-energy.ts); null when not known. */
  location?: { latitude: number; longitude: number } | null;
  /** emissionFactorFor(country).kgPerKwh */
  co2FactorKgPerKwh: number;
}

/** One interval (a 5-minute rollup bucket) of the plant: weather means and each inverter's energy. */
export interface PlantDayInterval {
  startMs: number;
  durationMs: number;
  poaWm2: number | null;
  ghiWm2: number | null;
  moduleTemperatureC: number | null;
  ambientTemperatureC: number | null;
  windSpeedMs: number | null;
  inverters: readonly InverterIntervalData[];
  /** The meter's export in the interval, kWh (for the power chart; the day's total is `meterExportKwh`). */
  meterExportKwh?: number | null;
}

export interface PlantDayInput {
  config: PlantKpiConfig;
  intervals: readonly PlantDayInterval[];
  /** The meter's export energy for the day (its counter delta); null without a meter or its data. */
  meterExportKwh: number | null;
  /**
   * What the counters claimed beyond their devices' bounds in the day (the rollups' rejected deltas, kWh):
   * the meter's export counter, and the inverters' counters summed. Absent: none.
   */
  rejectedKwh?: { meter: number; inverters: number };
  /**
   * Energy of replayed devices already left out of the intervals and the meter's total (the service does
   * that, since it knows the flags' periods), kWh: the meter's, and the inverters' summed. Absent: none.
   */
  replayedKwh?: { meter: number; inverters: number };
}

/** What a materialised day keeps: additive quantities, so any period's KPIs follow by summing. */
export interface DailyKpiSums {
  energyKwh: number | null;
  energySource: EnergySource;
  irradiationKwhM2: number;
  irradianceSource: IrradianceSource;
  expectedEnergyKwh: number;
  lossesKwh: Record<LossKind, number>;
  /** The PR sums: energy, irradiation and temperature-corrected reference of days that have both energy and irradiation. */
  prEnergyKwh: number;
  prIrradiationKwhM2: number;
  prCorrectedReferenceKwh: number;
  /** Σ P_j · available_j and Σ P_j · assessed_j, kW × intervals (plantTimeAvailability). */
  availableRatedKwIntervals: number;
  assessedRatedKwIntervals: number;
  co2AvoidedKg: number | null;
  /** Energy reported but not counted as production, per reason (excluded-energy.ts). */
  excludedEnergyKwh: ExcludedEnergyKwh;
}

/** The KPIs of a period, as the `kpis` answer carries them (the route maps them to snake_case). */
export interface PlantKpis {
  energyKwh: number | null;
  energySource: EnergySource;
  specificYieldKwhKwp: number | null;
  irradiationKwhM2: number;
  irradianceSource: IrradianceSource;
  referenceYieldKwhKwp: number;
  pr: number | null;
  prTemperatureCorrected: number | null;
  expectedEnergyKwh: number;
  lossesKwh: Record<LossKind, number>;
  /** Time-based, weighted by rated AC power. */
  availability: number | null;
  /** Energy-based, IEC TS 63019. */
  energyAvailability: number | null;
  co2AvoidedKg: number | null;
  excludedEnergyKwh: ExcludedEnergyKwh;
}

/** One point of the day's power chart. */
export interface PowerPoint {
  startMs: number;
  /** Σ inverter energy / Δt; null when no inverter reported. */
  actualPowerKw: number | null;
  /** The meter's export / Δt; null without a meter reading in the interval. */
  meterPowerKw: number | null;
  expectedPowerKw: number | null;
  poaWm2: number | null;
}

export interface PlantDayResult {
  sums: DailyKpiSums;
  kpis: PlantKpis;
  /** Per inverter, in input order. */
  inverterAvailability: TimeAvailability[];
  series: PowerPoint[];
}

/** A plant-day's KPIs from its intervals: POA (measured or transposed), expected power, losses, availability, PR. */
export function plantDayKpis({
  config,
  intervals,
  meterExportKwh,
  rejectedKwh,
  replayedKwh,
}: PlantDayInput): PlantDayResult {
  const n = config.inverterRatedAcKw.length;
  const acCapacityKw = config.acCapacityKw ?? config.inverterRatedAcKw.reduce((a, b) => a + b, 0);
  const model = {
    capacityKwp: config.dcCapacityKwp ?? 0,
    gammaPerK: config.gammaPerK,
    systemLossFraction: config.systemLossFraction,
  };
  const sources: IrradianceSource[] = [];
  const weather = intervals.map((iv) => {
    const poa = resolvePoa(
      { tsMs: iv.startMs + iv.durationMs / 2, poaWm2: iv.poaWm2, ghiWm2: iv.ghiWm2 },
      config.geometry,
    );
    sources.push(poa.source);
    const moduleTemperatureC =
      iv.moduleTemperatureC ??
      (iv.ambientTemperatureC !== null && poa.poaWm2 !== null
        ? estimateModuleTemperatureC(poa.poaWm2, iv.ambientTemperatureC, iv.windSpeedMs ?? undefined)
        : null);
    const expectedKw =
      poa.poaWm2 === null || config.dcCapacityKwp === null
        ? null
        : expectedPowerKw(poa.poaWm2, moduleTemperatureC, model);
    return { poaWm2: poa.poaWm2, moduleTemperatureC, expectedKw };
  });

  const inverterEnergiesKwh = Array.from({ length: n }, (_, j) => {
    let total: number | null = null;
    for (const iv of intervals) {
      const e = iv.inverters[j]?.energyKwh ?? null;
      if (e !== null) total = (total ?? 0) + e;
    }
    return total;
  });
  const reported = plantEnergy({ meterExportKwh, inverterEnergiesKwh });
  const excludedEnergyKwh = noExcludedEnergy();
  // The jumps of the counters the day's energy comes from: the meter's when it is the source.
  if (reported.source === 'meter') excludedEnergyKwh.counter_jump = rejectedKwh?.meter ?? 0;
  else if (reported.source === 'inverters') excludedEnergyKwh.counter_jump = rejectedKwh?.inverters ?? 0;
  if (reported.source === 'meter') excludedEnergyKwh.replayed_day = replayedKwh?.meter ?? 0;
  else if (reported.source === 'inverters') excludedEnergyKwh.replayed_day = replayedKwh?.inverters ?? 0;
  // More than the AC capacity can deliver in the day's daylight: none of it is production.
  // The sun is placed only for a day with energy to judge (most days computed for a report have none).
  const impossible =
    reported.energyKwh !== null &&
    reported.energyKwh > 0 &&
    isDayEnergyImpossible(
      reported.energyKwh,
      dayEnergyLimitKwh(
        acCapacityKw > 0 ? acCapacityKw : null,
        daylightHours(intervals, config.location ?? null),
      ),
    );
  if (impossible) excludedEnergyKwh.day_energy_impossible = reported.energyKwh!;
  const energy = impossible ? { energyKwh: null, source: reported.source } : reported;

  const losses = dayLosses({
    inverterRatedAcKw: config.inverterRatedAcKw,
    acCapacityKw,
    meterEnergyKwh: energy.source === 'meter' ? energy.energyKwh : null,
    intervals: intervals.map((iv, i) => ({
      durationMs: iv.durationMs,
      poaWm2: weather[i]!.poaWm2,
      expectedPowerKw: weather[i]!.expectedKw,
      inverters: iv.inverters,
    })),
  });

  const inverterAvailability = Array.from({ length: n }, (_, j) =>
    inverterTimeAvailability(
      intervals.map((iv, i) => ({
        poaWm2: weather[i]!.poaWm2,
        data: iv.inverters[j] ?? { energyKwh: null },
      })),
    ),
  );
  const rated = inverterAvailability.map((a, j) => ratedAvailability(config.inverterRatedAcKw[j]!, a));

  const irradiation = irradiationKwhM2(
    intervals.map((iv, i) => ({ irradianceWm2: weather[i]!.poaWm2 ?? 0, durationMs: iv.durationMs })),
  );
  const correctedReferenceKwh = temperatureCorrectedReferenceKwh(
    intervals.map((iv, i) => ({
      poaWm2: weather[i]!.poaWm2 ?? 0,
      moduleTemperatureC: weather[i]!.moduleTemperatureC,
      durationMs: iv.durationMs,
    })),
    model,
  );
  const judged = energy.energyKwh !== null && irradiation > 0;

  const sums: DailyKpiSums = {
    energyKwh: energy.energyKwh,
    energySource: energy.source,
    irradiationKwhM2: irradiation,
    irradianceSource: combinedIrradianceSource(sources),
    expectedEnergyKwh: losses.expectedEnergyKwh,
    lossesKwh: losses.byKindKwh,
    prEnergyKwh: judged ? energy.energyKwh! : 0,
    prIrradiationKwhM2: judged ? irradiation : 0,
    prCorrectedReferenceKwh: judged ? correctedReferenceKwh : 0,
    availableRatedKwIntervals: rated.reduce((s, r) => s + Math.max(r.ratedAcKw, 0) * r.availableIntervals, 0),
    assessedRatedKwIntervals: rated.reduce((s, r) => s + Math.max(r.ratedAcKw, 0) * r.assessedIntervals, 0),
    co2AvoidedKg: co2AvoidedKg(energy.energyKwh, config.co2FactorKgPerKwh),
    excludedEnergyKwh,
  };
  const kpis = kpisFromSums(sums, config.dcCapacityKwp);

  const series: PowerPoint[] = intervals.map((iv, i) => {
    let kwh: number | null = null;
    for (const d of iv.inverters) if (d.energyKwh !== null) kwh = (kwh ?? 0) + d.energyKwh;
    const meterKwh = iv.meterExportKwh ?? null;
    return {
      startMs: iv.startMs,
      actualPowerKw: kwh === null ? null : kwh / (iv.durationMs / 3_600_000),
      meterPowerKw: meterKwh === null ? null : meterKwh / (iv.durationMs / 3_600_000),
      expectedPowerKw: weather[i]!.expectedKw,
      poaWm2: weather[i]!.poaWm2,
    };
  });
  return { sums, kpis, inverterAvailability, series };
}

/** The KPIs from (possibly summed) daily quantities; P0 turns energy into yields. */
export function kpisFromSums(sums: DailyKpiSums, dcCapacityKwp: number | null): PlantKpis {
  const prFinalYield = finalYieldKwhKwp(sums.prEnergyKwh, dcCapacityKwp);
  return {
    energyKwh: sums.energyKwh,
    energySource: sums.energySource,
    specificYieldKwhKwp: finalYieldKwhKwp(sums.energyKwh, dcCapacityKwp),
    irradiationKwhM2: sums.irradiationKwhM2,
    irradianceSource: sums.irradianceSource,
    referenceYieldKwhKwp: referenceYieldKwhKwp(sums.irradiationKwhM2),
    pr: performanceRatio(prFinalYield, referenceYieldKwhKwp(sums.prIrradiationKwhM2)),
    prTemperatureCorrected:
      sums.prCorrectedReferenceKwh > 0 ? sums.prEnergyKwh / sums.prCorrectedReferenceKwh : null,
    expectedEnergyKwh: sums.expectedEnergyKwh,
    lossesKwh: { ...sums.lossesKwh },
    availability:
      sums.assessedRatedKwIntervals > 0
        ? sums.availableRatedKwIntervals / sums.assessedRatedKwIntervals
        : null,
    energyAvailability:
      sums.energyKwh === null ? null : energyBasedAvailability(sums.energyKwh, sums.lossesKwh.downtime),
    co2AvoidedKg: sums.co2AvoidedKg,
    excludedEnergyKwh: { ...sums.excludedEnergyKwh },
  };
}

function addNullable(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

/**
 * Stored days summed into a month or a year. The energy source is `meter` only when every day with energy
 * used the meter; one day on the inverters' sum makes the period `inverters`.
 */
export function combineDailyKpiSums(days: readonly DailyKpiSums[]): DailyKpiSums {
  const lossesKwh = Object.fromEntries(LOSS_KINDS.map((k) => [k, 0])) as Record<LossKind, number>;
  let energyKwh: number | null = null;
  let co2: number | null = null;
  let anyMeter = false;
  let anyInverters = false;
  let excludedEnergyKwh = noExcludedEnergy();
  const out = {
    irradiationKwhM2: 0,
    expectedEnergyKwh: 0,
    prEnergyKwh: 0,
    prIrradiationKwhM2: 0,
    prCorrectedReferenceKwh: 0,
    availableRatedKwIntervals: 0,
    assessedRatedKwIntervals: 0,
  };
  for (const d of days) {
    energyKwh = addNullable(energyKwh, d.energyKwh);
    co2 = addNullable(co2, d.co2AvoidedKg);
    if (d.energySource === 'meter') anyMeter = true;
    if (d.energySource === 'inverters') anyInverters = true;
    for (const key of Object.keys(out) as (keyof typeof out)[]) out[key] += d[key];
    for (const k of LOSS_KINDS) lossesKwh[k] += d.lossesKwh[k];
    excludedEnergyKwh = addExcludedEnergy(excludedEnergyKwh, d.excludedEnergyKwh);
  }
  return {
    ...out,
    energyKwh,
    energySource: anyInverters ? 'inverters' : anyMeter ? 'meter' : 'none',
    irradianceSource: combinedIrradianceSource(days.map((d) => d.irradianceSource)),
    lossesKwh,
    co2AvoidedKg: co2,
    excludedEnergyKwh,
  };
}
