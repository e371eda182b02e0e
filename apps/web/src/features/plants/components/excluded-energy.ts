import {
  EXCLUDED_ENERGY_REASONS,
  EXCLUDED_IRRADIANCE_REASONS,
  type ExcludedEnergy,
  type ExcludedEnergyReason,
  type ExcludedIrradiance,
  type ExcludedIrradianceReason,
} from '@solar/shared';

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

/** Below this (hours) left-out irradiance is not worth a note: less than one 5-minute interval. */
export const EXCLUDED_IRRADIANCE_SHOWN_FROM_H = 1 / 12 - 1e-9;

/** The reasons a period left irradiance out for, with their hours, in the contract's order; empty when none. */
export function excludedIrradianceParts(
  excluded: ExcludedIrradiance | undefined,
): { reason: ExcludedIrradianceReason; hours: number }[] {
  if (!excluded || excluded.total < EXCLUDED_IRRADIANCE_SHOWN_FROM_H) return [];
  return EXCLUDED_IRRADIANCE_REASONS.filter((r) => excluded[r] >= EXCLUDED_IRRADIANCE_SHOWN_FROM_H).map(
    (reason) => ({ reason, hours: excluded[reason] }),
  );
}
