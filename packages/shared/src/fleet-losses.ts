import { z } from 'zod';
import { excludedIrradianceSchema, kpiValuesSchema, lossKindSchema, plantKpisQuery } from './kpi';

/**
 * GET plants/losses: where the fleet lost energy over a local day, month or year. `date` is each plant's local
 * date (absent: each plant's yesterday, the last finished day).
 */
export const fleetLossesQuery = plantKpisQuery;
export type FleetLossesQuery = z.input<typeof fleetLossesQuery>;

/** One plant's period: the KPI engine's figures (the same as GET plants/{id}/kpis) and its largest loss. */
export const fleetLossItem = kpiValuesSchema.extend({
  plant_id: z.number().int(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  time_zone: z.string(),
  dc_capacity_kwp: z.number().nullable(),
  /** The plant's local date the period was taken from. */
  date: z.string(),
  /** The period's start and end (UTC ISO 8601), half-open. */
  from: z.string(),
  to: z.string(),
  /**
   * The loss kind with the most energy, or null when nothing was lost (every kind ≤ 0: the plant produced at
   * least what its model expected).
   */
  top_loss: lossKindSchema.nullable(),
  /**
   * The hours of the period whose irradiance the KPIs left out because the data-quality engine doubts it,
   * per reason and in total: the same figure as GET plants/{id}/kpis for the same plant and period.
   */
  excluded_irradiance_hours: excludedIrradianceSchema,
});
export type FleetLossItem = z.infer<typeof fleetLossItem>;

export const fleetLossesAnswer = z.object({
  period: plantKpisQuery.shape.period.unwrap(),
  items: z.array(fleetLossItem),
});
export type FleetLossesAnswer = z.infer<typeof fleetLossesAnswer>;
