/**
 * A plant-day from the database: the 5-minute rollups of the plant's KPI signals turned into the engine's
 * intervals (engine/plant-day.ts), and the day's data completeness from the daily rollups. Used live for
 * today and the power chart, and by the refresh job for the days it materialises in kpi_daily.
 */
import { createHash } from 'node:crypto';
import {
  EXCLUDED_ENERGY_REASONS,
  EXCLUDED_IRRADIANCE_REASONS,
  type DataQualityReason,
  type ExcludedIrradiance,
  type ExcludedIrradianceReason,
  FIXED_BUCKET_MS,
  LOSS_KINDS,
  type DeviceCompleteness,
  type KpiValues,
  type LossKind,
} from '@solar/shared';
import type { Db } from '../../db/database';
import { readRollups, type RollupBucket } from '../../telemetry-store/queries';
import { readFlagsOfReasons, type FlagRow } from '../data-quality';
import {
  combineDailyKpiSums,
  countryOfTimeZone,
  dailyCompleteness,
  dataCompleteness,
  DAYLIGHT_THRESHOLD_WM2,
  DEFAULT_SYSTEM_LOSS_FRACTION,
  emissionFactorFor,
  G_STC_WM2,
  kpisFromSums,
  localDayRange,
  periodCoverage,
  plantDayKpis,
  T_STC_C,
  type DailyKpiSums,
  type GridEmissionFactor,
  type PlantDayInterval,
  type PlantDayResult,
  type PlantKpiConfig,
} from './engine';
import * as repo from './kpi.repository';

const FIVE_MIN_MS = FIXED_BUCKET_MS['5m'];
const HOUR_MS = FIXED_BUCKET_MS['1h'];

/** Completeness counted against the interval the data was meant to arrive at (engine expectedIntervalS). */
const COMPLETENESS_RULE = 'c2';
/** The version of the excluded-energy rules (engine/excluded-energy.ts) a stored day was computed under. */
const EXCLUSION_RULE = 'x2';

/**
 * The data-quality reasons whose open flags change a KPI day: a stored day computed before such a flag was
 * found or accepted is recomputed (kpi.service finishedDays).
 */
export const KPI_FLAG_REASONS: readonly DataQualityReason[] = [
  ...new Set<DataQualityReason>(['replayed_day', ...EXCLUDED_IRRADIANCE_REASONS]),
];

/** The plant's irradiance sensors the KPIs read (POA, else GHI transposed). */
const irradianceSignalIds = (signals: repo.PlantSignals) =>
  [signals.weather.poa, signals.weather.ghi].flatMap((s) => (s ? [s.signalId] : []));

/** A flag (open or accepted) of EXCLUDED_IRRADIANCE_REASONS on one of the plant's irradiance sensors. */
function onIrradianceSensor(
  flag: FlagRow,
  signals: repo.PlantSignals,
): flag is FlagRow & { signalId: number } {
  return (
    flag.signalId !== null &&
    (EXCLUDED_IRRADIANCE_REASONS as readonly DataQualityReason[]).includes(flag.reason) &&
    irradianceSignalIds(signals).includes(flag.signalId)
  );
}

/** An open flag on one of the plant's irradiance sensors that the KPIs leave out (EXCLUDED_IRRADIANCE_REASONS). */
function doubtsIrradiance(flag: FlagRow, signals: repo.PlantSignals): flag is FlagRow & { signalId: number } {
  return flag.acceptedAt === null && onIrradianceSensor(flag, signals);
}

/** Whether a flag (open or accepted) changes a KPI day: a replayed device, or a doubted irradiance sensor. */
export function changesKpis(flag: FlagRow, signals: repo.PlantSignals): boolean {
  return flag.reason === 'replayed_day' || onIrradianceSensor(flag, signals);
}

/** Whether the 5-minute interval starting at `startMs` (of `durationMs`) and [fromMs, toMs) overlap. */
const overlaps = (startMs: number, durationMs: number, p: { fromMs: number; toMs: number }) =>
  startMs < p.toMs && startMs + durationMs > p.fromMs;

/**
 * Irradiance the data-quality engine doubts is missing data (docs/kpi.md, "Irradiance the data-quality
 * engine doubts"): in each interval an open flag of EXCLUDED_IRRADIANCE_REASONS touches on the POA (or GHI)
 * sensor, that sensor's mean is taken out, so the engine treats the interval as it treats one without
 * irradiance (the POA then comes from the GHI when only the POA is doubted, else none).
 */
export function leaveOutDoubtedIrradiance(
  intervals: PlantDayInterval[],
  signals: repo.PlantSignals,
  flags: readonly FlagRow[],
): void {
  const doubted = flags.filter((f) => doubtsIrradiance(f, signals));
  if (doubted.length === 0) return;
  const { poa, ghi } = signals.weather;
  for (const iv of intervals) {
    const hit = (s: repo.KpiSignal | undefined) =>
      s !== undefined &&
      doubted.some((f) => f.signalId === s.signalId && overlaps(iv.startMs, iv.durationMs, f));
    if (hit(poa)) iv.poaWm2 = null;
    if (hit(ghi)) iv.ghiWm2 = null;
  }
}

/**
 * Hours of [fromMs, toMs) whose irradiance was left out (leaveOutDoubtedIrradiance), per reason and in
 * total: each flag widened to the 5-minute intervals it touches, overlaps counted once.
 */
export function excludedIrradianceHours(
  flags: readonly FlagRow[],
  signals: repo.PlantSignals,
  fromMs: number,
  toMs: number,
): ExcludedIrradiance {
  const spans = (list: readonly FlagRow[]) =>
    list.map((f) => ({
      fromMs: Math.max(fromMs, Math.floor(f.fromMs / FIVE_MIN_MS) * FIVE_MIN_MS),
      toMs: Math.min(toMs, Math.ceil(f.toMs / FIVE_MIN_MS) * FIVE_MIN_MS),
    }));
  const doubted = flags.filter((f) => doubtsIrradiance(f, signals));
  const out = Object.fromEntries(
    EXCLUDED_IRRADIANCE_REASONS.map((r) => [r, unionHours(spans(doubted.filter((f) => f.reason === r)))]),
  ) as Record<ExcludedIrradianceReason, number>;
  return { ...out, total: unionHours(spans(doubted)) };
}

/** The hours the spans cover, overlaps once. */
function unionHours(spans: { fromMs: number; toMs: number }[]): number {
  let ms = 0;
  let end = -Infinity;
  for (const s of [...spans].sort((a, b) => a.fromMs - b.fromMs)) {
    if (s.toMs <= s.fromMs) continue;
    ms += Math.max(0, s.toMs - Math.max(s.fromMs, end));
    end = Math.max(end, s.toMs);
  }
  return ms / 3_600_000;
}

/** The additive completeness of a day or period: Σ received (capped) and Σ expected samples. */
export interface SampleCounts {
  expectedSamples: number;
  receivedSamples: number;
}

/** A day's additive figures: the engine's sums plus completeness counts. */
export interface DayFigures {
  sums: DailyKpiSums;
  samples: SampleCounts;
}

/** The array's position and orientation, when all of it is known (GHI is transposed to the plane with it). */
export function geometryOf(plant: repo.KpiPlant): PlantKpiConfig['geometry'] {
  return plant.latitude !== null &&
    plant.longitude !== null &&
    plant.tiltDeg !== null &&
    plant.azimuthDeg !== null
    ? {
        latitude: plant.latitude,
        longitude: plant.longitude,
        tiltDeg: plant.tiltDeg,
        azimuthDeg: plant.azimuthDeg,
      }
    : null;
}

/** The admin's grid emission factors by country (SettingsService.co2Overrides); they win over the table. */
export type Co2Overrides = Readonly<Record<string, GridEmissionFactor>>;

/** The engine's configuration for a plant. */
export function plantConfig(
  plant: repo.KpiPlant,
  signals: repo.PlantSignals,
  co2Overrides: Co2Overrides,
): PlantKpiConfig {
  const geometry = geometryOf(plant);
  return {
    dcCapacityKwp: plant.dcCapacityKwp,
    acCapacityKw: plant.acCapacityKw,
    inverterRatedAcKw: signals.inverters.map((i) => i.ratedAcKw ?? 0),
    gammaPerK: plant.gammaPerK,
    systemLossFraction: plant.systemLossFraction,
    geometry,
    location:
      plant.latitude !== null && plant.longitude !== null
        ? { latitude: plant.latitude, longitude: plant.longitude }
        : null,
    co2FactorKgPerKwh: co2FactorOf(plant, co2Overrides).kgPerKwh,
  };
}

/**
 * The grid emission factor of the plant's country (from its time zone): the admin's, else the built-in
 * table's, else the default (the precedence is co2.ts's).
 */
export function co2FactorOf(plant: repo.KpiPlant, co2Overrides: Co2Overrides) {
  return emissionFactorFor(countryOfTimeZone(plant.timeZone), co2Overrides);
}

/** The model's inputs as the answers carry them (kpiModelSchema). */
export function modelOf(plant: repo.KpiPlant, config: PlantKpiConfig, co2Overrides: Co2Overrides) {
  const co2 = co2FactorOf(plant, co2Overrides);
  const ratedSum = config.inverterRatedAcKw.reduce((a, b) => a + b, 0);
  return {
    dc_capacity_kwp: plant.dcCapacityKwp,
    ac_capacity_kw: plant.acCapacityKw ?? (ratedSum > 0 ? ratedSum : null),
    temperature_coefficient_per_k: plant.gammaPerK,
    system_loss_fraction: plant.systemLossFraction ?? DEFAULT_SYSTEM_LOSS_FRACTION,
    g_ref_w_m2: G_STC_WM2,
    t_ref_c: T_STC_C,
    daylight_threshold_w_m2: DAYLIGHT_THRESHOLD_WM2,
    co2_factor_kg_per_kwh: co2.kgPerKwh,
    co2_factor_country: co2.country,
    co2_factor_year: co2.year,
    co2_factor_source: co2.source,
    co2_factor_origin: co2.origin,
  };
}

/**
 * What a stored day was computed with: when the plant's parameters, its inverters' ratings or its CO₂
 * factor (an admin's override) change, the key changes and the stored day is recomputed on its next read.
 * The factor comes before the ratings, whose list may reach the key's length limit.
 */
export function paramsKeyOf(
  plant: repo.KpiPlant,
  config: PlantKpiConfig,
  signals: repo.PlantSignals,
): string {
  const key = [
    // The completeness rule's version: days stored under an older rule are recomputed on their next read.
    COMPLETENESS_RULE,
    // Days stored before energy was judged (counter jumps, impossible days) are recomputed on their next read.
    EXCLUSION_RULE,
    // Energy counters not counting in kWh (absent when all do, so days stored before units counted keep their key).
    ...counterUnitsKey(signals),
    config.co2FactorKgPerKwh,
    plant.dcCapacityKwp,
    plant.acCapacityKw,
    plant.gammaPerK,
    plant.systemLossFraction,
    plant.latitude,
    plant.longitude,
    plant.tiltDeg,
    plant.azimuthDeg,
    config.inverterRatedAcKw.join(','),
  ].join('|');
  return fitParamsKey(key);
}

/** The stored key's column length (`kpi_daily.params_key`). */
export const PARAMS_KEY_LENGTH = 200;

/**
 * A key that fits the column: as it is when short enough (days stored under it keep it), otherwise its
 * beginning and a digest of the whole. Cut at the limit instead, a plant with many inverters lost the end
 * of its ratings list, so a change to a later inverter's rating left its stored days as they were.
 */
export function fitParamsKey(key: string): string {
  if (key.length <= PARAMS_KEY_LENGTH) return key;
  const digest = createHash('sha256').update(key).digest('base64url');
  return `${key.slice(0, PARAMS_KEY_LENGTH - digest.length - 1)}#${digest}`;
}

/** `signal id×factor` of the energy counters that do not count in kWh, as one part of a key (or none). */
function counterUnitsKey(signals: repo.PlantSignals): string[] {
  const counters = [...signals.inverters.map((i) => i.energyTotal), signals.meterExport];
  const scaled = counters.filter((s) => s !== undefined && s.kwhPerUnit !== 1);
  return scaled.length ? [`u${scaled.map((s) => `${s!.signalId}x${s!.kwhPerUnit}`).join(',')}`] : [];
}

/**
 * The signals a plant-day reads: weather, the inverters' lifetime counters and power limits, the meter's
 * export counter and grid availability.
 */
export function daySignalIds(signals: repo.PlantSignals): number[] {
  const w = signals.weather;
  return [
    ...[w.poa, w.ghi, w.moduleTemperature, w.ambientTemperature, w.windSpeed]
      .filter((s) => s !== undefined)
      .map((s) => s.signalId),
    ...signals.inverters.flatMap((i) => (i.energyTotal ? [i.energyTotal.signalId] : [])),
    ...signals.inverters.flatMap((i) => (i.powerLimitPct ? [i.powerLimitPct.signalId] : [])),
    ...(signals.meterExport ? [signals.meterExport.signalId] : []),
    ...(signals.gridAvailable ? [signals.gridAvailable.signalId] : []),
  ];
}

/** Below this mean limit (%) an interval counts as curtailed: 100 % with rounding noise is no limit. */
const UNLIMITED_PCT = 99.5;

/**
 * Whether the grid excused an inverter in an interval (signal-map gridAvailable, inverterPowerLimitPct):
 * any 0 of the grid availability in the bucket (its mean below 1), or a power limit below 100 %. Without
 * those signals nothing is excused.
 */
function gridExcused(gridBucket: RollupBucket | undefined, limitBucket: RollupBucket | undefined) {
  const gridMean = mean(gridBucket);
  const limitMean = mean(limitBucket);
  return (gridMean !== null && gridMean < 1) || (limitMean !== null && limitMean < UNLIMITED_PCT);
}

const mean = (b: RollupBucket | undefined) => (b && b.count > 0 ? b.sum / b.count : null);

/** A counter's energy in a bucket, in kWh whatever unit it counts in; null without a delta. */
const kwhOf = (s: repo.KpiSignal | undefined, b: RollupBucket | undefined) =>
  s === undefined || b?.delta === null || b?.delta === undefined ? null : b.delta * s.kwhPerUnit;

/**
 * One local day of a plant from its 5-minute rollups, up to `untilMs` (now, for today). Each interval
 * takes the mean of the weather signals and each inverter's lifetime-counter delta (the store credits a
 * counter step to the bucket of the reading that closes it, as the engine expects); the meter's export is
 * the sum of its counter's deltas.
 */
export async function computePlantDay(
  db: Db,
  plant: repo.KpiPlant,
  signals: repo.PlantSignals,
  date: string,
  untilMs: number,
  co2Overrides: Co2Overrides,
): Promise<{
  result: PlantDayResult;
  samples: SampleCounts;
  devices: DeviceCompleteness[];
  config: PlantKpiConfig;
}> {
  const config = plantConfig(plant, signals, co2Overrides);
  const range = localDayRange(date, plant.timeZone);
  const endMs = Math.min(range.endMs, Math.max(untilMs, range.startMs));
  const w = signals.weather;
  let rows = await readRollups(db, '5m', daySignalIds(signals), range.startMs, endMs);
  // A day held only at hourly resolution (a history written as hourly rollups: the demo's years before
  // its raw month, docs/simulator.md) is computed from its hours, each an interval of the same engine.
  let stepMs = FIVE_MIN_MS;
  let firstMs = range.startMs;
  if (rows.length === 0) {
    const hours = await readRollups(db, '1h', daySignalIds(signals), range.startMs, endMs);
    if (hours.length > 0) {
      rows = hours;
      stepMs = HOUR_MS;
      firstMs = Math.ceil(range.startMs / HOUR_MS) * HOUR_MS;
    }
  }
  const at = new Map<string, RollupBucket>();
  for (const r of rows) at.set(`${r.signalId}:${r.bucket}`, r);
  const get = (s: repo.KpiSignal | undefined, bucket: number) =>
    s === undefined ? undefined : at.get(`${s.signalId}:${bucket}`);

  const intervals: PlantDayInterval[] = [];
  for (let b = firstMs; b < endMs; b += stepMs) {
    intervals.push({
      startMs: b,
      // The bucket still open at `untilMs` holds only its elapsed part.
      durationMs: Math.min(b + stepMs, endMs) - b,
      poaWm2: mean(get(w.poa, b)),
      ghiWm2: mean(get(w.ghi, b)),
      moduleTemperatureC: mean(get(w.moduleTemperature, b)),
      ambientTemperatureC: mean(get(w.ambientTemperature, b)),
      windSpeedMs: mean(get(w.windSpeed, b)),
      inverters: signals.inverters.map((inv) => ({
        energyKwh: kwhOf(inv.energyTotal, get(inv.energyTotal, b)),
        excused: gridExcused(get(signals.gridAvailable, b), get(inv.powerLimitPct, b)),
      })),
      meterExportKwh: kwhOf(signals.meterExport, get(signals.meterExport, b)),
    });
  }
  let meterExportKwh: number | null = null;
  for (const r of rows)
    if (signals.meterExport && r.signalId === signals.meterExport.signalId && r.delta !== null)
      meterExportKwh = (meterExportKwh ?? 0) + r.delta * signals.meterExport.kwhPerUnit;

  // The energy the store refused from each counter (its rejected deltas), in kWh.
  const rejectedKwh = { meter: 0, inverters: 0 };
  const inverterCounters = new Map(
    signals.inverters.flatMap((i) => (i.energyTotal ? [[i.energyTotal.signalId, i.energyTotal]] : [])),
  );
  for (const r of rows) {
    if (!r.rejectedDelta) continue;
    if (signals.meterExport && r.signalId === signals.meterExport.signalId)
      rejectedKwh.meter += r.rejectedDelta * signals.meterExport.kwhPerUnit;
    const inverter = inverterCounters.get(r.signalId);
    if (inverter) rejectedKwh.inverters += r.rejectedDelta * inverter.kwhPerUnit;
  }

  const flags = await readFlagsOfReasons(db, plant.id, date, date, KPI_FLAG_REASONS);
  const replayedKwh = leaveOutReplayed(intervals, signals, flags);
  leaveOutDoubtedIrradiance(intervals, signals, flags);
  if (meterExportKwh !== null) meterExportKwh -= replayedKwh.meter;

  const result = plantDayKpis({ config, intervals, meterExportKwh, rejectedKwh, replayedKwh });
  const { samples, devices } = await dayCompleteness(db, plant, date, untilMs);
  return { result, samples, devices, config };
}

/**
 * Replayed data never counts as energy (docs/kpi.md, "replayed_day"): for each device with an open
 * `replayed_day` flag on any of its signals (the detector judges power and irradiance, not the counter, whose
 * replay steps back and climbs the old day's plausible steps again), its counter's energy in the intervals
 * the flag covers is taken out of them, as missing data is, and returned per source (kWh).
 */
export function leaveOutReplayed(
  intervals: PlantDayInterval[],
  signals: repo.PlantSignals,
  flags: readonly FlagRow[],
): { meter: number; inverters: number } {
  const out = { meter: 0, inverters: 0 };
  const periods = new Map<number, { fromMs: number; toMs: number }[]>();
  for (const f of flags)
    if (f.reason === 'replayed_day' && f.acceptedAt === null && f.deviceId !== null)
      periods.set(f.deviceId, [...(periods.get(f.deviceId) ?? []), f]);
  if (periods.size === 0) return out;
  const covered = (deviceId: number, iv: PlantDayInterval) =>
    periods.get(deviceId)?.some((p) => overlaps(iv.startMs, iv.durationMs, p)) ?? false;
  const meterDevice = signals.meterExport?.deviceId;
  for (const iv of intervals) {
    if (meterDevice !== undefined && covered(meterDevice, iv)) {
      out.meter += iv.meterExportKwh ?? 0;
      iv.meterExportKwh = null;
    }
    const inverters = iv.inverters.map((data, j) => {
      if (!covered(signals.inverters[j]!.deviceId, iv)) return data;
      out.inverters += data.energyKwh ?? 0;
      return { ...data, energyKwh: null };
    });
    iv.inverters = inverters;
  }
  return out;
}

/**
 * The day's data completeness of each active device of the plant (the daily rollups' sample counts) and
 * the plant's additive total, counted up to `untilMs` when the day is still running.
 */
export async function dayCompleteness(
  db: Db,
  plant: repo.KpiPlant,
  date: string,
  untilMs: number,
): Promise<{ samples: SampleCounts; devices: DeviceCompleteness[] }> {
  const range = localDayRange(date, plant.timeZone);
  const rows = await repo.readDaySamples(db, plant.id, range.startMs, range.endMs);
  const samples: SampleCounts = { expectedSamples: 0, receivedSamples: 0 };
  const devices = rows.map((d) => {
    const c = dailyCompleteness({
      date,
      timeZone: plant.timeZone,
      pollIntervalS: d.pollIntervalS,
      receivedSamples: d.receivedSamples,
      bucketsWithData: d.bucketsWithData,
      bucketS: d.bucketS,
      nowMs: untilMs < range.endMs ? untilMs : undefined,
    });
    samples.expectedSamples += c.expectedSamples;
    samples.receivedSamples += Math.min(c.receivedSamples, c.expectedSamples);
    return {
      device_id: d.deviceId,
      name: d.name,
      type: d.type,
      poll_interval_s: d.pollIntervalS,
      expected_interval_s: c.expectedIntervalS,
      expected_samples: c.expectedSamples,
      received_samples: c.receivedSamples,
      data_completeness: c.completeness,
    };
  });
  return { samples, devices };
}

/** A stored day back to its figures. */
export function figuresOfRow(row: repo.KpiDailyRow): DayFigures {
  return {
    sums: {
      energyKwh: row.energy_kwh,
      energySource: row.energy_source as DailyKpiSums['energySource'],
      irradiationKwhM2: row.irradiation_kwh_m2,
      irradianceSource: row.irradiance_source as DailyKpiSums['irradianceSource'],
      expectedEnergyKwh: row.expected_energy_kwh,
      lossesKwh: {
        downtime: row.loss_downtime_kwh,
        communication_gap: row.loss_communication_gap_kwh,
        clipping: row.loss_clipping_kwh,
        grid_curtailment: row.loss_grid_curtailment_kwh,
        underperformance: row.loss_underperformance_kwh,
      },
      prEnergyKwh: row.pr_energy_kwh,
      prIrradiationKwhM2: row.pr_irradiation_kwh_m2,
      prCorrectedReferenceKwh: row.pr_corrected_reference_kwh,
      availableRatedKwIntervals: row.available_rated_kw_intervals,
      assessedRatedKwIntervals: row.assessed_rated_kw_intervals,
      co2AvoidedKg: row.co2_avoided_kg,
      excludedEnergyKwh: {
        counter_jump: row.excluded_counter_jump_kwh,
        day_energy_impossible: row.excluded_day_energy_impossible_kwh,
        replayed_day: row.excluded_replayed_day_kwh,
      },
    },
    samples: { expectedSamples: row.expected_samples, receivedSamples: row.received_samples },
  };
}

/** A day's figures as its kpi_daily row. */
export function rowOfFigures(
  plantId: number,
  date: string,
  f: DayFigures,
  paramsKey: string,
  computedAt: number,
): repo.KpiDailyRow {
  const s = f.sums;
  return {
    plant_id: plantId,
    date,
    energy_kwh: s.energyKwh,
    energy_source: s.energySource,
    irradiation_kwh_m2: s.irradiationKwhM2,
    irradiance_source: s.irradianceSource,
    expected_energy_kwh: s.expectedEnergyKwh,
    loss_downtime_kwh: s.lossesKwh.downtime,
    loss_communication_gap_kwh: s.lossesKwh.communication_gap,
    loss_clipping_kwh: s.lossesKwh.clipping,
    loss_grid_curtailment_kwh: s.lossesKwh.grid_curtailment,
    loss_underperformance_kwh: s.lossesKwh.underperformance,
    pr_energy_kwh: s.prEnergyKwh,
    pr_irradiation_kwh_m2: s.prIrradiationKwhM2,
    pr_corrected_reference_kwh: s.prCorrectedReferenceKwh,
    available_rated_kw_intervals: s.availableRatedKwIntervals,
    assessed_rated_kw_intervals: s.assessedRatedKwIntervals,
    co2_avoided_kg: s.co2AvoidedKg,
    excluded_counter_jump_kwh: s.excludedEnergyKwh.counter_jump,
    excluded_day_energy_impossible_kwh: s.excludedEnergyKwh.day_energy_impossible,
    excluded_replayed_day_kwh: s.excludedEnergyKwh.replayed_day,
    expected_samples: f.samples.expectedSamples,
    received_samples: f.samples.receivedSamples,
    params_key: paramsKey,
    computed_at: computedAt,
  };
}

/** Days summed into a period (IEC 61724-1: ratios recomputed from the sums, never averaged). */
export function combineFigures(days: readonly DayFigures[]): DayFigures {
  return {
    sums: combineDailyKpiSums(days.map((d) => d.sums)),
    samples: {
      expectedSamples: days.reduce((a, d) => a + d.samples.expectedSamples, 0),
      receivedSamples: days.reduce((a, d) => a + d.samples.receivedSamples, 0),
    },
  };
}

/** A day's data completeness from its counts; null when nothing was expected of it. */
const dayCompletenessOf = (f: DayFigures | undefined) =>
  f === undefined ? null : dataCompleteness(f.samples.receivedSamples, f.samples.expectedSamples);

/**
 * The KPI values of the local days `dates` of a plant from the figures of those that have any (`days`):
 * the sums combined and the period's coverage over the dates up to `today` (the plant's local today;
 * later dates have not happened yet). Every KPI answer and report row is built here, so the coverage of
 * a month on the plant page and in its report is one figure.
 */
export function periodValuesOf(
  dates: readonly string[],
  days: ReadonlyMap<string, DayFigures>,
  today: string,
  dcCapacityKwp: number | null,
): KpiValues {
  const present = dates.map((d) => days.get(d)).filter((f) => f !== undefined);
  const elapsed = dates.filter((d) => d <= today);
  return kpiValuesOf(
    combineFigures(present),
    dcCapacityKwp,
    periodCoverage(elapsed.map((d) => dayCompletenessOf(days.get(d)))),
  );
}

/** The answer's snake_case KPI values of a period's figures, with the period's coverage (periodValuesOf). */
export function kpiValuesOf(f: DayFigures, dcCapacityKwp: number | null, coverage: number | null): KpiValues {
  const k = kpisFromSums(f.sums, dcCapacityKwp);
  const losses = Object.fromEntries(LOSS_KINDS.map((kind) => [`${kind}_kwh`, k.lossesKwh[kind]])) as Record<
    `${LossKind}_kwh`,
    number
  >;
  return {
    energy_kwh: k.energyKwh,
    energy_source: k.energySource,
    specific_yield_kwh_kwp: k.specificYieldKwhKwp,
    irradiation_kwh_m2: k.irradiationKwhM2,
    irradiance_source: k.irradianceSource,
    reference_yield_kwh_kwp: k.referenceYieldKwhKwp,
    pr: k.pr,
    pr_temperature_corrected: k.prTemperatureCorrected,
    expected_energy_kwh: k.expectedEnergyKwh,
    losses: { ...losses, total_kwh: LOSS_KINDS.reduce((a, kind) => a + k.lossesKwh[kind], 0) },
    availability: { time_based: k.availability, energy_based: k.energyAvailability },
    data_completeness:
      f.samples.expectedSamples > 0
        ? Math.min(f.samples.receivedSamples / f.samples.expectedSamples, 1)
        : null,
    coverage,
    co2_avoided_kg: k.co2AvoidedKg,
    excluded_energy_kwh: {
      ...k.excludedEnergyKwh,
      total: EXCLUDED_ENERGY_REASONS.reduce((a, reason) => a + k.excludedEnergyKwh[reason], 0),
    },
  };
}
