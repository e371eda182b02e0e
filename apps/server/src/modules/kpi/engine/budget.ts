import type { BudgetFigures } from '@solar/shared';

/** A month's budget as stored, keyed `YYYY-MM`. */
export interface MonthBudget {
  energyKwh: number;
  irradiationKwhM2: number | null;
}
export type MonthBudgets = ReadonlyMap<string, MonthBudget>;

const daysInMonth = (yearMonth: string) => {
  const [y, m] = yearMonth.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};

const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? a / b : null);

/**
 * The budget of a set of local days: each day carries its month's budget / the month's days (so a month
 * asked whole gets exactly its budget). Null when any day has no budget: a partial sum compared with the
 * whole actual would mislead. The budget irradiation is null when any month lacks one; the
 * weather-corrected budget is budget × measured H_POA / budget H_POA.
 */
export function budgetFigures(
  dates: readonly string[],
  budgets: MonthBudgets,
  actualEnergyKwh: number | null,
  measuredIrradiationKwhM2: number | null,
): BudgetFigures {
  let energy: number | null = dates.length ? 0 : null;
  let irradiation: number | null = dates.length ? 0 : null;
  // The month's length once per month, not per date (a year's answer asks for 365 dates three times).
  let month = '';
  let share = 0;
  for (const date of dates) {
    if (date.slice(0, 7) !== month) {
      month = date.slice(0, 7);
      share = 1 / daysInMonth(month);
    }
    const b = budgets.get(month);
    if (!b) {
      energy = null;
      irradiation = null;
      break;
    }
    energy = (energy ?? 0) + b.energyKwh * share;
    irradiation =
      irradiation === null || b.irradiationKwhM2 === null ? null : irradiation + b.irradiationKwhM2 * share;
  }
  const corrected =
    energy !== null && irradiation !== null && irradiation > 0 && measuredIrradiationKwhM2 !== null
      ? (energy * measuredIrradiationKwhM2) / irradiation
      : null;
  return {
    budget_kwh: energy,
    budget_irradiation_kwh_m2: irradiation,
    weather_corrected_budget_kwh: corrected,
    budget_ratio: ratio(actualEnergyKwh, energy),
    weather_corrected_budget_ratio: ratio(actualEnergyKwh, corrected),
  };
}

/** Sums budget figures of plants or periods; a null part makes the sum null (as budgetFigures). */
export function sumBudgetFigures(
  parts: readonly BudgetFigures[],
  actualEnergyKwh: number | null,
): BudgetFigures {
  const sum = (pick: (f: BudgetFigures) => number | null) =>
    parts.length === 0
      ? null
      : parts.reduce<number | null>((a, f) => (a === null || pick(f) === null ? null : a + pick(f)!), 0);
  const energy = sum((f) => f.budget_kwh);
  const corrected = sum((f) => f.weather_corrected_budget_kwh);
  return {
    budget_kwh: energy,
    // Irradiation does not add across plants; a fleet has no single budget irradiation.
    budget_irradiation_kwh_m2: null,
    weather_corrected_budget_kwh: corrected,
    budget_ratio: ratio(actualEnergyKwh, energy),
    weather_corrected_budget_ratio: ratio(actualEnergyKwh, corrected),
  };
}
