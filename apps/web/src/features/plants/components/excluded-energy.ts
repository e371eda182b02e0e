import { EXCLUDED_ENERGY_REASONS, type ExcludedEnergy, type ExcludedEnergyReason } from '@solar/shared';

/**
 * Below this (kWh) excluded energy is rounding, not something to tell: the KPI answer sums floating-point
 * counter steps, and a note about 0.0001 kWh would only alarm.
 */
export const EXCLUDED_ENERGY_SHOWN_FROM_KWH = 0.05;

/** The reasons a period excluded energy for, with their amounts, in the contract's order; empty when none. */
export function excludedEnergyParts(
  excluded: ExcludedEnergy | undefined,
): { reason: ExcludedEnergyReason; energyKwh: number }[] {
  if (!excluded || excluded.total < EXCLUDED_ENERGY_SHOWN_FROM_KWH) return [];
  return EXCLUDED_ENERGY_REASONS.filter((r) => excluded[r] >= EXCLUDED_ENERGY_SHOWN_FROM_KWH).map(
    (reason) => ({
      reason,
      energyKwh: excluded[reason],
    }),
  );
}
