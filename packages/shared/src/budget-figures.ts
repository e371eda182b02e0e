import { z } from 'zod';

/**
 * Budget figures of a period. Weather-corrected budget = budget × measured irradiation / budget
 * irradiation (null when the budget has no irradiation or nothing was measured).
 */
export const budgetFiguresSchema = z.object({
  /** Σ monthly P50 budget, pro rata for partial months; null when the plant has no budget for it. */
  budget_kwh: z.number().nullable(),
  budget_irradiation_kwh_m2: z.number().nullable(),
  weather_corrected_budget_kwh: z.number().nullable(),
  /** actual / budget; null without both. */
  budget_ratio: z.number().nullable(),
  weather_corrected_budget_ratio: z.number().nullable(),
});
export type BudgetFigures = z.infer<typeof budgetFiguresSchema>;
