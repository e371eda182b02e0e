/**
 * One plant day's detection as a unit that can run on the event loop or on the data-quality thread
 * (detection-thread.ts): what to read (a DetectionRequest, plain data that crosses between threads), the
 * read itself, and the detectors over what was read. The same functions run in both places, so the thread
 * finds exactly what the engine found in process.
 */
import type { Db, Dialect } from '../../../db/database';
import { readRawSeries, readRollupSeries, type SeriesPoints } from '../../../telemetry-store/queries';
import { detectPlantDay, type DetectedFlag, type NeighbourIrradiance, type PlantDay } from '../detectors';
import { buildPlantDayInput, seriesOf, type EngineSignal } from './plant-day-input';

/** What the detection of one plant day reads and judges. */
export interface DetectionRequest {
  plantDay: PlantDay;
  signals: EngineSignal[];
  /** Starts of the earlier days the detectors see, newest first. */
  earlierStarts: number[];
  /** The plant's signals are read over [fromMs, plantDay.dayEndMs): the day and the earlier days. */
  fromMs: number;
  /** The irradiance signals of the plant's neighbours, read over the day only. */
  neighbours: { signal: EngineSignal; km: number }[];
  /**
   * The sensor-drift check's baseline starts here: the plant's POA and AC power signals' hourly means over
   * [historyFromMs, plantDay.dayStartMs) are read from the hourly rollup. Absent: not read, not checked.
   */
  historyFromMs?: number;
}

/** The signals whose hourly history the sensor-drift check reads. */
const historySignals = (signals: readonly EngineSignal[]) =>
  signals.filter((s) => s.kind.kind === 'irradiance_poa' || s.kind.kind === 'ac_power');

/** The readings of a request: the plant's signals and its neighbours', by signal id. */
export interface DetectionPoints {
  points: Map<number, SeriesPoints>;
  neighbourPoints: Map<number, SeriesPoints>;
  /** Hourly means (stamped at the hour's start) of the POA and AC power signals before the day. */
  hourlyPoints: Map<number, SeriesPoints>;
}

/** What the detection of one plant day found, and how many readings of the day it judged. */
export interface Detection {
  flags: DetectedFlag[];
  readings: number;
}

/** How the readings are read: readRawSeries, or the engine's read in steps on the event loop. */
export type ReadRaw = typeof readRawSeries;

/** Reads a request's readings through the telemetry store's query API. */
export async function readDetectionPoints(
  db: Db,
  dialect: Dialect,
  request: DetectionRequest,
  read: ReadRaw = readRawSeries,
): Promise<DetectionPoints> {
  const { plantDay, signals, neighbours, fromMs } = request;
  const ids = (list: readonly EngineSignal[]) => list.map((s) => s.signalId);
  const points = await read(db, dialect, ids(signals), fromMs, plantDay.dayEndMs);
  const neighbourPoints = await read(
    db,
    dialect,
    ids(neighbours.map((n) => n.signal)),
    plantDay.dayStartMs,
    plantDay.dayEndMs,
  );
  const history = request.historyFromMs === undefined ? [] : historySignals(signals);
  // No POA sensor, nothing to check: the power's history is not read either.
  const hasPoa = history.some((s) => s.kind.kind === 'irradiance_poa');
  const hourlyPoints = hasPoa
    ? await readRollupSeries(
        db,
        dialect,
        '1h',
        history.map((s) => ({ id: s.signalId, from: request.historyFromMs!, counter: false })),
        'avg',
        plantDay.dayStartMs,
      )
    : new Map<number, SeriesPoints>();
  return { points, neighbourPoints, hourlyPoints };
}

/** Runs the detectors over a request's readings: CPU only, no I/O. */
export function detect(request: DetectionRequest, read: DetectionPoints): Detection {
  const { plantDay, signals, earlierStarts, neighbours } = request;
  const neighbourSeries: NeighbourIrradiance[] = neighbours.map((n) => ({
    plantId: n.signal.plantId,
    distanceKm: n.km,
    series: seriesOf(
      n.signal,
      read.neighbourPoints.get(n.signal.signalId) ?? [],
      plantDay.dayStartMs,
      plantDay.dayEndMs,
    ),
  }));
  const input = buildPlantDayInput(plantDay, signals, read.points, earlierStarts, neighbourSeries);
  if (request.historyFromMs !== undefined && read.hourlyPoints.size > 0)
    input.hourlyHistory = historySignals(signals).map((s) =>
      seriesOf(s, read.hourlyPoints.get(s.signalId) ?? [], request.historyFromMs!, plantDay.dayStartMs),
    );
  const flags = detectPlantDay(input);
  const readings = input.series.reduce((n, s) => n + s.readings.length, 0);
  return { flags, readings };
}

/**
 * Readings as they cross to the thread: per signal its timestamps and values as two arrays whose buffers
 * are moved, not copied (a null value becomes NaN, which the detectors' input drops as it drops null).
 */
export type PackedPoints = [signalId: number, ts: Float64Array, values: Float64Array][];

/** Packs `points` and lists the buffers to move with them. */
export function packPoints(points: ReadonlyMap<number, SeriesPoints>): {
  packed: PackedPoints;
  transfer: ArrayBuffer[];
} {
  const packed: PackedPoints = [];
  const transfer: ArrayBuffer[] = [];
  for (const [id, series] of points) {
    const ts = new Float64Array(series.length);
    const values = new Float64Array(series.length);
    series.forEach(([t, v], i) => {
      ts[i] = t;
      values[i] = v ?? Number.NaN;
    });
    packed.push([id, ts, values]);
    transfer.push(ts.buffer, values.buffer);
  }
  return { packed, transfer };
}

/** The points `packPoints` packed. */
export function unpackPoints(packed: PackedPoints): Map<number, SeriesPoints> {
  const out = new Map<number, SeriesPoints>();
  for (const [id, ts, values] of packed) {
    const series: SeriesPoints = [];
    for (let i = 0; i < ts.length; i++) series.push([ts[i]!, Number.isNaN(values[i]) ? null : values[i]!]);
    out.set(id, series);
  }
  return out;
}
