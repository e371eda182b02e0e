import { zoneOffsetMs, type HistoryColumnUnit } from '@solar/shared';
import { isBlank, numberOf, timeOf, type ReadFile } from './history-file';

/** A point to store: epoch ms (UTC) and the value in the signal's unit. */
export interface Point {
  ts: number;
  value: number;
}

/** What the import needs of a mapped signal. */
export interface MappedSignal {
  signalId: number;
  deviceId: number;
  /** The signal's unit as configured (kW, kWh, W/m²…), or null. */
  unit: string | null;
  isCounter: boolean;
}

/** One column's mapping once checked: where it is read and how its values become the signal's. */
export interface ColumnPlan {
  sheet: string;
  column: number;
  signal: MappedSignal;
  /** Multiplier from the column's unit to the signal's. */
  factor: number;
  /** `accumulate`: interval energy into a counter; `difference`: a counter into per-interval energy. */
  energy: 'as_is' | 'accumulate' | 'difference';
}

export interface SignalPoints {
  signal: MappedSignal;
  /** Sorted by time, one per timestamp. */
  points: Point[];
  /** Rows of the file with a timestamp already seen for the signal (the first value is kept). */
  duplicates: number;
}

const POWER: Record<string, number> = { w: 1e-3, kw: 1, mw: 1e3 };
const ENERGY: Record<string, number> = { wh: 1e-3, kwh: 1, mwh: 1e3 };

/**
 * The factor from a column's unit to a signal's (W/kW/MW among themselves, Wh/kWh/MWh among themselves);
 * 1 for `as_is`; undefined when they measure different things, or the signal's unit is not one of these.
 */
export function unitFactor(column: HistoryColumnUnit, signalUnit: string | null): number | undefined {
  if (column === 'as_is') return 1;
  const to = (signalUnit ?? '').trim().toLowerCase();
  const from = column.toLowerCase();
  for (const family of [POWER, ENERGY])
    if (family[from] !== undefined && family[to] !== undefined) return family[from] / family[to];
  return undefined;
}

/**
 * Wall times of a zone to instants, with the zone's offset looked up once per wall-clock hour: a year of
 * 5-minute rows asks Intl 8,760 times instead of 105,120. A wall time repeated by a fall-back change reads
 * as its first occurrence, one skipped by a spring-forward change as past the gap (as localMidnight).
 */
export function wallToInstant(timeZone: string): (wallMs: number) => number {
  const HOUR = 3_600_000;
  const byHour = new Map<number, number>();
  return (wallMs) => {
    const hour = Math.floor(wallMs / HOUR);
    let offset = byHour.get(hour);
    if (offset === undefined) {
      const guess = hour * HOUR;
      const offsets = [...new Set([-12, 0, 12].map((h) => zoneOffsetMs(guess + h * HOUR, timeZone)))];
      // Offsets under which this wall time exists; the larger is the earlier instant (first occurrence).
      const fits = offsets.filter((o) => zoneOffsetMs(guess - o, timeZone) === o);
      offset = fits.length ? Math.max(...fits) : Math.min(...offsets);
      byHour.set(hour, offset);
    }
    return wallMs - offset;
  };
}

/** Reads every mapped column of the file into each signal's points, in the signal's unit. */
export function buildPoints(
  file: ReadFile,
  plans: readonly ColumnPlan[],
  timeZone: string,
): { rows: number; bySignal: Map<number, SignalPoints> } {
  const { decimal_mark: decimal, time_format: format } = file.detection;
  const toInstant = wallToInstant(timeZone);
  const bySignal = new Map<number, SignalPoints>();
  let rows = 0;
  const sheetsRead = new Set<string>();
  for (const plan of plans) {
    const entry = file.tables.get(plan.sheet);
    if (!entry) continue;
    const { table, shape } = entry;
    if (!sheetsRead.has(plan.sheet)) {
      sheetsRead.add(plan.sheet);
      rows += table.rows.length - shape.firstDataRow;
    }
    const raw: Point[] = [];
    for (let i = shape.firstDataRow; i < table.rows.length; i++) {
      const cells = table.rows[i]!.cells;
      const cell = cells[plan.column] ?? null;
      if (isBlank(cell)) continue;
      const value = numberOf(cell, decimal);
      const time = timeOf(cells[shape.sheet.time_column] ?? null, format);
      if (value === undefined || !time) continue;
      raw.push({ ts: time.absolute ? time.ms : toInstant(time.ms), value: value * plan.factor });
    }
    raw.sort((a, b) => a.ts - b.ts);
    const points: Point[] = [];
    let duplicates = 0;
    for (const p of raw) {
      if (points.length && points[points.length - 1]!.ts === p.ts) duplicates++;
      else points.push(p);
    }
    bySignal.set(plan.signal.signalId, {
      signal: plan.signal,
      points: transformEnergy(points, plan.energy),
      duplicates,
    });
  }
  return { rows, bySignal };
}

/**
 * Per-interval energy summed into a counter that starts at 0 with the file's first interval, or a counter's
 * steps as per-interval energy (a drop is a reset: the new value is what accrued since, as the store reads
 * counters). The first reading of a counter has no interval before it and is left out.
 */
export function transformEnergy(points: readonly Point[], energy: ColumnPlan['energy']): Point[] {
  if (energy === 'as_is') return points as Point[];
  if (energy === 'accumulate') {
    let sum = 0;
    return points.map((p) => ({ ts: p.ts, value: (sum += p.value) }));
  }
  const out: Point[] = [];
  for (let i = 1; i < points.length; i++) {
    const step = points[i]!.value - points[i - 1]!.value;
    out.push({ ts: points[i]!.ts, value: step >= 0 ? step : points[i]!.value });
  }
  return out;
}
