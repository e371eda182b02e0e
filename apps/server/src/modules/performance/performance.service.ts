import type {
  DegradationResult,
  KpiPerformance,
  PlantModelAnswer,
  PlantModelBody,
  PlantModelFitAnswer,
  PlantModelFitBody,
  PlantPerformanceAnswer,
  PlantPerformanceQuery,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { dayStart, localDate, nextDate } from '../../telemetry-store/buckets';
import { recordAudit } from '../audit';
import {
  findKpiPlants,
  KpiService,
  loadPlantSignals,
  type DayFigures,
  type KpiPlant,
  type PlantWithSignals,
} from '../kpi';
import {
  calibrationDayOf,
  cleaningPayback,
  dateOfDay,
  dayNumber,
  fitPvwattsParameters,
  InputMemo,
  lumpedSystemLoss,
  soilingStochasticRateRecovery,
  yearOnYearDegradation,
  type NormalizedDay,
  type SoilingDay,
  type SoilingOptions,
  type SoilingResult,
  type YoyResult,
} from './engine';
import type { KeptAnalyses } from './kept-analyses';
import * as repo from './performance.repository';
import { turnsEvery } from '../../lib/next-turn';

/** The costly estimates by their input (engine/input-memo.ts): one per process, pure, so shared by all. */
const soilingMemo = new InputMemo((input: { days: SoilingDay[]; options: SoilingOptions }) =>
  soilingStochasticRateRecovery(input.days, input.options),
);
/** The longest the analysis holds the event loop between estimates (one estimate is not divided). */
const ANALYSIS_SLICE_MS = 10;
const yoyMemo = new InputMemo((days: NormalizedDay[]) => yearOnYearDegradation(days, { seed: SEED }));

/** How far back the analysis reads: five years of days (the year-on-year pairs need two). */
const HISTORY_DAYS = 5 * 366;
/** A day with fewer than this share of its expected samples is left out (too incomplete to normalise). */
const MIN_COMPLETENESS = 0.9;
/** A daily temperature-corrected PR above this is impossible for a sound day (counter jump, bad sensor). */
const MAX_DAILY_PR = 1.5;
/** Soiling intervals shorter than this are divided out before the year-on-year pairs (performance()). */
const CORRECTED_INTERVAL_DAYS = 365;
/** Seed of the bootstrap and Monte-Carlo draws: the same data gives the same answer. */
const SEED = 24;

type ExclusionReason = 'no_energy' | 'incomplete_data' | 'impossible_energy';

/**
 * A fit is held within the ranges the plant form accepts (loss 0…50 %, γ −1…0 %/K), so the KPIs and the plant
 * form keep working; a fit at a bound says the data disagrees with the model (a low irradiance sensor makes
 * the loss negative) and its standard errors show how far.
 */
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** A day of the KPI figures judged for the methods: its normalised energy or why it is left out. */
interface JudgedDay {
  date: string;
  figures: DayFigures;
  normalizedEnergy: number | null;
  excludedBecause: ExclusionReason | null;
}

/**
 * Judges each day: normalised energy = energy / temperature-corrected reference (the daily PR_corr of
 * IEC 61724-1, proportional to energy / expected energy of the PVWatts model, so the same rates follow);
 * left out without energy or irradiance, below 90 % of the expected samples, or when the energy is more
 * than the AC capacity can make in 24 h or the PR_corr is impossibly high. When the data-quality module
 * stores flags per day, they join these reasons here.
 */
function judge(plant: KpiPlant, days: Map<string, DayFigures>): JudgedDay[] {
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, figures]) => {
      const { sums, samples } = figures;
      const ref = sums.prCorrectedReferenceKwh;
      const normalized = ref > 0 && sums.prEnergyKwh > 0 ? sums.prEnergyKwh / ref : null;
      let excludedBecause: ExclusionReason | null = null;
      if (normalized === null || sums.energyKwh === null) excludedBecause = 'no_energy';
      else if (
        samples.expectedSamples > 0 &&
        samples.receivedSamples / samples.expectedSamples < MIN_COMPLETENESS
      )
        excludedBecause = 'incomplete_data';
      else if (
        normalized > MAX_DAILY_PR ||
        (plant.acCapacityKw !== null && plant.acCapacityKw > 0 && sums.energyKwh > plant.acCapacityKw * 24)
      )
        excludedBecause = 'impossible_energy';
      return { date, figures, normalizedEnergy: normalized, excludedBecause };
    });
}

/** Signals of a plant as the KPI engine reads them. */
type PlantSignals = Awaited<ReturnType<typeof loadPlantSignals>> extends Map<number, infer S> ? S : never;

/** What the analysis reads of a plant: its judged days and each inverter's energy per local date. */
export interface PlantDays {
  judged: JudgedDay[];
  inverters: { deviceId: number; name: string; energy: { date: string; kwh: number }[] }[];
}

/** The analysis of a plant's days (PerformanceService.analyse). */
export interface Analysis {
  judged: JudgedDay[];
  soiling: SoilingResult;
  normalized: NormalizedDay[];
  plantYoy: YoyResult;
  inverters: { deviceId: number; name: string; result: YoyResult }[];
}

/** The analyses kept per plant for this server (buildApp). */
export type PerformanceAnalyses = KeptAnalyses<PlantDays, Analysis>;

/** A plant's degradation as the yearly degradation report shows it. */
export interface PlantDegradation {
  plant: DegradationResult;
  inverters: { device_id: number; name: string; result: DegradationResult }[];
  /** The report's days: soiling-corrected normalised energy, null for a day left out. */
  days: { date: string; normalizedEnergy: number | null }[];
}

/** The engine's YoY answer in the contract's words. */
function degradationOf(r: YoyResult): DegradationResult {
  if (r.status === 'ok')
    return {
      status: 'ok',
      rate_pct_per_year: r.ratePctPerYear,
      ci_low_pct_per_year: r.ciLowPctPerYear,
      ci_high_pct_per_year: r.ciHighPctPerYear,
      confidence_level: r.confidenceLevel,
      pairs: r.pairs,
      block_length: r.blockLength,
      from: r.from,
      to: r.to,
      span_days: r.spanDays,
    };
  return {
    status: 'insufficient_data',
    from: r.from,
    to: r.to,
    span_days: r.spanDays,
    months_found: r.monthsFound,
    months_needed: r.monthsNeeded,
  };
}

/** The engine's soiling answer in the contract's words. */
function soilingOf(s: SoilingResult): PlantPerformanceAnswer['soiling'] {
  const span = { from: s.from, to: s.to, span_days: s.spanDays, usable_days: s.usableDays };
  if (s.status === 'ok')
    return {
      status: 'ok',
      ...span,
      from: s.from,
      to: s.to,
      ratio_series: s.series,
      mean_ratio: s.meanRatio,
      mean_ratio_low: s.meanRatioLow,
      mean_ratio_high: s.meanRatioHigh,
      loss_kwh: s.lossKwh,
      loss_kwh_low: s.lossKwhLow,
      loss_kwh_high: s.lossKwhHigh,
      confidence_level: s.confidenceLevel,
      days_used: s.daysUsed,
      recoveries: s.recoveries,
      current_rate_per_day: s.intervals[s.intervals.length - 1]!.ratePerDay,
    };
  if (s.status === 'not_detected')
    return {
      status: 'not_detected',
      ...span,
      from: s.from,
      to: s.to,
      days_used: s.daysUsed,
      intervals_tested: s.intervalsTested,
      recoveries: s.recoveries,
    };
  return { status: 'insufficient_data', ...span, days_needed: s.daysNeeded };
}

/** The soiling loss over [from, to] in the contract's words: the loss, or why there is none. */
function soilingPeriodOf(
  s: SoilingResult,
  from: string,
  to: string,
  usableDays: number,
): PlantPerformanceAnswer['soiling_period'] {
  const p = s.status === 'ok' ? s.period : null;
  if (s.status === 'ok' && p && p.daysEstimated > 0)
    return {
      status: 'ok',
      from,
      to,
      loss_kwh: p.lossKwh,
      loss_kwh_low: p.lossKwhLow,
      loss_kwh_high: p.lossKwhHigh,
      confidence_level: s.confidenceLevel,
      days_estimated: p.daysEstimated,
      usable_days: usableDays,
    };
  return {
    status: s.status === 'ok' ? 'not_estimated' : s.status,
    from,
    to,
    usable_days: usableDays,
  };
}

/** Degradation, soiling and the plant's model parameters (docs/performance.md). */
export class PerformanceService {
  private readonly kpi: KpiService;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'settings' | 'performanceAnalyses'>) {
    this.kpi = new KpiService(ctx);
  }

  private async plant(actor: Actor, id: number) {
    const [plant] = await findKpiPlants(this.ctx.db, scopeOf(actor), id);
    if (!plant) throw notFound();
    const signals = (await loadPlantSignals(this.ctx.db, [id])).get(id)!;
    return { plant, signals };
  }

  /**
   * The analysis of the plant's days before `end` (a local date, exclusive), five years back: the judged
   * days, the soiling, and the year-on-year degradation of the plant and of each inverter with an energy
   * signal, on the soiling-corrected normalised energy. With `period`, the soiling also answers the loss
   * of those dates, from the same draws as the whole answer. Kept per plant under the stamp of its stored
   * days (kept-analyses.ts): while the stamp holds, neither the days are read again nor the analysis made.
   */
  private analyse(
    plant: KpiPlant,
    signals: PlantSignals,
    end: string,
    period?: { from: string; to: string },
  ): Promise<Analysis> {
    const periodKey = period ? `${period.from}|${period.to}` : '';
    return this.ctx.performanceAnalyses.once(`${plant.id}|${end}|${periodKey}`, () =>
      this.analyseNow(plant, signals, end, periodKey, period),
    );
  }

  private async analyseNow(
    plant: KpiPlant,
    signals: PlantSignals,
    end: string,
    periodKey: string,
    period?: { from: string; to: string },
  ): Promise<Analysis> {
    const from = dateOfDay(dayNumber(end) - HISTORY_DAYS);
    // Read before the days: a write after it moves the stamp, so what is kept is never older than its stamp.
    let daysStamp = await this.kpi.finishedDaysStamp(plant, signals, from, end);
    if (daysStamp === null) {
      // Late data marked days dirty (there is no stamp while it has not reached the stored days): compute
      // them first, as reading them would, so that the analysis made now is kept under the stamp they then
      // have. Otherwise a plant that is catching up on its history is analysed again on every call.
      await this.kpi.refreshFinishedDays(plant, signals, from, end);
      daysStamp = await this.kpi.finishedDaysStamp(plant, signals, from, end);
    }
    const stamp = daysStamp === null ? null : `${end}|${daysStamp}`;
    const kept = stamp === null ? undefined : this.ctx.performanceAnalyses.get(plant.id, stamp);
    const keptAnalysis = kept?.analyses.get(periodKey);
    if (keptAnalysis) {
      this.ctx.performanceAnalyses.hits++;
      return keptAnalysis;
    }
    const days = kept?.days ?? (await this.readDays(plant, signals, from, end));
    const analysis = await this.analyseDays(days, period);
    if (stamp !== null) this.ctx.performanceAnalyses.keep(plant.id, stamp, days, periodKey, analysis);
    return analysis;
  }

  /** The judged days in [from, end) and each inverter's daily energy: all the analysis reads. */
  private async readDays(
    plant: KpiPlant,
    signals: PlantSignals,
    from: string,
    end: string,
  ): Promise<PlantDays> {
    const judged = judge(plant, await this.kpi.daysBetween(plant, signals, from, end));
    const energySignals: repo.InverterEnergySignal[] = [];
    for (const inv of signals.inverters) {
      const s = inv.energyTotal ?? inv.energyToday;
      // A daily counter's day is its last value, whatever its reset makes of the delta.
      if (s)
        energySignals.push({
          deviceId: inv.deviceId,
          signalId: s.signalId,
          isCounter: inv.energyTotal ? s.isCounter : false,
          kwhPerUnit: s.kwhPerUnit,
        });
    }
    const inverterEnergy = await repo.readInverterDailyEnergy(
      this.ctx.db,
      energySignals,
      dayStart(from, plant.timeZone),
      dayStart(end, plant.timeZone),
    );
    const inverters = signals.inverters.flatMap((inv) => {
      const energy = inverterEnergy.get(inv.deviceId);
      if (!energy) return [];
      const byDate = [...energy].map(([bucket, kwh]) => ({ date: localDate(bucket, plant.timeZone), kwh }));
      return [{ deviceId: inv.deviceId, name: inv.name, energy: byDate }];
    });
    return { judged, inverters };
  }

  /** The soiling and the year-on-year degradations of read days (analyse()). */
  private async analyseDays(
    { judged, inverters: inverterDays }: PlantDays,
    period?: { from: string; to: string },
  ): Promise<Analysis> {
    // An estimate computed for the first time takes up to a few hundred ms: other requests go between
    // them then, but not between estimates that were kept.
    const turn = turnsEvery(ANALYSIS_SLICE_MS);
    const soiling = soilingMemo.get({
      days: judged.map((d) => ({
        date: d.date,
        performanceIndex: d.normalizedEnergy,
        expectedEnergyKwh: d.figures.sums.expectedEnergyKwh,
        excluded: d.excludedBecause !== null,
      })),
      options: period ? { seed: SEED, period } : { seed: SEED },
    });
    // The year-on-year pairs are taken on the soiling-corrected energy (each day over its estimated soiling
    // ratio): a soiling cycle that is not a whole divisor of the year (cleanings every 60 days, rains when
    // they come) puts a pair's two days at different points of their cycles, and the median pair then
    // carries the soiling's drift as degradation. The simulator's truth showed it: −0.8 and −0.3 %/yr with
    // 0.2 %/day soiling cleaned every 60 days came back as −1.5 and −1.0 %/yr uncorrected.
    // Only intervals shorter than a year are corrected: within an interval that holds both days of a pair
    // its slope is indistinguishable from degradation (a plant that never recovers has one interval, whose
    // "soiling" is its degradation), and the phase bias above needs a recovery between the two days.
    const soilingRatioOn = new Map<string, number>();
    if (soiling.status === 'ok') {
      const shortIntervals = soiling.intervals.filter(
        (i) => dayNumber(i.to) - dayNumber(i.from) < CORRECTED_INTERVAL_DAYS,
      );
      for (const p of soiling.series)
        if (shortIntervals.some((i) => i.from <= p.date && p.date <= i.to))
          soilingRatioOn.set(p.date, p.ratio);
    }
    const desoiled = (date: string, value: number | null) =>
      value === null ? null : value / (soilingRatioOn.get(date) ?? 1);
    const normalized: NormalizedDay[] = judged.map((d) => ({
      date: d.date,
      normalizedEnergy: desoiled(d.date, d.normalizedEnergy),
      excluded: d.excludedBecause !== null,
    }));
    await turn();
    const plantYoy = yoyMemo.get(normalized);

    // Per inverter: its daily energy over the plant's temperature-corrected reference of the same day
    // (a constant share of it, which the year-on-year ratio cancels), on the plant's usable days.
    const usable = new Map(judged.filter((d) => d.excludedBecause === null).map((d) => [d.date, d]));
    const inverters: { deviceId: number; name: string; result: YoyResult }[] = [];
    for (const inv of inverterDays) {
      const days: NormalizedDay[] = [];
      for (const { date, kwh } of inv.energy) {
        const day = usable.get(date);
        const ref = day?.figures.sums.prCorrectedReferenceKwh ?? 0;
        days.push({ date, normalizedEnergy: day && ref > 0 && kwh > 0 ? desoiled(date, kwh / ref) : null });
      }
      await turn();
      inverters.push({ deviceId: inv.deviceId, name: inv.name, result: yoyMemo.get(days) });
    }
    return { judged, soiling, normalized, plantYoy, inverters };
  }

  /**
   * The yearly degradation report's figures of a plant the caller already holds in scope: the degradation
   * from the history up to `to` (inclusive; today's unfinished day never counts) and the soiling-corrected
   * normalised energy of each day of [from, to] (null where the day is left out).
   */
  async degradationOfPlant(plant: KpiPlant, from: string, to: string): Promise<PlantDegradation> {
    const signals = (await loadPlantSignals(this.ctx.db, [plant.id])).get(plant.id)!;
    const today = localDate(this.ctx.now(), plant.timeZone);
    const end = nextDate(to) < today ? nextDate(to) : today;
    const { normalized, plantYoy, inverters } = await this.analyse(plant, signals, end);
    return {
      plant: degradationOf(plantYoy),
      inverters: inverters.map((i) => ({
        device_id: i.deviceId,
        name: i.name,
        result: degradationOf(i.result),
      })),
      days: normalized
        .filter((d) => d.date >= from && d.date <= to)
        .map((d) => ({ date: d.date, normalizedEnergy: d.excluded ? null : d.normalizedEnergy })),
    };
  }

  /** GET plants/{id}/performance */
  async performance(
    actor: Actor,
    id: number,
    query: PlantPerformanceQuery = {},
  ): Promise<PlantPerformanceAnswer> {
    return this.performanceOf(await this.plant(actor, id), query);
  }

  /** GET plants/{id}/performance of a plant its caller has checked and loaded. */
  private async performanceOf(
    { plant, signals }: PlantWithSignals,
    query: PlantPerformanceQuery,
  ): Promise<PlantPerformanceAnswer> {
    const id = plant.id;
    const today = localDate(this.ctx.now(), plant.timeZone);
    const period = query.from && query.to ? { from: query.from, to: query.to } : undefined;
    const { judged, soiling, plantYoy, inverters } = await this.analyse(plant, signals, today, period);
    const model = await repo.readModel(this.ctx.db, id);
    const excluded = { no_energy: 0, incomplete_data: 0, impossible_energy: 0 };
    for (const d of judged) if (d.excludedBecause) excluded[d.excludedBecause]++;

    let payback: PlantPerformanceAnswer['payback'] = null;
    if (soiling.status === 'ok' && model?.cleaningCost != null && model.energyPricePerKwh != null) {
      const p = cleaningPayback({
        soiling,
        expectedByDate: new Map(judged.map((d) => [d.date, d.figures.sums.expectedEnergyKwh])),
        cleaningCost: model.cleaningCost,
        energyPricePerKwh: model.energyPricePerKwh,
      });
      payback = {
        date: p.date,
        projected: p.projected,
        lost_since_recovery: p.lostSinceRecovery,
        cleaning_cost: model.cleaningCost,
        energy_price_per_kwh: model.energyPricePerKwh,
        currency: model.currency,
      };
    }
    const withEnergy = judged.filter((d) => d.excludedBecause !== 'no_energy');
    const spanFrom = withEnergy[0]?.date ?? null;
    const spanTo = withEnergy[withEnergy.length - 1]?.date ?? null;
    return {
      plant_id: id,
      model_source: model?.source ?? 'default',
      span: {
        from: spanFrom,
        to: spanTo,
        days: spanFrom && spanTo ? dayNumber(spanTo) - dayNumber(spanFrom) + 1 : 0,
      },
      excluded_days: excluded,
      degradation: {
        plant: degradationOf(plantYoy),
        inverters: inverters.map((i) => ({
          device_id: i.deviceId,
          name: i.name,
          result: degradationOf(i.result),
        })),
      },
      soiling: soilingOf(soiling),
      soiling_period:
        query.from && query.to
          ? soilingPeriodOf(
              soiling,
              query.from,
              query.to,
              judged.filter((d) => !d.excludedBecause && query.from! <= d.date && d.date <= query.to!).length,
            )
          : undefined,
      payback,
    };
  }

  /**
   * What the KPI answer of [from, to] (local dates, inclusive) carries: the plant's degradation and the
   * period's soiling loss, taken from this module's one answer (performance()), so the plant page's KPIs
   * and its performance card can never disagree.
   */
  async kpiFigures(target: PlantWithSignals, from: string, to: string): Promise<KpiPerformance> {
    const answer = await this.performanceOf(target, { from, to });
    const s = answer.soiling;
    return {
      degradation: answer.degradation.plant,
      soiling: answer.soiling_period!,
      soiling_data: {
        from: s.from,
        to: s.to,
        span_days: s.span_days,
        usable_days: s.usable_days,
        days_needed: s.status === 'insufficient_data' ? s.days_needed : null,
      },
    };
  }

  /** The stored row, or the plant's own defaults as one. */
  private async current(plant: KpiPlant): Promise<repo.ModelRow | undefined> {
    return repo.readModel(this.ctx.db, plant.id);
  }

  private answerOf(plant: KpiPlant, row: repo.ModelRow | undefined): PlantModelAnswer {
    return {
      plant_id: plant.id,
      source: row?.source ?? 'default',
      system_loss_fraction: row ? row.systemLossFraction : plant.systemLossFraction,
      temperature_coefficient_per_k: row ? row.gammaPerK : plant.gammaPerK,
      system_loss_fraction_se: row?.systemLossFractionSe ?? null,
      temperature_coefficient_per_k_se: row?.gammaPerKSe ?? null,
      loss_factors: row?.lossFactors ?? [],
      inverter_efficiency: row?.inverterEfficiency ?? null,
      ac_limit_kw: row?.acLimitKw ?? null,
      fitted_from: row?.fittedFrom ?? null,
      fitted_to: row?.fittedTo ?? null,
      fit_days: row?.fitDays ?? null,
      fit_rmse_kwh: row?.fitRmseKwh ?? null,
      cleaning_cost: row?.cleaningCost ?? null,
      energy_price_per_kwh: row?.energyPricePerKwh ?? null,
      currency: row?.currency ?? null,
      updated_by: row?.updatedBy ?? null,
      updated_at: row ? new Date(row.updatedAt).toISOString() : null,
    };
  }

  /** GET plants/{id}/model */
  async model(actor: Actor, id: number): Promise<PlantModelAnswer> {
    const { plant } = await this.plant(actor, id);
    return this.answerOf(plant, await this.current(plant));
  }

  /** Stores the row (applied to the plant's KPI parameters when `apply`), audited with before and after. */
  private async save(actor: Actor, plant: KpiPlant, row: repo.ModelRow, apply: boolean, action: string) {
    const before = this.answerOf(plant, await this.current(plant));
    await repo.writeModel(this.ctx.db, row, apply);
    const after = this.answerOf(plant, row);
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action,
      entity: 'plant_model',
      entityId: plant.id,
      before,
      after,
      ip: actor.ip,
      at: row.updatedAt,
    });
    return after;
  }

  /**
   * PUT plants/{id}/model: a design's parameters (lumped loss 1 − Π(1 − lᵢ)·η_inv) replace the model and
   * become the KPIs'; with `design` null only the cleaning cost and energy price change.
   */
  async saveModel(actor: Actor, id: number, body: PlantModelBody): Promise<PlantModelAnswer> {
    const { plant } = await this.plant(actor, id);
    const old = await this.current(plant);
    const design = body.design;
    const base: repo.ModelRow = old ?? {
      plantId: id,
      source: 'default',
      systemLossFraction: plant.systemLossFraction,
      gammaPerK: plant.gammaPerK,
      systemLossFractionSe: null,
      gammaPerKSe: null,
      lossFactors: [],
      inverterEfficiency: null,
      acLimitKw: null,
      fittedFrom: null,
      fittedTo: null,
      fitDays: null,
      fitRmseKwh: null,
      cleaningCost: null,
      energyPricePerKwh: null,
      currency: null,
      updatedBy: null,
      updatedAt: 0,
    };
    const row: repo.ModelRow = {
      ...base,
      ...(design
        ? {
            source: 'design' as const,
            systemLossFraction: lumpedSystemLoss({
              lossFractions: design.loss_factors.map((l) => l.fraction),
              inverterEfficiency: design.inverter_efficiency,
            }),
            gammaPerK: design.temperature_coefficient_per_k,
            systemLossFractionSe: null,
            gammaPerKSe: null,
            lossFactors: design.loss_factors,
            inverterEfficiency: design.inverter_efficiency,
            acLimitKw: design.ac_limit_kw,
            fittedFrom: null,
            fittedTo: null,
            fitDays: null,
            fitRmseKwh: null,
          }
        : {}),
      cleaningCost: body.cleaning_cost,
      energyPricePerKwh: body.energy_price_per_kwh,
      currency: body.currency ?? null,
      updatedBy: actor.userId,
      updatedAt: this.ctx.now(),
    };
    return this.save(actor, plant, row, design !== null, 'update');
  }

  /**
   * POST plants/{id}/model/fit: least squares of the PVWatts model on the clear days of [from, to]
   * (engine/calibration.ts); the fitted loss and γ become the KPIs'. Too few clear days changes nothing.
   */
  async fit(actor: Actor, id: number, body: PlantModelFitBody): Promise<PlantModelFitAnswer> {
    const { plant, signals } = await this.plant(actor, id);
    const today = localDate(this.ctx.now(), plant.timeZone);
    const end = nextDate(body.to) < today ? nextDate(body.to) : today;
    const judged = judge(plant, await this.kpi.daysBetween(plant, signals, body.from, end));
    const days = judged.flatMap((d) => {
      const c = calibrationDayOf({
        date: d.date,
        energyKwh: d.figures.sums.prEnergyKwh > 0 ? d.figures.sums.prEnergyKwh : null,
        capacityKwp: plant.dcCapacityKwp ?? 0,
        irradiationKwhM2: d.figures.sums.prIrradiationKwhM2,
        correctedReferenceKwh: d.figures.sums.prCorrectedReferenceKwh,
        gammaPerK: plant.gammaPerK,
        clippingLossKwh: d.figures.sums.lossesKwh.clipping,
        excluded: d.excludedBecause !== null,
      });
      return c ? [c] : [];
    });
    const result = fitPvwattsParameters(days);
    if (result.status !== 'ok')
      return { status: 'insufficient_data', days: result.days, days_needed: result.daysNeeded };
    const old = await this.current(plant);
    const row: repo.ModelRow = {
      plantId: id,
      source: 'fitted',
      systemLossFraction: clamp(result.systemLossFraction, 0, 0.5),
      gammaPerK: clamp(result.gammaPerK, -0.01, 0),
      systemLossFractionSe: result.systemLossFractionSe,
      gammaPerKSe: result.gammaPerKSe,
      lossFactors: [],
      inverterEfficiency: null,
      acLimitKw: old?.acLimitKw ?? null,
      fittedFrom: body.from,
      fittedTo: body.to,
      fitDays: result.days,
      fitRmseKwh: result.rmseKwh,
      cleaningCost: old?.cleaningCost ?? null,
      energyPricePerKwh: old?.energyPricePerKwh ?? null,
      currency: old?.currency ?? null,
      updatedBy: actor.userId,
      updatedAt: this.ctx.now(),
    };
    return { status: 'fitted', model: await this.save(actor, plant, row, true, 'fit') };
  }
}
