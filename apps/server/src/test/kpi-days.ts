/**
 * Finished KPI days written straight into kpi_daily, as the KPI engine stores them: for tests of what reads
 * years of days (performance, degradation, the kept analyses), which the engine would take minutes to
 * compute from telemetry.
 */
import type { Insertable } from 'kysely';
import type { KpiDailyTable } from '../db/schema';
import type { TestApp } from './test-app';

/**
 * The plant's KPI parameters key as the engine writes it (a day stored under another key is recomputed):
 * one far day marked dirty, computed through the KPI route and read back, then removed.
 */
export async function storedParamsKey(t: TestApp, token: string, plantId: number): Promise<string> {
  await t.ctx.db
    .insertInto('kpi_dirty_days')
    .values({ plant_id: plantId, date: '2020-01-01', marked_at: 1 })
    .execute();
  const res = await t.http.get(`/api/plants/${plantId}/kpis`, {
    token,
    query: { period: 'day', date: '2020-01-01' },
  });
  if (res.statusCode !== 200) throw new Error(`the KPI route answered ${res.statusCode}: ${res.body}`);
  const row = await t.ctx.db
    .selectFrom('kpi_daily')
    .select('params_key')
    .where('plant_id', '=', plantId)
    .executeTakeFirstOrThrow();
  await t.ctx.db.deleteFrom('kpi_daily').where('plant_id', '=', plantId).execute();
  return row.params_key;
}

/** What differs between the synthetic days: the rest is a complete day with no loss but underperformance. */
export interface SyntheticKpiDay {
  date: string;
  energyKwh: number;
  expectedEnergyKwh: number;
  irradiationKwhM2: number;
  correctedReferenceKwh: number;
}

/** A finished, complete (288 of 288 samples) day of plane-of-array irradiance and inverter energy. */
export function completeKpiDay(
  plantId: number,
  paramsKey: string,
  d: SyntheticKpiDay,
): Insertable<KpiDailyTable> {
  return {
    plant_id: plantId,
    date: d.date,
    energy_kwh: d.energyKwh,
    energy_source: 'inverters',
    irradiation_kwh_m2: d.irradiationKwhM2,
    irradiance_source: 'poa',
    expected_energy_kwh: d.expectedEnergyKwh,
    loss_downtime_kwh: 0,
    loss_communication_gap_kwh: 0,
    loss_clipping_kwh: 0,
    loss_grid_curtailment_kwh: 0,
    loss_underperformance_kwh: d.expectedEnergyKwh - d.energyKwh,
    pr_energy_kwh: d.energyKwh,
    pr_irradiation_kwh_m2: d.irradiationKwhM2,
    pr_corrected_reference_kwh: d.correctedReferenceKwh,
    available_rated_kw_intervals: 0,
    assessed_rated_kw_intervals: 0,
    co2_avoided_kg: null,
    expected_samples: 288,
    received_samples: 288,
    excluded_counter_jump_kwh: 0,
    excluded_day_energy_impossible_kwh: 0,
    excluded_replayed_day_kwh: 0,
    params_key: paramsKey,
    computed_at: Date.now(),
  };
}

/** Writes the days, 200 rows a statement (within both databases' limits on parameters). */
export async function insertKpiDays(t: TestApp, rows: readonly Insertable<KpiDailyTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await t.ctx.db
      .insertInto('kpi_daily')
      .values(rows.slice(i, i + 200))
      .execute();
}
