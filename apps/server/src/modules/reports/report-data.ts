import {
  E,
  LOSS_KINDS,
  REPORT_MAX_DAYS,
  REPORT_MAX_PLANT_DAYS,
  V,
  type AlarmsReportAnswer,
  type BudgetFigures,
  type DegradationReportAnswer,
  type DurationStats,
  type FleetReportAnswer,
  type InvertersReportAnswer,
  type ProductionFigures,
  type ProductionReportAnswer,
  type ReportAnswer,
  type ReportGranularity,
  type ReportPlant,
  type ReportQueryParsed,
  type ReportType,
  type KpiValues,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { badRequest, notFound } from '../../lib/http-errors';
import { nextTurn } from '../../lib/next-turn';
import { scopeOf } from '../../lib/scope';
import { readCounterDeltas } from '../../telemetry-store/queries';
import {
  budgetFigures,
  finalYieldKwhKwp,
  sumBudgetFigures,
  FleetLossesService,
  KpiService,
  periodValuesOf,
  type DayFigures,
} from '../kpi';
import { datesThrough, dayStart, localDate, nextDate } from '../../telemetry-store/buckets';
import { findKpiPlants, loadPlantSignals, readBudgets, type KpiPlant } from '../kpi';
import { PerformanceService } from '../performance';
import * as repo from './reports.repository';

/** What building a report needs of the app. */
export type ReportContext = Pick<AppContext, 'db' | 'now' | 'settings' | 'performanceAnalyses'>;

/** Local dates from `from` to `to`, both inclusive. */
export function datesInclusive(from: string, to: string): string[] {
  // Counted, not compared: ends whatever the dates, and refuses more than a report may span.
  return datesThrough(from, to, REPORT_MAX_DAYS);
}

const keyOf = (date: string, granularity: ReportGranularity) =>
  granularity === 'day' ? date : granularity === 'month' ? date.slice(0, 7) : date.slice(0, 4);

const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? a / b : null);

/** The plants of the report: those asked for (each must be in scope, else 404), or every plant in scope. */
async function plantsOf(ctx: ReportContext, actor: Actor, query: ReportQueryParsed) {
  const inScope = await findKpiPlants(ctx.db, scopeOf(actor));
  if (!query.plant_ids) return inScope;
  const byId = new Map(inScope.map((p) => [p.id, p]));
  return query.plant_ids.map((id) => {
    const p = byId.get(id);
    if (!p) throw notFound();
    return p;
  });
}

/**
 * Refuses a report that would read too much, before reading anything (errors.reportTooLarge): a period of
 * more than REPORT_MAX_DAYS, or more than REPORT_MAX_PLANT_DAYS plant-days read (`readDays` per plant).
 */
export function checkSize(plantCount: number, dayCount: number, readDays = dayCount): void {
  if (dayCount > REPORT_MAX_DAYS) throw badRequest({ to: [V.outOfRange] }, E.reportTooLarge);
  if (plantCount * readDays > REPORT_MAX_PLANT_DAYS)
    throw badRequest({ plant_ids: [V.tooMany] }, E.reportTooLarge);
}

const headOf = (ctx: ReportContext, query: ReportQueryParsed) => ({
  from: query.from,
  to: query.to,
  lang: query.lang,
  generated_at: new Date(ctx.now()).toISOString(),
});

const reportPlant = (p: KpiPlant): ReportPlant => ({
  plant_id: p.id,
  name: p.name,
  company_id: p.companyId,
  company_name: p.companyName,
  time_zone: p.timeZone,
  dc_capacity_kwp: p.dcCapacityKwp,
});

/** A production figure set of some days of one plant (`today`: the plant's, for the coverage). */
function figuresOf(
  days: ReadonlyMap<string, DayFigures>,
  dates: readonly string[],
  plant: KpiPlant,
  budgets: Map<string, { energyKwh: number; irradiationKwhM2: number | null }>,
  today: string,
  excludedIrradianceHours: number,
): ProductionFigures {
  const v = periodValuesOf(dates, days, today, plant.dcCapacityKwp);
  return figuresFrom(
    v,
    dates.some((d) => days.has(d)),
    dates,
    budgets,
    excludedIrradianceHours,
  );
}

/** The report's figures of a period's KPI values, with its budget (`anyDay`: any date has the engine's days). */
function figuresFrom(
  v: KpiValues,
  anyDay: boolean,
  dates: readonly string[],
  budgets: Map<string, { energyKwh: number; irradiationKwhM2: number | null }>,
  excludedIrradianceHours: number,
): ProductionFigures {
  return {
    energy_kwh: v.energy_kwh,
    energy_source: v.energy_source,
    specific_yield_kwh_kwp: v.specific_yield_kwh_kwp,
    irradiation_kwh_m2: v.irradiation_kwh_m2,
    pr: v.pr,
    pr_temperature_corrected: v.pr_temperature_corrected,
    availability: v.availability.time_based,
    expected_energy_kwh: v.expected_energy_kwh,
    losses: v.losses,
    coverage: v.coverage,
    excluded_irradiance_hours_total: excludedIrradianceHours,
    excluded_energy_kwh_total: v.excluded_energy_kwh.total,
    ...budgetFigures(dates, budgets, v.energy_kwh, anyDay ? v.irradiation_kwh_m2 : null),
  };
}

const meanOrNull = (values: readonly (number | null)[]) => {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
};

interface PlantPeriod {
  plant: KpiPlant;
  /** The plant's local today: later dates of the report have not happened yet. */
  today: string;
  dates: string[];
  days: Map<string, DayFigures>;
  budgets: Map<string, { energyKwh: number; irradiationKwhM2: number | null }>;
}

/** Every plant's day figures and budgets over the query's dates. */
async function plantPeriods(ctx: ReportContext, plants: readonly KpiPlant[], query: ReportQueryParsed) {
  const kpi = new KpiService(ctx);
  const dates = datesInclusive(query.from, query.to);
  const ids = plants.map((p) => p.id);
  const signals = await loadPlantSignals(ctx.db, ids);
  const budgets = await readBudgets(
    ctx.db,
    ids,
    Number(query.from.slice(0, 4)),
    Number(query.to.slice(0, 4)),
  );
  const out: PlantPeriod[] = [];
  for (const plant of plants) {
    // SQLite answers on the event loop: other requests go between one plant's year of days and the next's.
    await nextTurn();
    const days = await kpi.daysBetween(plant, signals.get(plant.id)!, query.from, nextDate(query.to));
    const today = localDate(ctx.now(), plant.timeZone);
    out.push({
      plant,
      today,
      dates,
      days,
      budgets: (budgets.get(plant.id) as PlantPeriod['budgets']) ?? new Map(),
    });
  }
  return out;
}

/** Sums plants' figures: energies add, ratios are recomputed from the sums over the plants that have them. */
function fleetFigures(
  parts: readonly { figures: ProductionFigures; kwp: number | null }[],
): ProductionFigures {
  const sumOrNull = (pick: (f: ProductionFigures) => number | null) => {
    const values = parts.map((p) => pick(p.figures)).filter((v): v is number => v !== null);
    return values.length ? values.reduce((a, b) => a + b, 0) : null;
  };
  const energy = sumOrNull((f) => f.energy_kwh);
  const kwp = parts.reduce((a, p) => a + (p.figures.energy_kwh !== null ? (p.kwp ?? 0) : 0), 0);
  // Capacity-weighted means: a fleet's PR and irradiation are those of its kWp, not of its plant count.
  const weighted = (pick: (f: ProductionFigures) => number | null) => {
    let num = 0;
    let den = 0;
    for (const p of parts) {
      const v = pick(p.figures);
      if (v === null || p.kwp === null) continue;
      num += v * p.kwp;
      den += p.kwp;
    }
    return den > 0 ? num / den : null;
  };
  const losses = Object.fromEntries(
    [...LOSS_KINDS.map((k) => `${k}_kwh` as const), 'total_kwh' as const].map((k) => [
      k,
      parts.reduce((a, p) => a + p.figures.losses[k], 0),
    ]),
  ) as ProductionFigures['losses'];
  const sources = new Set(parts.map((p) => p.figures.energy_source));
  return {
    energy_kwh: energy,
    // As a month of days is (combineDailyKpiSums): any plant on its inverters' sum makes the total so.
    energy_source: sources.has('inverters') ? 'inverters' : sources.has('meter') ? 'meter' : 'none',
    specific_yield_kwh_kwp: finalYieldKwhKwp(energy, kwp > 0 ? kwp : null),
    irradiation_kwh_m2: weighted((f) => f.irradiation_kwh_m2) ?? 0,
    pr: weighted((f) => f.pr),
    pr_temperature_corrected: weighted((f) => f.pr_temperature_corrected),
    availability: weighted((f) => f.availability),
    expected_energy_kwh: parts.reduce((a, p) => a + p.figures.expected_energy_kwh, 0),
    losses,
    // Each plant's share of the period with data weighs equally: a fleet half of whose plants reported is half covered.
    coverage: meanOrNull(parts.map((p) => p.figures.coverage)),
    excluded_irradiance_hours_total: parts.reduce((a, p) => a + p.figures.excluded_irradiance_hours_total, 0),
    excluded_energy_kwh_total: parts.reduce((a, p) => a + p.figures.excluded_energy_kwh_total, 0),
    ...sumBudgetFigures(
      parts.map((p) => p.figures as BudgetFigures),
      energy,
    ),
  };
}

async function production(
  ctx: ReportContext,
  plants: readonly KpiPlant[],
  query: ReportQueryParsed,
): Promise<ProductionReportAnswer> {
  const periods = await plantPeriods(ctx, plants, query);
  const groupsOf = (dates: readonly string[]) => {
    const groups = new Map<string, string[]>();
    for (const d of dates) {
      const k = keyOf(d, query.granularity);
      const list = groups.get(k);
      if (list) list.push(d);
      else groups.set(k, [d]);
    }
    return [...groups];
  };
  // The irradiance the figures left out, as the plant page and the fleet view count it: the whole period's
  // first, then each row's.
  const whole = { first: query.from, end: nextDate(query.to) };
  const rowPeriods = groupsOf(datesInclusive(query.from, query.to)).map(([, ds]) => ({
    first: ds[0]!,
    end: nextDate(ds[ds.length - 1]!),
  }));
  const excluded = await new FleetLossesService(ctx, new KpiService(ctx)).excludedIrradiance(plants, () => [
    whole,
    ...rowPeriods,
  ]);
  const out: ProductionReportAnswer['plants'] = [];
  for (const { plant, today, dates, days, budgets } of periods) {
    // A plant's year of days is a few milliseconds of figures; all 218 of the largest report in one go held
    // the event loop for 5 to 8 s (docs/security.md, "Report and export builds"): other requests go between.
    await nextTurn();
    const [total, ...perRow] = excluded.get(plant.id)!;
    const rows = groupsOf(dates).map(([key, ds], i) => ({
      key,
      ...figuresOf(days, ds, plant, budgets, today, perRow[i]!.total),
    }));
    out.push({
      ...reportPlant(plant),
      totals: figuresOf(days, dates, plant, budgets, today, total!.total),
      excluded_irradiance_hours: total!,
      rows,
    });
  }
  return {
    type: 'production',
    ...headOf(ctx, query),
    granularity: query.granularity,
    plants: out,
    totals: fleetFigures(out.map((p) => ({ figures: p.totals, kwp: p.dc_capacity_kwp }))),
  };
}

/**
 * The fleet report: each plant's period through the fleet loss view's service (GET plants/losses), so its
 * energy, expected energy, losses, availability, PR and coverage are that view's figures, not a second
 * computation; the budget and the alarm count are added to them.
 */
async function fleet(
  ctx: ReportContext,
  plants: readonly KpiPlant[],
  query: ReportQueryParsed,
): Promise<FleetReportAnswer> {
  const dates = datesInclusive(query.from, query.to);
  const ids = plants.map((p) => p.id);
  const losses = await new FleetLossesService(ctx, new KpiService(ctx)).periodLosses(plants, () => ({
    first: query.from,
    end: nextDate(query.to),
  }));
  const budgets = await readBudgets(
    ctx.db,
    ids,
    Number(query.from.slice(0, 4)),
    Number(query.to.slice(0, 4)),
  );
  const alarms = await repo.countAlarms(ctx.db, rangesOf(plants, query));
  const figures = plants.map((plant) => {
    const { values, anyDay, topLoss, excludedIrradianceHours } = losses.get(plant.id)!;
    const own =
      (budgets.get(plant.id) as PlantPeriod['budgets'] | undefined) ??
      new Map<string, { energyKwh: number; irradiationKwhM2: number | null }>();
    return {
      plant,
      topLoss,
      excludedIrradianceHours,
      figures: figuresFrom(values, anyDay, dates, own, excludedIrradianceHours.total),
    };
  });
  const totals = fleetFigures(figures.map((f) => ({ figures: f.figures, kwp: f.plant.dcCapacityKwp })));
  return {
    type: 'fleet',
    ...headOf(ctx, query),
    plants: figures.map(({ plant, topLoss, excludedIrradianceHours, figures: f }) => ({
      ...reportPlant(plant),
      ...f,
      top_loss: topLoss,
      alarm_count: alarms.get(plant.id) ?? 0,
      excluded_irradiance_hours: excludedIrradianceHours,
    })),
    totals: {
      ...totals,
      alarm_count: [...alarms.values()].reduce((a, b) => a + b, 0),
      dc_capacity_kwp: plants.reduce((a, p) => a + (p.dcCapacityKwp ?? 0), 0),
      plant_count: plants.length,
    },
  };
}

/** Each plant's local [from 00:00, the day after to 00:00). */
function rangesOf(plants: readonly KpiPlant[], query: ReportQueryParsed): repo.PlantRange[] {
  return plants.map((p) => ({
    plantId: p.id,
    startMs: dayStart(query.from, p.timeZone),
    endMs: dayStart(nextDate(query.to), p.timeZone),
  }));
}

/** Count, mean, median and maximum of durations in ms, as minutes. */
export function durationStats(durationsMs: readonly number[]): DurationStats {
  if (!durationsMs.length) return { count: 0, mean_minutes: null, median_minutes: null, max_minutes: null };
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const toMin = (ms: number) => ms / 60_000;
  return {
    count: sorted.length,
    mean_minutes: toMin(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    median_minutes: toMin(median),
    max_minutes: toMin(sorted[sorted.length - 1]!),
  };
}

async function alarmStats(
  ctx: ReportContext,
  plants: readonly KpiPlant[],
  query: ReportQueryParsed,
): Promise<AlarmsReportAnswer> {
  const ranges = rangesOf(plants, query);
  const alarms = await repo.readAlarms(ctx.db, ranges);
  const faults = await repo.readFaults(ctx.db, ranges);
  const count = <K>(keyOf: (a: repo.AlarmStatRow) => K) => {
    const m = new Map<K, number>();
    for (const a of alarms) m.set(keyOf(a), (m.get(keyOf(a)) ?? 0) + 1);
    return m;
  };
  const byPriority = count((a) => a.priorityId);
  const byType = count((a) => a.deviceType);
  const byDevice = new Map<number, { a: repo.AlarmStatRow; n: number }>();
  for (const a of alarms) {
    if (a.deviceId === null) continue;
    const e = byDevice.get(a.deviceId);
    if (e) e.n++;
    else byDevice.set(a.deviceId, { a, n: 1 });
  }
  const names = new Map(plants.map((p) => [p.id, p.name]));
  const acknowledged = alarms.flatMap((a) => {
    const at = [a.approvedAt, a.rejectedAt].filter((v): v is number => v !== null);
    return at.length ? [Math.max(0, Math.min(...at) - a.startedAt)] : [];
  });
  const repaired = faults.flatMap((f) => {
    const at = f.resolvedAt ?? f.closedAt;
    return at === null ? [] : [Math.max(0, at - f.detectedAt)];
  });
  return {
    type: 'alarms',
    ...headOf(ctx, query),
    plants: plants.map(reportPlant),
    alarm_count: alarms.length,
    by_priority: [1, 2, 3, 4].map((priority_id) => ({
      priority_id,
      count: byPriority.get(priority_id) ?? 0,
    })),
    by_device_type: [...byType]
      .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
      .map(([device_type, n]) => ({ device_type, count: n })),
    time_to_acknowledge: durationStats(acknowledged),
    time_to_repair: durationStats(repaired),
    fault_count: faults.length,
    top_devices: [...byDevice.values()]
      .sort((x, y) => y.n - x.n || x.a.deviceId! - y.a.deviceId!)
      .slice(0, 10)
      .map(({ a, n }) => ({
        device_id: a.deviceId!,
        device_name: a.deviceName ?? '',
        device_type: a.deviceType ?? '',
        plant_id: a.plantId,
        plant_name: names.get(a.plantId) ?? '',
        alarm_count: n,
      })),
  };
}

async function inverters(
  ctx: ReportContext,
  plants: readonly KpiPlant[],
  query: ReportQueryParsed,
): Promise<InvertersReportAnswer> {
  const signals = await loadPlantSignals(
    ctx.db,
    plants.map((p) => p.id),
  );
  const out: InvertersReportAnswer['inverters'] = [];
  for (const plant of plants) {
    await nextTurn();
    const invs = signals.get(plant.id)!.inverters;
    const startMs = dayStart(query.from, plant.timeZone);
    const endMs = dayStart(nextDate(query.to), plant.timeZone);
    const counters = invs.flatMap((i) => (i.energyTotal ? [i.energyTotal.signalId] : []));
    const energy = await readCounterDeltas(ctx.db, counters, startMs, endMs);
    // Each inverter's share of P0 by rating, as the inverter summary computes it.
    const ratedSum = invs.reduce((a, i) => a + (i.ratedAcKw ?? 0), 0);
    const rows = invs.map((i) => {
      const kwp =
        plant.dcCapacityKwp !== null && i.ratedAcKw !== null && ratedSum > 0
          ? (plant.dcCapacityKwp * i.ratedAcKw) / ratedSum
          : null;
      const e = i.energyTotal ? (energy.get(i.energyTotal.signalId) ?? null) : null;
      return {
        device_id: i.deviceId,
        name: i.name,
        plant_id: plant.id,
        plant_name: plant.name,
        rated_power_kw: i.ratedAcKw,
        dc_capacity_kwp: kwp,
        energy_kwh: e,
        specific_yield_kwh_kwp: finalYieldKwhKwp(e, kwp),
        relative_to_plant_mean: null as number | null,
      };
    });
    const yields = rows.map((r) => r.specific_yield_kwh_kwp).filter((v): v is number => v !== null);
    const mean = yields.length ? yields.reduce((a, b) => a + b, 0) / yields.length : null;
    for (const r of rows) r.relative_to_plant_mean = ratio(r.specific_yield_kwh_kwp, mean);
    out.push(...rows);
  }
  return { type: 'inverters', ...headOf(ctx, query), plants: plants.map(reportPlant), inverters: out };
}

/**
 * Days of history a degradation report reads per plant (the performance analysis reads five years): the
 * report's plant-days are counted with it against REPORT_MAX_PLANT_DAYS, so at most 43 plants.
 */
export const DEGRADATION_HISTORY_DAYS = 5 * 366;

/** The median of the values, null for none. */
function medianOrNull(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function degradation(
  ctx: ReportContext,
  plants: readonly KpiPlant[],
  query: ReportQueryParsed,
): Promise<DegradationReportAnswer> {
  const service = new PerformanceService(ctx);
  const out: DegradationReportAnswer['plants'] = [];
  for (const plant of plants) {
    await nextTurn();
    const d = await service.degradationOfPlant(plant, query.from, query.to);
    const byMonth = new Map<string, number[]>();
    for (const date of datesInclusive(query.from, query.to)) byMonth.set(date.slice(0, 7), []);
    for (const day of d.days)
      if (day.normalizedEnergy !== null) byMonth.get(day.date.slice(0, 7))?.push(day.normalizedEnergy);
    out.push({
      ...reportPlant(plant),
      degradation: d.plant,
      inverters: d.inverters,
      months: [...byMonth].map(([month, values]) => ({
        month,
        normalized_energy: medianOrNull(values),
        usable_days: values.length,
      })),
    });
  }
  return { type: 'degradation', ...headOf(ctx, query), plants: out };
}

/** The JSON answer of GET reports/{type}: checks scope and size, then builds the report. */
export async function buildReport(
  ctx: ReportContext,
  actor: Actor,
  type: ReportType,
  query: ReportQueryParsed,
): Promise<ReportAnswer> {
  const dayCount = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1;
  // A degradation report reads its plants' history, not only the period's days.
  const readDays = type === 'degradation' ? DEGRADATION_HISTORY_DAYS : dayCount;
  if (query.plant_ids) checkSize(query.plant_ids.length, dayCount, readDays);
  const plants = await plantsOf(ctx, actor, query);
  checkSize(plants.length, dayCount, readDays);
  switch (type) {
    case 'production':
      return production(ctx, plants, query);
    case 'fleet':
      return fleet(ctx, plants, query);
    case 'alarms':
      return alarmStats(ctx, plants, query);
    case 'inverters':
      return inverters(ctx, plants, query);
    case 'degradation':
      return degradation(ctx, plants, query);
  }
}
