/**
 * Plant-level alarm conditions, pure: no I/O, no clock. The engine keeps the latest inverter power and
 * irradiance of each plant and, on its timer, asks `judgePlant` what to raise and clear at `now`.
 *
 * - No production in daylight: the plant's inverters together produce at most 1 % of their rating (0.1 kW
 *   when no rating is known) while irradiance is above the threshold, for `noProductionDelayMs`. Judged
 *   only with fresh irradiance and at least one fresh inverter: silence is the communication-loss alarm's.
 * - Underperformance against peers: an inverter more than `performanceThresholdPct` below the median of its
 *   peers, with at least 3 inverters reporting, in daylight, for `performanceDelayMs` (rule-eval's
 *   `underperformers`). Daylight comes from irradiance when the plant has a weather station.
 */
import { ALARM_PRIORITY, type AlarmPriority, type AlarmSource } from '@solar/shared';
import { MSG } from './device-codes';
import { IDLE, STALE_FACTOR, stepCondition, underperformers, type ConditionState } from './rule-eval';

/** The latest value of one signal and how often it is expected. */
export interface Reading {
  ts: number;
  value: number;
  intervalMs: number;
}

/** What the engine knows of one plant now. */
export interface PlantReadings {
  plantId: number;
  /** Latest AC power (kW) by inverter id. */
  powerKw: ReadonlyMap<number, Reading>;
  /** Latest irradiance (W/m²) by weather station id. */
  irradianceWm2: ReadonlyMap<number, Reading>;
  /** Rated AC power (kW) by inverter id, where known. */
  ratedKw: ReadonlyMap<number, number>;
}

export interface PlantConditionOptions {
  irradianceThresholdWm2: number;
  noProductionDelayMs: number;
  performanceThresholdPct: number;
  performanceDelayMs: number;
}

export const DEFAULT_PLANT_CONDITION_OPTIONS: PlantConditionOptions = {
  irradianceThresholdWm2: 200,
  noProductionDelayMs: 15 * 60_000,
  performanceThresholdPct: 15,
  performanceDelayMs: 30 * 60_000,
};

/** Share of the rated power at or below which a plant counts as producing nothing. */
const NO_PRODUCTION_SHARE = 0.01;
/** The floor when no inverter has a rating. */
const NO_PRODUCTION_FALLBACK_KW = 0.1;

/** One raise or clear a plant condition asks for. */
export type PlantConditionAction =
  | {
      kind: 'raise';
      key: string;
      plantId: number;
      deviceId: number | null;
      source: AlarmSource;
      priority: AlarmPriority;
      message: string;
      params: Record<string, number>;
      at: number;
    }
  | { kind: 'clear'; key: string; at: number };

/** True when a reading is recent enough to judge (not older than STALE_FACTOR expected intervals). */
export function isFresh(reading: Reading | undefined, now: number): reading is Reading {
  return !!reading && now - reading.ts <= STALE_FACTOR * reading.intervalMs;
}

/** Condition key of a plant's no-production alarm. */
export const noProductionKey = (plantId: number): string => `noprod:${plantId}`;
/** Condition key of an inverter's underperformance alarm. */
export const performanceKey = (deviceId: number): string => `perf:${deviceId}`;

/**
 * Whether the plant produces nothing in sunshine now: true, false, or null when it cannot be judged (no
 * fresh irradiance or no fresh inverter). Also answers the highest fresh irradiance (W/m²).
 */
export function noProductionHolds(
  plant: PlantReadings,
  now: number,
  irradianceThresholdWm2: number,
): { holds: boolean | null; irradianceWm2: number | null } {
  const irradiance = [...plant.irradianceWm2.values()].filter((r) => isFresh(r, now)).map((r) => r.value);
  const irradianceWm2 = irradiance.length ? Math.max(...irradiance) : null;
  const live = [...plant.powerKw.values()].filter((r) => isFresh(r, now));
  if (irradianceWm2 === null || live.length === 0) return { holds: null, irradianceWm2 };
  const ratedKw = [...plant.powerKw.keys()].reduce((sum, id) => sum + (plant.ratedKw.get(id) ?? 0), 0);
  const floorKw = ratedKw > 0 ? ratedKw * NO_PRODUCTION_SHARE : NO_PRODUCTION_FALLBACK_KW;
  const producedKw = live.reduce((sum, r) => sum + Math.max(0, r.value), 0);
  return { holds: irradianceWm2 > irradianceThresholdWm2 && producedKw <= floorKw, irradianceWm2 };
}

/**
 * Per fresh inverter: true when it is more than `thresholdPct` below its peers' median in daylight, false
 * when it is not (or at night), null when it cannot be judged (fewer than 3 reporting). Without a fresh
 * irradiance the plant is taken to be in daylight, and the peers' median decides.
 */
export function performanceVerdicts(
  plant: PlantReadings,
  now: number,
  thresholdPct: number,
  irradianceThresholdWm2: number,
): Map<number, boolean | null> {
  const irradiance = [...plant.irradianceWm2.values()].filter((r) => isFresh(r, now)).map((r) => r.value);
  const daylight = irradiance.length ? Math.max(...irradiance) > irradianceThresholdWm2 : true;
  const live = new Map(
    [...plant.powerKw].filter(([, r]) => isFresh(r, now)).map(([id, r]) => [id, r.value] as const),
  );
  return underperformers(live, thresholdPct, daylight);
}

/**
 * Steps both conditions of one plant to `now`. `states` holds each condition's state by key (absent: idle,
 * or raised when `isActive(key)` says an alarm of it is stored, e.g. after a restart); answers the new
 * states of the conditions it stepped (merge them; the others keep theirs) and the raises and clears.
 */
export function judgePlant(
  plant: PlantReadings,
  states: ReadonlyMap<string, ConditionState>,
  isActive: (key: string) => boolean,
  now: number,
  options: PlantConditionOptions,
): { states: Map<string, ConditionState>; actions: PlantConditionAction[] } {
  const next = new Map<string, ConditionState>();
  const actions: PlantConditionAction[] = [];
  const step = (key: string, holds: boolean | null, delayMs: number) => {
    const before = states.get(key) ?? (isActive(key) ? { phase: 'raised' as const, since: now } : IDLE);
    const result = stepCondition(before, holds, now, { onDelayMs: delayMs, offDelayMs: 0 });
    next.set(key, result.state);
    if (result.action === 'clear') actions.push({ kind: 'clear', key, at: now });
    return result.action === 'raise';
  };

  if (plant.powerKw.size) {
    const key = noProductionKey(plant.plantId);
    const { holds, irradianceWm2 } = noProductionHolds(plant, now, options.irradianceThresholdWm2);
    if (step(key, holds, options.noProductionDelayMs))
      actions.push({
        kind: 'raise',
        key,
        plantId: plant.plantId,
        deviceId: null,
        source: 'plant_no_production',
        priority: ALARM_PRIORITY.high,
        message: MSG.plantNoProduction,
        params: { irradiance: Math.round(irradianceWm2 ?? 0) },
        at: now,
      });
  }

  const verdicts = performanceVerdicts(
    plant,
    now,
    options.performanceThresholdPct,
    options.irradianceThresholdWm2,
  );
  for (const [deviceId, holds] of verdicts) {
    const key = performanceKey(deviceId);
    if (step(key, holds, options.performanceDelayMs))
      actions.push({
        kind: 'raise',
        key,
        plantId: plant.plantId,
        deviceId,
        source: 'performance',
        priority: ALARM_PRIORITY.medium,
        message: MSG.underperformance,
        params: { threshold: options.performanceThresholdPct },
        at: now,
      });
  }
  return { states: next, actions };
}
