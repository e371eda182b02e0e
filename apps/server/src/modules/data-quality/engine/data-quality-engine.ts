import type { Db, Dialect } from '../../../db/database';
import { dayStart, localDate, nextDate } from '../../../telemetry-store/buckets';
import { readRawSeries, type SeriesPoints } from '../../../telemetry-store/queries';
import type { SunBasedCheck } from '@solar/shared';
import { SENSOR_DRIFT_HISTORY_DAYS, skippedChecks, type PlantDay } from '../detectors';
import * as repo from '../data-quality.repository';
import { signalKindOf } from '../signal-kinds';
import { detect, readDetectionPoints, type Detection, type DetectionRequest } from './detection';
import type { DetectionRunner } from './detection-runner';
import { distanceKm, EARLIER_DAYS, NEIGHBOUR_RADIUS_KM, type EngineSignal } from './plant-day-input';

const DAY_MS = 86_400_000;

/** The date before a YYYY-MM-DD date. */
export function previousDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** What one run of a plant day did. */
export interface PlantDayRun {
  plantId: number;
  day: string;
  /** Flags the day holds after the run (accepted ones included). */
  flags: number;
  readings: number;
  /** The sun-based checks the run left out because the plant has no location. */
  skippedChecks: SunBasedCheck[];
}

const isIrradiance = (s: EngineSignal) =>
  s.kind.kind === 'irradiance_poa' || s.kind.kind === 'irradiance_ghi';

/**
 * Runs the detectors over plants' local days and stores their flags (docs/data-quality.md, "Engine and
 * API"): reads each day's readings of the plant's signals, the two days before and the irradiance of the
 * plants of its field within NEIGHBOUR_RADIUS_KM through the telemetry store's query API, converts them to
 * the detectors' units, calls detectPlantDay and replaces the day's unaccepted flags with what it found.
 */
/**
 * Signals read per query. A plant's whole read (its signals over the day and the days before it) is hundreds
 * of thousands of rows at the demo's 30 s interval, and better-sqlite3 reads synchronously: in one query it
 * held the event loop for seconds, and pages waited. A few signals at a time, with a turn of the event loop
 * between them, keep each hold to milliseconds.
 */
const SIGNALS_PER_READ = 4;

/** readRawSeries of many signals, a few at a time, yielding to the event loop between the reads. */
async function readRawInSteps(
  db: Db,
  dialect: Dialect,
  ids: readonly number[],
  fromMs: number,
  toMs: number,
): Promise<Map<number, SeriesPoints>> {
  const out = new Map<number, SeriesPoints>();
  for (let i = 0; i < ids.length; i += SIGNALS_PER_READ) {
    const part = await readRawSeries(db, dialect, ids.slice(i, i + SIGNALS_PER_READ), fromMs, toMs);
    for (const [id, points] of part) out.set(id, points);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

export class DataQualityEngine {
  /**
   * With `thread`, each plant day's detectors (and on a SQLite file its read) run on the data-quality
   * thread (detection-runner.ts); without, on the event loop.
   */
  constructor(
    private readonly ctx: { db: Db; dialect: Dialect; now: () => number; thread?: DetectionRunner },
  ) {}

  /** The plant's signals as the engine reads them, by plant id. */
  private async signalsOf(plantIds: readonly number[]): Promise<Map<number, EngineSignal[]>> {
    const out = new Map<number, EngineSignal[]>(plantIds.map((id) => [id, []]));
    for (const row of await repo.loadSignals(this.ctx.db, plantIds)) {
      out.get(row.plantId)!.push({
        signalId: row.signalId,
        deviceId: row.deviceId,
        plantId: row.plantId,
        kind: signalKindOf(row),
        expectedIntervalMs: row.pollIntervalS > 0 ? row.pollIntervalS * 1000 : null,
        ratedPowerKw: row.ratedPowerKw,
      });
    }
    return out;
  }

  /** Runs one plant's local day (YYYY-MM-DD on its clock). */
  async runPlantDay(plant: repo.DqPlant, day: string): Promise<PlantDayRun> {
    const [run] = await this.runDays([{ plant, day }]);
    if (!run) throw new Error(`data quality: plant ${plant.id} ${day} did not run`);
    return run;
  }

  /**
   * Runs plant days one after another: the signals of all their plants and field neighbours are loaded
   * once, the readings per plant day (a plant day of 20 inverters is a few thousand points; a fleet's at
   * once would not fit in memory). With `onError`, a plant day that fails is reported there and the others
   * still run; without, the first failure ends the run.
   */
  async runDays(
    runs: readonly { plant: repo.DqPlant; day: string }[],
    options: {
      stopped?: () => boolean;
      onError?: (run: { plant: repo.DqPlant; day: string }, error: unknown) => void;
    } = {},
  ): Promise<PlantDayRun[]> {
    if (runs.length === 0) return [];
    const plants = runs.map((r) => r.plant);
    const fieldPlants = await repo.plantsOfFields(this.ctx.db, [...new Set(plants.map((p) => p.fieldId))]);
    const signals = await this.signalsOf([...new Set([...plants, ...fieldPlants].map((p) => p.id))]);
    const done: PlantDayRun[] = [];
    for (const run of runs) {
      if (options.stopped?.()) break;
      const { plant } = run;
      const neighbours = fieldPlants
        .filter((n) => n.id !== plant.id && signals.get(n.id)?.some(isIrradiance))
        .map((n) => ({ plant: n, km: kmBetween(plant, n) }))
        .filter(
          (n): n is { plant: repo.DqPlant; km: number } => n.km !== null && n.km <= NEIGHBOUR_RADIUS_KM,
        );
      try {
        done.push(await this.run(plant, run.day, signals.get(plant.id) ?? [], neighbours, signals));
      } catch (error) {
        if (!options.onError) throw error;
        options.onError(run, error);
      }
    }
    return done;
  }

  private async run(
    plant: repo.DqPlant,
    day: string,
    signals: readonly EngineSignal[],
    neighbours: readonly { plant: repo.DqPlant; km: number }[],
    signalsByPlant: ReadonlyMap<number, EngineSignal[]>,
  ): Promise<PlantDayRun> {
    const tz = plant.timeZone;
    const dayStartMs = dayStart(day, tz);
    const dayEndMs = dayStart(nextDate(day), tz);
    const earlierStarts: number[] = [];
    let date = day;
    for (let i = 0; i < EARLIER_DAYS; i++) earlierStarts.push(dayStart((date = previousDate(date)), tz));
    const plantDay: PlantDay = {
      plantId: plant.id,
      timeZone: tz,
      dayStartMs,
      dayEndMs,
      // No location, no sun: detectPlantDay then leaves the sun-based checks out (skippedChecks).
      latitude: plant.latitude,
      longitude: plant.longitude,
      tiltDeg: plant.tiltDeg,
      azimuthDeg: plant.azimuthDeg,
      acCapacityKw: plant.acCapacityKw,
      dcCapacityKwp: plant.dcCapacityKwp,
    };
    const { flags, readings } = await this.detect({
      plantDay,
      signals: [...signals],
      earlierStarts,
      fromMs: earlierStarts.at(-1) ?? dayStartMs,
      historyFromMs: dayStartMs - SENSOR_DRIFT_HISTORY_DAYS * 86_400_000,
      neighbours: neighbours.flatMap((n) =>
        (signalsByPlant.get(n.plant.id) ?? []).filter(isIrradiance).map((s) => ({ signal: s, km: n.km })),
      ),
    });
    const stored = await repo.replaceDayFlags(this.ctx.db, plant.id, day, flags, this.ctx.now());
    return { plantId: plant.id, day, flags: stored, readings, skippedChecks: skippedChecks(plantDay) };
  }

  /** Reads and judges one plant day: on the thread when there is one, else on the event loop. */
  private async detect(request: DetectionRequest): Promise<Detection> {
    const { db, dialect, thread } = this.ctx;
    if (thread?.readsItself) return thread.detect(request);
    const read = await readDetectionPoints(db, dialect, request, readRawInSteps);
    return thread ? thread.detect(request, read) : detect(request, read);
  }
}

function kmBetween(a: repo.DqPlant, b: repo.DqPlant): number | null {
  if (a.latitude === null || a.longitude === null || b.latitude === null || b.longitude === null) return null;
  return distanceKm(a.latitude, a.longitude, b.latitude, b.longitude);
}

/** The plant's local date of an instant. */
export const plantDate = (plant: Pick<repo.DqPlant, 'timeZone'>, ms: number) => localDate(ms, plant.timeZone);
