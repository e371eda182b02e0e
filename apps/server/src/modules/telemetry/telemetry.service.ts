import type { energyQuery, latestQuery, telemetryCatalogQuery, telemetryQuery } from '@solar/shared';
import {
  E,
  FIXED_BUCKET_MS,
  INGEST_COUNT_REASONS,
  type IngestCountsAnswer,
  TELEMETRY_AUTO_MIN_POINTS,
  V,
  type EnergyAnswer,
  type PointRejection,
  type Resolution,
  type CatalogSignal,
  type DeviceType,
  type TelemetryAnswer,
  type TelemetryCatalogAnswer,
  type TelemetryIngestAnswer,
  type TelemetrySeries,
} from '@solar/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { badRequest, notFound } from '../../lib/http-errors';
import { iso } from '../../lib/listing';
import { scopeOf } from '../../lib/scope';
import type { IngestPrincipal } from '../../plugins/auth';
import { datesThrough, dayBucket, dayStart, localDate, nextDate } from '../../telemetry-store/buckets';
import { checkPoint, timeWindow } from '../../telemetry-store/point-validation';
import type { StoredPoint } from '../../telemetry-store/telemetry-hub';
import { loadSignalMeta, type SignalMeta } from '../../telemetry-store/telemetry-store.repository';
import { readRawSeries, readRollupSeries, type SeriesPoints } from '../../telemetry-store/queries';
import { columnsOfPoints, type IngestBody } from './fast-ingest';
import { findKpiPlants, KpiService, loadPlantSignals, periodValuesOf } from '../kpi';
import * as repo from './telemetry.repository';

export type TelemetryQueryParsed = z.output<typeof telemetryQuery>;
export type LatestQueryParsed = z.output<typeof latestQuery>;
export type EnergyQueryParsed = z.output<typeof energyQuery>;
export type CatalogQueryParsed = z.output<typeof telemetryCatalogQuery>;

const DAY = 86_400_000;
/** Nominal widths for `auto` and the size guard; a local day is 23 to 25 hours, close enough here. */
const WIDTH = { '1d': DAY, '1h': FIXED_BUCKET_MS['1h'], '5m': FIXED_BUCKET_MS['5m'] } as const;
/** Most points one query answers (signals × buckets, estimated before reading): about 20 MB of JSON. */
export const TELEMETRY_MAX_ANSWER_POINTS = 1_000_000;

/**
 * Points an export reads at once: tens of milliseconds of synchronous SQLite read, where the largest
 * export's million points in one read held the event loop for seconds.
 */
const EXPORT_POINTS_PER_READ = 20_000;

/** Longest energy range, in days (ten years of days is 3,653 items). */
const ENERGY_MAX_DAYS = 3_660;

/** Who sends a batch: an ingest key, or a user whose scope decides. */
export type Sender = { key: IngestPrincipal } | { actor: Actor };

/**
 * The resolution for a query: `auto` is the coarsest rollup that still gives TELEMETRY_AUTO_MIN_POINTS
 * buckets, raw only for a day or less; an explicit `raw` over more than a day is refused (400) because
 * a day of 1-second data for 200 signals is already 17 million points.
 */
export function resolutionFor(requested: Resolution, from: number, to: number): Exclude<Resolution, 'auto'> {
  const span = to - from;
  if (requested === 'raw' && span > DAY) {
    throw badRequest({ resolution: [V.outOfRange] }, E.rawRangeTooLong);
  }
  if (requested !== 'auto') return requested;
  for (const r of ['1d', '1h', '5m'] as const) if (span / WIDTH[r] >= TELEMETRY_AUTO_MIN_POINTS) return r;
  return span > DAY ? '5m' : 'raw';
}

/** Series with the plant's time zone, for exports. */
/** A series with its plant, for the export's plant column and local time. */
export type SeriesWithZone = TelemetrySeries & { time_zone: string; plant_id: number; plant_name: string };

/** Ingest, queries, latest values and energy over the telemetry tables. */
export class TelemetryService {
  /** The plants' KPIs: a plant's energy is theirs. */
  private readonly kpi: KpiService;

  constructor(
    private readonly ctx: Pick<
      AppContext,
      'db' | 'dialect' | 'now' | 'config' | 'settings' | 'telemetry' | 'ingestCounts'
    >,
  ) {
    this.kpi = new KpiService(ctx);
  }

  /**
   * Checks each point (signal known and in the sender's reach, else `unknown_signal` either way; active; then
   * point-validation.ts: timestamp in milliseconds, not in the future nor older than raw retention, value
   * finite and within the signal's bounds) and stores the accepted ones in one batch. Refusals are per point,
   * and counted per device where the device is the sender's: a point for a signal out of reach says nothing
   * about that device.
   */
  async ingest(sender: Sender, body: IngestBody): Promise<TelemetryIngestAnswer> {
    const { db, dialect } = this.ctx;
    const columns = 'points' in body ? columnsOfPoints(body.points) : body;
    const { signal_id: ids, ts: stamps, value: values } = columns;
    const signals = await loadSignalMeta(db, dialect, [...new Set(ids)]);
    let inReach: (s: SignalMeta) => boolean;
    if ('key' in sender) {
      const { deviceId, plantId } = sender.key;
      inReach = (s) => (deviceId !== null ? s.device_id === deviceId : s.plant_id === plantId);
    } else {
      const scope = scopeOf(sender.actor);
      const plants = scope.all ? undefined : await repo.reachablePlantIds(db, scope);
      inReach = (s) => !plants || plants.has(s.plant_id);
    }
    const window = timeWindow(this.ctx.now(), this.ctx.settings.current().raw_retention_days);
    const keyDevice = 'key' in sender ? sender.key.deviceId : null;
    const accepted: StoredPoint[] = [];
    const rejected: TelemetryIngestAnswer['rejected'] = [];
    const reachCache = new Map<number, PointRejection | null>();
    for (let index = 0; index < ids.length; index++) {
      const signal_id = ids[index]!;
      const ts = stamps[index]!;
      const raw = values[index]!;
      const value = Number.isNaN(raw) ? null : raw;
      let reason = reachCache.get(signal_id);
      if (reason === undefined) {
        const s = signals.get(signal_id);
        // A signal out of the sender's reach answers as one that does not exist: a different answer would let
        // an ingest key probe which signal ids other companies have (docs/security.md).
        reason = !s || !inReach(s) ? 'unknown_signal' : !s.active ? 'inactive_signal' : null;
        reachCache.set(signal_id, reason);
      }
      let deviceId: number | null = keyDevice;
      const s = reason === null || reason === 'inactive_signal' ? signals.get(signal_id)! : undefined;
      if (s && reason === null) reason = checkPoint(ts, value, s.bounds, window);
      if (s) deviceId = s.device_id;
      if (reason) {
        rejected.push({ index, signal_id, reason });
        this.ctx.ingestCounts.add(deviceId, reason);
      } else {
        // The one object made per accepted point: stored, then handed to the listeners as it is (`placed`).
        accepted.push({ signal_id, ts, value: value!, device_id: s!.device_id, plant_id: s!.plant_id });
      }
    }
    const result = await this.ctx.telemetry.store(accepted, { meta: signals, placed: true });
    return {
      stored: result.inserted + result.duplicates,
      duplicates: result.duplicates,
      conflicting_duplicates: result.conflicting,
      rejected,
    };
  }

  /** A device's refusal and duplicate counters (404 when out of reach), in INGEST_COUNT_REASONS order. */
  async ingestCounts(actor: Actor, deviceId: number): Promise<IngestCountsAnswer> {
    if (!(await repo.deviceReachable(this.ctx.db, scopeOf(actor), deviceId))) throw notFound();
    const counts = await this.ctx.ingestCounts.read(deviceId);
    const items: IngestCountsAnswer['items'] = [];
    for (const reason of INGEST_COUNT_REASONS) {
      const c = counts.get(reason);
      if (c) items.push({ reason, count: c.count, last_at: iso(c.last_at) });
    }
    return { device_id: deviceId, items };
  }

  /** The signals of a query, all of them in the caller's reach, else 404 (existence is not revealed). */
  private async signalsOf(actor: Actor, ids: readonly number[]): Promise<repo.SeriesSignal[]> {
    const signals = await repo.seriesSignals(this.ctx.db, scopeOf(actor), ids);
    if (signals.length !== ids.length) throw notFound();
    return signals;
  }

  async query(
    actor: Actor,
    q: TelemetryQueryParsed,
  ): Promise<Omit<TelemetryAnswer, 'series'> & { series: SeriesWithZone[] }> {
    const plan = await this.plan(actor, q);
    return { ...plan.head, series: await this.readSeries(plan, plan.signals) };
  }

  /**
   * The series of an export: the same checks and answers as `query`, but the points read a few signals at
   * a time (about EXPORT_POINTS_PER_READ per read) as the file is written, so that no single synchronous
   * SQLite read holds the event loop for long and the whole answer is never in memory at once.
   */
  async exportSeries(
    actor: Actor,
    q: TelemetryQueryParsed,
  ): Promise<Omit<TelemetryAnswer, 'series'> & { series: AsyncGenerator<SeriesWithZone> }> {
    const plan = await this.plan(actor, q);
    const perSignal = plan.resolution === 'raw' ? Infinity : (q.to - q.from) / WIDTH[plan.resolution];
    const signalsPerRead = Math.max(1, Math.floor(EXPORT_POINTS_PER_READ / perSignal));
    const read = (signals: repo.SeriesSignal[]) => this.readSeries(plan, signals);
    async function* series() {
      for (let i = 0; i < plan.signals.length; i += signalsPerRead)
        yield* await read(plan.signals.slice(i, i + signalsPerRead));
    }
    return { ...plan.head, series: series() };
  }

  /** A query's resolution and signals, checked (404 out of reach, 400 too many points). */
  private async plan(actor: Actor, q: TelemetryQueryParsed) {
    const resolution = resolutionFor(q.resolution, q.from, q.to);
    const signals = await this.signalsOf(actor, q.signal_ids);
    if (
      resolution !== 'raw' &&
      (signals.length * (q.to - q.from)) / WIDTH[resolution] > TELEMETRY_MAX_ANSWER_POINTS
    ) {
      throw badRequest({ to: [V.outOfRange] }, E.tooManyPoints);
    }
    return {
      q,
      resolution,
      signals,
      head: { resolution, agg: q.agg, from: iso(q.from), to: iso(q.to) },
    };
  }

  /** The points of some of a plan's signals, as series. */
  private async readSeries(
    plan: Awaited<ReturnType<TelemetryService['plan']>>,
    signals: readonly repo.SeriesSignal[],
  ): Promise<SeriesWithZone[]> {
    const { q, resolution } = plan;
    let points: Map<number, SeriesPoints>;
    if (resolution === 'raw') {
      points = await readRawSeries(
        this.ctx.db,
        this.ctx.dialect,
        signals.map((s) => s.signal_id),
        q.from,
        q.to,
      );
    } else {
      // A bucket belongs to the answer when it starts in [start of the bucket holding `from`, to).
      const startOf = (s: repo.SeriesSignal) =>
        resolution === '1d'
          ? dayBucket(q.from, s.time_zone)
          : q.from - (q.from % FIXED_BUCKET_MS[resolution]);
      // One query for every signal; the database computes each bucket's value (readRollupSeries).
      points = await readRollupSeries(
        this.ctx.db,
        this.ctx.dialect,
        resolution,
        signals.map((s) => ({ id: s.signal_id, from: startOf(s), counter: s.is_counter })),
        q.agg,
        q.to,
      );
    }
    return signals.map((s) => ({
      signal_id: s.signal_id,
      device_id: s.device_id,
      device_name: s.device_name,
      key: s.key,
      name: s.name,
      unit: s.unit,
      is_counter: s.is_counter,
      time_zone: s.time_zone,
      plant_id: s.plant_id,
      plant_name: s.plant_name,
      points: points.get(s.signal_id)!,
    }));
  }

  /**
   * Latest values of a device's or plant's signals. One query when there are values (its rows are those of
   * an owner in reach; on PostgreSQL each round trip counts against the 10 ms aim for 1,000 signals); only
   * an empty answer asks whether the owner is in reach at all: empty list (200), or 404.
   */
  async latest(actor: Actor, q: LatestQueryParsed) {
    const scope = scopeOf(actor);
    const rows = await repo.latestValues(this.ctx.db, scope, q);
    if (rows.length === 0) {
      const ok =
        q.device_id !== undefined
          ? await repo.deviceReachable(this.ctx.db, scope, q.device_id)
          : !!(await repo.plantOf(this.ctx.db, scope, q.plant_id!));
      if (!ok) throw notFound();
    }
    // One object per value, built once in the answer's shape (the rows' own objects are not copied twice).
    return {
      items: rows.map((r) => ({
        signal_id: r.signal_id,
        device_id: r.device_id,
        key: r.key,
        unit: r.unit,
        ts: iso(r.ts),
        value: r.value,
      })),
    };
  }

  /**
   * What the data page offers: the active plants in the caller's reach; with `plant_id` also that plant's
   * active devices, each with its active signals (two queries, whatever the number of devices). A plant
   * that is unknown, inactive or out of reach is 404 (existence is not revealed).
   */
  async catalog(actor: Actor, q: CatalogQueryParsed): Promise<TelemetryCatalogAnswer> {
    const { db } = this.ctx;
    const scope = scopeOf(actor);
    const plants = await repo.catalogPlants(db, scope);
    if (q.plant_id === undefined) return { plants };
    if (!plants.some((p) => p.id === q.plant_id)) throw notFound();
    const [devices, signals] = await Promise.all([
      repo.catalogDevices(db, q.plant_id),
      repo.catalogSignals(db, q.plant_id),
    ]);
    const byDevice = new Map<number, CatalogSignal[]>(devices.map((d) => [d.id, []]));
    for (const { device_id, ...signal } of signals) byDevice.get(device_id)?.push(signal);
    return {
      plants,
      devices: devices.map((d) => ({
        ...d,
        type: d.type as DeviceType,
        signals: byDevice.get(d.id)!,
      })),
    };
  }

  /**
   * Energy per local day, month or year in kWh; every period in [from, to] is answered, null where nothing
   * was counted. A plant's is its KPIs' figure (the meter's export counter, else the sum of the inverters:
   * GET plants/{id}/kpis and the reports answer the same number) with its source, and the sum of its
   * inverters' counters beside it; a device's is its own `total_energy` counter. Counters in Wh and MWh
   * count in kWh.
   */
  async energy(actor: Actor, q: EnergyQueryParsed): Promise<EnergyAnswer> {
    const scope = scopeOf(actor);
    const owner =
      q.device_id !== undefined
        ? await repo.deviceWithZone(this.ctx.db, scope, q.device_id)
        : await repo.plantOf(this.ctx.db, scope, q.plant_id!);
    if (!owner) throw notFound();
    if ((Date.parse(q.to) - Date.parse(q.from)) / DAY > ENERGY_MAX_DAYS)
      throw badRequest({ to: [V.outOfRange] });
    const timeZone = owner.time_zone;
    const periodOf = (date: string) =>
      q.period === 'day'
        ? date
        : q.period === 'month'
          ? `${date.slice(0, 7)}-01`
          : `${date.slice(0, 4)}-01-01`;
    // The dates of each period within [from, to]. Bounded by the day count, checked above: the validated
    // dates cannot leave the calendar (datesThrough).
    const periods = new Map<string, string[]>();
    for (const date of datesThrough(q.from, q.to, ENERGY_MAX_DAYS + 1)) {
      const period = periodOf(date);
      const dates = periods.get(period);
      if (dates) dates.push(date);
      else periods.set(period, [date]);
    }
    // One row per day, summed over the counters by the database (repo.dailyEnergyKwh).
    const counted = new Map<string, number | null>([...periods.keys()].map((p) => [p, null]));
    const days = await repo.dailyEnergyKwh(
      this.ctx.db,
      q.device_id !== undefined ? { device_id: q.device_id } : { plant_id: q.plant_id! },
      dayStart(q.from, timeZone),
      dayStart(nextDate(q.to), timeZone),
    );
    for (const r of days) {
      // Finite deltas can still add up past the largest double: such a day counts as unknown.
      if (!Number.isFinite(r.kwh)) continue;
      const period = periodOf(localDate(r.bucket, timeZone));
      counted.set(period, (counted.get(period) ?? 0) + r.kwh);
    }
    const rounded = (kwh: number | null) => (kwh === null ? null : Math.round(kwh * 1e6) / 1e6);
    if (q.device_id !== undefined) {
      return {
        time_zone: timeZone,
        period: q.period,
        items: [...counted].map(([period, kwh]) => ({ period, energy_kwh: rounded(kwh), source: 'device' })),
      };
    }
    const plant = await this.plantEnergy(scope, q.plant_id!, q.from, q.to, periods);
    return {
      time_zone: timeZone,
      period: q.period,
      items: [...periods.keys()].map((period) => ({
        period,
        energy_kwh: plant.get(period)!.energy_kwh,
        source: plant.get(period)!.energy_source,
        inverter_sum_kwh: rounded(counted.get(period)!),
      })),
    };
  }

  /** The KPI engine's energy and its source for each period's dates (periodValuesOf, as every KPI answer). */
  private async plantEnergy(
    scope: ReturnType<typeof scopeOf>,
    plantId: number,
    from: string,
    to: string,
    periods: ReadonlyMap<string, readonly string[]>,
  ) {
    const [plant] = await findKpiPlants(this.ctx.db, scope, plantId);
    if (!plant) throw notFound();
    const signals = (await loadPlantSignals(this.ctx.db, [plantId])).get(plantId)!;
    const days = await this.kpi.daysBetween(plant, signals, from, nextDate(to));
    const today = localDate(this.ctx.now(), plant.timeZone);
    return new Map(
      [...periods].map(([period, dates]) => [
        period,
        periodValuesOf(dates, days, today, plant.dcCapacityKwp),
      ]),
    );
  }
}
