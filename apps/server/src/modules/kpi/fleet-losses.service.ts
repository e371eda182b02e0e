import {
  LOSS_KINDS,
  type FleetLossItem,
  type FleetLossesAnswer,
  type KpiPeriod,
  type KpiValues,
  type LossKind,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { scopeOf } from '../../lib/scope';
import { periodRange } from './engine';
import { datesUntil, localDate } from './engine/telemetry-imports';
import * as repo from './kpi.repository';
import type { KpiService } from './kpi.service';
import { periodValuesOf } from './plant-day.service';

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

/**
 * GET plants/losses: every plant in scope over one local period, with the figures of GET plants/{id}/kpis
 * (the same days of the same engine, combined the same way), so the fleet view and the plant page agree.
 */
export class FleetLossesService {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now'>,
    private readonly kpi: Pick<KpiService, 'daysBetween'>,
  ) {}

  async losses(actor: Actor, period: KpiPeriod, date?: string): Promise<FleetLossesAnswer> {
    const now = this.ctx.now();
    const plants = await repo.findKpiPlants(this.ctx.db, scopeOf(actor));
    const signals = await repo.loadPlantSignals(
      this.ctx.db,
      plants.map((p) => p.id),
    );
    const items: FleetLossItem[] = [];
    for (const plant of plants) {
      const day = date ?? yesterdayIn(plant.timeZone, now);
      const range = periodRange(period, day, plant.timeZone);
      const first = localDate(range.startMs, plant.timeZone);
      const end = localDate(range.endMs, plant.timeZone);
      const days = await this.kpi.daysBetween(plant, signals.get(plant.id)!, first, end);
      // The same values, coverage included, as the plant page's for the same period (periodValuesOf).
      const values = periodValuesOf(
        datesUntil(first, end),
        days,
        localDate(now, plant.timeZone),
        plant.dcCapacityKwp,
      );
      items.push({
        ...values,
        plant_id: plant.id,
        name: plant.name,
        company_id: plant.companyId,
        company_name: plant.companyName,
        time_zone: plant.timeZone,
        dc_capacity_kwp: plant.dcCapacityKwp,
        date: day,
        from: iso(range.startMs),
        to: iso(range.endMs),
        top_loss: topLoss(values.losses),
      });
    }
    return { period, items };
  }
}
