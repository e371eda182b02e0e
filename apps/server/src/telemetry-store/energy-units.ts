import { sql, type RawBuilder } from 'kysely';

/**
 * Energy counters may count in Wh, kWh or MWh (a SunSpec inverter's WH is in Wh, a meter's register map may
 * say MWh); every energy the console shows is in kWh. One rule for the KPI engine and the energy answers,
 * so the same counter gives the same kWh on every screen. A missing or unknown unit is taken as kWh.
 */
export function kwhPerUnit(unit: string | null | undefined): number {
  switch (unit?.trim().toLowerCase()) {
    case 'wh':
      return 0.001;
    case 'mwh':
      return 1000;
    default:
      return 1;
  }
}

/** `kwhPerUnit` in SQL, for sums the database makes over counters of several units. */
export function kwhPerUnitSql(unit: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`case lower(trim(${unit})) when 'wh' then 0.001 when 'mwh' then 1000 else 1 end`;
}
