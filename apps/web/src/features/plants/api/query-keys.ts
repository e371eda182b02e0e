import type { KpiPeriod, PlantListQuery } from '@solar/shared';

/**
 * Query keys of the plant calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const plantKeys = {
  all: ['plants'] as const,
  list: (query: PlantListQuery) => [...plantKeys.all, 'list', query] as const,
  options: (fieldId: number | null, companyId: number | null) =>
    [...plantKeys.all, 'options', fieldId, companyId] as const,
  /** Every plant in scope with its status and live figures (the list and the map). */
  overview: () => [...plantKeys.all, 'overview'] as const,
  /** A plant's KPIs for the period holding `date` (absent: the plant's today). */
  kpis: (plantId: number, period: KpiPeriod, date: string | null) =>
    [...plantKeys.all, 'kpis', plantId, period, date] as const,
  /** Every plant's expected and actual energy and loss by cause over a local period holding `date`. */
  losses: (period: KpiPeriod, date: string) => [...plantKeys.all, 'losses', period, date] as const,
  /** A plant's 5-minute power, expected power and irradiance of a day. */
  power: (plantId: number, date: string | null) => [...plantKeys.all, 'power', plantId, date] as const,
  /** Status, communication and active alarms of each device of a plant. */
  deviceStatus: (plantId: number) => [...plantKeys.all, 'device-status', plantId] as const,
  /** A plant's monthly P50 budget of a year. */
  budget: (plantId: number, year: number) => [...plantKeys.all, 'budget', plantId, year] as const,
};
