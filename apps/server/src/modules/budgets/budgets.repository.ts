import type { BudgetMonth } from '@solar/shared';
import type { Db } from '../../db/database';

/** A plant's stored months of one year, in month order. */
export async function readYear(db: Db, plantId: number, year: number): Promise<BudgetMonth[]> {
  const rows = await db
    .selectFrom('plant_budgets')
    .select(['month', 'energy_kwh', 'irradiation_kwh_m2'])
    .where('plant_id', '=', plantId)
    .where('year', '=', year)
    .orderBy('month')
    .execute();
  return rows.map((r) => ({
    month: Number(r.month),
    energy_kwh: Number(r.energy_kwh),
    irradiation_kwh_m2: r.irradiation_kwh_m2 === null ? null : Number(r.irradiation_kwh_m2),
  }));
}

export interface BudgetRow {
  plantId: number;
  year: number;
  month: number;
  energyKwh: number;
  irradiationKwhM2: number | null;
}

/**
 * Stores the rows, replacing the same plant-months, and deletes `clearYears` months not given (a year
 * saved on the form replaces the whole year). One transaction: all or nothing.
 */
export async function writeBudgets(
  db: Db,
  rows: readonly BudgetRow[],
  now: number,
  clearYears: readonly { plantId: number; year: number }[] = [],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const c of clearYears)
      await trx
        .deleteFrom('plant_budgets')
        .where('plant_id', '=', c.plantId)
        .where('year', '=', c.year)
        .execute();
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('plant_budgets')
        .values(
          rows.slice(i, i + 500).map((r) => ({
            plant_id: r.plantId,
            year: r.year,
            month: r.month,
            energy_kwh: r.energyKwh,
            irradiation_kwh_m2: r.irradiationKwhM2,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['plant_id', 'year', 'month']).doUpdateSet((eb) => ({
            energy_kwh: eb.ref('excluded.energy_kwh'),
            irradiation_kwh_m2: eb.ref('excluded.irradiation_kwh_m2'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  });
}
