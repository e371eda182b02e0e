import type { BudgetMonth } from '@solar/shared';
import { reachable, type Scope } from '../../lib/scope';
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

/** The ids among `ids` that the scope reaches. */
export async function plantsInScope(db: Db, scope: Scope, ids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < ids.length; i += 1000) {
    let q = db
      .selectFrom('plants')
      .select('plants.id')
      .where('plants.id', 'in', ids.slice(i, i + 1000));
    if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
    for (const r of await q.execute()) out.add(r.id);
  }
  return out;
}
