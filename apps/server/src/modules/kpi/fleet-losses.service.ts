import {
  LOSS_KINDS,
  type ExcludedIrradiance,
  type FleetLossItem,
  type FleetLossesAnswer,
  type KpiPeriod,
  type KpiValues,
  type LossKind,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { nextTurn } from '../../lib/next-turn';
import { scopeOf } from '../../lib/scope';
import { periodRange } from './engine';
import { readFlagsOfReasonsOfPlants, type FlagRow } from '../data-quality';
import { datesUntil, dayStart, localDate } from './engine/telemetry-imports';
import * as repo from './kpi.repository';
import type { KpiService } from './kpi.service';
import { excludedIrradianceHours, KPI_FLAG_REASONS, periodValuesOf } from './plant-day.service';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The plant's yesterday: the last local day that has finished. */
const yesterdayIn = (timeZone: string, now: number) => localDate(now - DAY_MS, timeZone);

/** The kind that lost the most energy; null when no kind lost any (the plant met or beat its model). */
export function topLoss(losses: KpiValues['losses']): LossKind | null {
  let top: LossKind | null = null;
  let most = 0;
  for (const kind of LOSS_KINDS) {
    const kwh = losses[`${kind}_kwh`];
    if (kwh > most) {
      most = kwh;
      top = kind;
    }
  }
  return top;
}

/** One plant's figures over a run of its local dates: what the fleet loss view and the fleet report show. */
export interface PlantPeriodLosses {
  /** The KPI engine's values, combined as the plant page combines them (periodValuesOf). */
  values: KpiValues;
  /** The kind that lost the most energy, null when none lost any (topLoss). */
  topLoss: LossKind | null;
  /** True when any date of the run has the engine's figures (a budget's weather correction needs them). */
  anyDay: boolean;
  /** The hours whose irradiance the KPIs left out (doubted by the data-quality engine), up to now. */
  excludedIrradianceHours: ExcludedIrradiance;
}

/** A run of a plant's local dates, [first, end): the end is the day after the last. */
export interface LocalDates {
  first: string;
  end: string;
}

/**
 * GET plants/losses: every plant in scope over one local period, with the figures of GET plants/{id}/kpis
 * (the same days of the same engine, combined the same way), so the fleet view and the plant page agree.
 * The fleet report reads its loss columns through `periodLosses` too: one computation for both.
 */
export class FleetLossesService {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now'>,
    private readonly kpi: Pick<KpiService, 'daysBetween'>,
  ) {}

  async losses(actor: Actor, period: KpiPeriod, date?: string): Promise<FleetLossesAnswer> {
    const now = this.ctx.now();
    const plants = await repo.findKpiPlants(this.ctx.db, scopeOf(actor));
    const days = new Map(plants.map((p) => [p.id, date ?? yesterdayIn(p.timeZone, now)]));
    const ranges = new Map(plants.map((p) => [p.id, periodRange(period, days.get(p.id)!, p.timeZone)]));
    const figures = await this.periodLosses(plants, (p) => {
      const range = ranges.get(p.id)!;
      return { first: localDate(range.startMs, p.timeZone), end: localDate(range.endMs, p.timeZone) };
    });
    const items: FleetLossItem[] = plants.map((plant) => {
      const { values, topLoss, excludedIrradianceHours } = figures.get(plant.id)!;
      const range = ranges.get(plant.id)!;
      return {
        ...values,
        plant_id: plant.id,
        name: plant.name,
        company_id: plant.companyId,
        company_name: plant.companyName,
        time_zone: plant.timeZone,
        dc_capacity_kwp: plant.dcCapacityKwp,
        date: days.get(plant.id)!,
        from: iso(range.startMs),
        to: iso(range.endMs),
        top_loss: topLoss,
        excluded_irradiance_hours: excludedIrradianceHours,
      };
    });
    return { period, items };
  }

  /**
   * Each plant's figures over its local dates `datesOf(plant)`: the engine's days combined as the plant
   * page combines them, coverage counted up to the plant's today. The plants are the caller's, already
   * scoped (the view: every plant in scope; the report: those asked for).
   */
  async periodLosses(
    plants: readonly repo.KpiPlant[],
    datesOf: (plant: repo.KpiPlant) => LocalDates,
  ): Promise<Map<number, PlantPeriodLosses>> {
    const now = this.ctx.now();
    const signals = await repo.loadPlantSignals(
      this.ctx.db,
      plants.map((p) => p.id),
    );
    const flags = await this.flagsOf(plants, datesOf);
    const out = new Map<number, PlantPeriodLosses>();
    for (const plant of plants) {
      // One plant's period is a few queries and milliseconds; a large fleet's in one go held the event loop.
      await nextTurn();
      const { first, end } = datesOf(plant);
      const plantFlags = flags.get(plant.id)!;
      const days = await this.kpi.daysBetween(plant, signals.get(plant.id)!, first, end, plantFlags);
      const dates = datesUntil(first, end);
      const values = periodValuesOf(dates, days, localDate(now, plant.timeZone), plant.dcCapacityKwp);
      out.set(plant.id, {
        values,
        topLoss: topLoss(values.losses),
        anyDay: dates.some((d) => days.has(d)),
        excludedIrradianceHours: this.excludedOf(plant, signals.get(plant.id)!, first, end, plantFlags),
      });
    }
    return out;
  }

  /**
   * Each plant's hours of irradiance left out over each of its periods `periodsOf(plant)` (local dates), in
   * their order: the production report's figure of the plant and of each of its rows. One flag read for all.
   */
  async excludedIrradiance(
    plants: readonly repo.KpiPlant[],
    periodsOf: (plant: repo.KpiPlant) => readonly LocalDates[],
  ): Promise<Map<number, ExcludedIrradiance[]>> {
    const signals = await repo.loadPlantSignals(
      this.ctx.db,
      plants.map((p) => p.id),
    );
    const periods = new Map(plants.map((p) => [p.id, periodsOf(p)]));
    const flags = await this.flagsOf(plants, (p) => spanOf(periods.get(p.id)!));
    const out = new Map<number, ExcludedIrradiance[]>();
    for (const plant of plants) {
      // A large fleet's plants in one go held the event loop (docs/security.md).
      await nextTurn();
      out.set(
        plant.id,
        periods
          .get(plant.id)!
          .map(({ first, end }) =>
            this.excludedOf(plant, signals.get(plant.id)!, first, end, flags.get(plant.id)!),
          ),
      );
    }
    return out;
  }

  /**
   * The KPI_FLAG_REASONS flags of every plant over the days of any plant's period, in one read: read plant
   * by plant (twice: once for the stale days, once for the hours left out) they made the yearly fleet
   * report of 200 plants 2.4 times slower (docs/benchmarks.md). A plant's list may hold days outside its
   * own period; both users bound them by its dates.
   */
  private async flagsOf(
    plants: readonly repo.KpiPlant[],
    datesOf: (plant: repo.KpiPlant) => LocalDates,
  ): Promise<Map<number, FlagRow[]>> {
    if (plants.length === 0) return new Map();
    const { first, end } = spanOf(plants.map(datesOf));
    return readFlagsOfReasonsOfPlants(
      this.ctx.db,
      plants.map((p) => p.id),
      first,
      end,
      KPI_FLAG_REASONS,
    );
  }

  /** The plant page's figure (GET plants/{id}/kpis): the same flags over the same instants, up to now. */
  private excludedOf(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    first: string,
    end: string,
    flags: readonly FlagRow[],
  ): ExcludedIrradiance {
    return excludedIrradianceHours(
      flags,
      signals,
      dayStart(first, plant.timeZone),
      Math.min(dayStart(end, plant.timeZone), this.ctx.now()),
    );
  }
}

/** The dates from the first period's first to the last one's end (periods in any order). */
function spanOf(periods: readonly LocalDates[]): LocalDates {
  let first = '9999-12-31';
  let end = '0000-01-01';
  for (const p of periods) {
    if (p.first < first) first = p.first;
    if (p.end > end) end = p.end;
  }
  return { first, end };
}
