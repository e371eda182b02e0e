import type { PlantOverviewItem } from '@solar/shared';

/** The fleet's tiles: sums over the plants, and PR weighted by each plant's DC capacity. */
export interface FleetFigures {
  plants: number;
  /** Σ live AC power; null when no plant reports any. */
  powerKw: number | null;
  /** Σ AC capacity of the plants that report power, for the share the tile shows. */
  capacityKw: number | null;
  energyTodayKwh: number | null;
  /**
   * Yesterday's PR of the fleet: the plants' PR weighted by their P0 (DC capacity). IEC 61724-1's fleet
   * PR is Σ E / Σ (P0 × Yr); with the overview's per-plant PR alone, weighting by P0 equals it when the
   * plants saw similar irradiation, and keeps a small plant from swinging the figure.
   */
  prYesterday: number | null;
  alarms: PlantOverviewItem['active_alarms'];
}

const sumOf = (values: (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
};

/** The fleet figures of the overview's plants. */
export function fleetFigures(items: readonly PlantOverviewItem[]): FleetFigures {
  const reporting = items.filter((p) => p.ac_power_kw !== null);
  const weighted = items.filter(
    (p): p is PlantOverviewItem & { pr_yesterday: number; dc_capacity_kwp: number } =>
      p.pr_yesterday !== null && p.dc_capacity_kwp !== null && p.dc_capacity_kwp > 0,
  );
  const p0 = weighted.reduce((a, p) => a + p.dc_capacity_kwp, 0);
  const alarms = { low: 0, medium: 0, high: 0, dangerous: 0, total: 0 };
  for (const p of items)
    for (const k of Object.keys(alarms) as (keyof typeof alarms)[]) alarms[k] += p.active_alarms[k];
  return {
    plants: items.length,
    powerKw: sumOf(reporting.map((p) => p.ac_power_kw)),
    capacityKw: sumOf(reporting.map((p) => p.ac_capacity_kw)),
    energyTodayKwh: sumOf(items.map((p) => p.energy_today_kwh)),
    prYesterday: p0 > 0 ? weighted.reduce((a, p) => a + p.pr_yesterday * p.dc_capacity_kwp, 0) / p0 : null,
    alarms,
  };
}

/** A value of a unit scaled to a readable size: kW → MW → GW above a thousand (kWh likewise). */
export function scaled(value: number, unit: 'kW' | 'kWh'): { value: number; unit: string } {
  const steps = unit === 'kW' ? ['kW', 'MW', 'GW'] : ['kWh', 'MWh', 'GWh'];
  let v = value;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < steps.length - 1) {
    v /= 1000;
    i++;
  }
  return { value: v, unit: steps[i]! };
}

/** Plants by value, highest first; plants without a value last, by name. */
export function ranked<T extends { name: string; value: number | null }>(
  items: readonly T[],
  locale: string,
): T[] {
  return [...items].sort((a, b) => {
    if (a.value === null || b.value === null)
      return a.value === b.value ? a.name.localeCompare(b.name, locale) : a.value === null ? 1 : -1;
    return b.value - a.value || a.name.localeCompare(b.name, locale);
  });
}

/** Calendar year at `now` in a time zone: a plant's turns at its own midnight (docs/spec-differences.md). */
export function yearIn(timeZone: string, now: number): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(now));
}

/**
 * Where a value sits in the range its signal spanned over the period (0…100 %), for a gauge that needs
 * no configured scale. With no range (one value, or none) the gauge is full when the value is known.
 */
export function gaugeOf(
  value: number | null,
  points: readonly (readonly [number, number | null])[],
): { min: number | null; max: number | null; percent: number } {
  const seen = points.map((p) => p[1]).filter((v): v is number => v !== null);
  if (value !== null) seen.push(value);
  if (seen.length === 0 || value === null) return { min: null, max: null, percent: 0 };
  const min = Math.min(...seen);
  const max = Math.max(...seen);
  return { min, max, percent: max > min ? ((value - min) / (max - min)) * 100 : 100 };
}

/**
 * A month's P50 budget (kWh) when the KPI answer carries one: the budget work adds `budget` to each row;
 * without it (or without a budget for the plant) the widget draws the energy alone.
 */
export function budgetOf(row: object): number | null {
  const budget = (row as { budget?: { budget_kwh?: unknown } | null }).budget;
  return typeof budget?.budget_kwh === 'number' ? budget.budget_kwh : null;
}
