import type { Db } from '../../db/database';
import { readRollups } from '../../telemetry-store/queries';

/** A stored plant_model_parameters row, numbers as numbers. */
export interface ModelRow {
  plantId: number;
  source: 'design' | 'fitted' | 'default';
  systemLossFraction: number;
  gammaPerK: number;
  systemLossFractionSe: number | null;
  gammaPerKSe: number | null;
  lossFactors: { name: string; fraction: number }[];
  inverterEfficiency: number | null;
  acLimitKw: number | null;
  fittedFrom: string | null;
  fittedTo: string | null;
  fitDays: number | null;
  fitRmseKwh: number | null;
  cleaningCost: number | null;
  energyPricePerKwh: number | null;
  currency: string | null;
  updatedBy: number | null;
  updatedAt: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The plant's stored parameters, or undefined when it runs on the defaults of its plant record. */
export async function readModel(db: Db, plantId: number): Promise<ModelRow | undefined> {
  const r = await db
    .selectFrom('plant_model_parameters')
    .selectAll()
    .where('plant_id', '=', plantId)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    plantId: r.plant_id,
    source: r.source as ModelRow['source'],
    systemLossFraction: Number(r.system_loss_fraction),
    gammaPerK: Number(r.temperature_coefficient_per_k),
    systemLossFractionSe: num(r.system_loss_fraction_se),
    gammaPerKSe: num(r.temperature_coefficient_per_k_se),
    lossFactors: JSON.parse(r.loss_factors) as ModelRow['lossFactors'],
    inverterEfficiency: num(r.inverter_efficiency),
    acLimitKw: num(r.ac_limit_kw),
    fittedFrom: r.fitted_from,
    fittedTo: r.fitted_to,
    fitDays: num(r.fit_days),
    fitRmseKwh: num(r.fit_rmse_kwh),
    cleaningCost: num(r.cleaning_cost),
    energyPricePerKwh: num(r.energy_price_per_kwh),
    currency: r.currency,
    updatedBy: num(r.updated_by),
    updatedAt: Number(r.updated_at),
  };
}

/**
 * Stores the plant's parameters and, when `apply` is set, writes the loss and γ onto the plant, where the
 * KPI engine's expected power reads them (its days computed with other parameters are then recomputed):
 * one transaction, so the KPIs never use parameters the model answer does not show.
 */
export async function writeModel(db: Db, row: ModelRow, apply: boolean): Promise<void> {
  const values = {
    source: row.source,
    system_loss_fraction: row.systemLossFraction,
    temperature_coefficient_per_k: row.gammaPerK,
    system_loss_fraction_se: row.systemLossFractionSe,
    temperature_coefficient_per_k_se: row.gammaPerKSe,
    loss_factors: JSON.stringify(row.lossFactors),
    inverter_efficiency: row.inverterEfficiency,
    ac_limit_kw: row.acLimitKw,
    fitted_from: row.fittedFrom,
    fitted_to: row.fittedTo,
    fit_days: row.fitDays,
    fit_rmse_kwh: row.fitRmseKwh,
    cleaning_cost: row.cleaningCost,
    energy_price_per_kwh: row.energyPricePerKwh,
    currency: row.currency,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('plant_model_parameters')
      .values({ plant_id: row.plantId, ...values })
      .onConflict((oc) => oc.column('plant_id').doUpdateSet(values))
      .execute();
    if (apply)
      await trx
        .updateTable('plants')
        .set({
          system_loss_fraction: row.systemLossFraction,
          temperature_coefficient_per_k: row.gammaPerK,
        })
        .where('id', '=', row.plantId)
        .execute();
  });
}

/** One inverter's energy source: a lifetime counter (its daily delta) or a daily counter (its last value). */
export interface InverterEnergySignal {
  deviceId: number;
  signalId: number;
  isCounter: boolean;
  kwhPerUnit: number;
}

/**
 * Each inverter's energy per local day (its daily rollup bucket: the counter's delta, or a daily counter's
 * last value), kWh, for days starting in [fromMs, toMs), keyed by device id then bucket start (epoch ms).
 * Read through the telemetry store's query API.
 */
export async function readInverterDailyEnergy(
  db: Db,
  signals: readonly InverterEnergySignal[],
  fromMs: number,
  toMs: number,
): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>(signals.map((s) => [s.deviceId, new Map()]));
  const bySignal = new Map(signals.map((s) => [s.signalId, s]));
  const buckets = await readRollups(
    db,
    '1d',
    signals.map((s) => s.signalId),
    fromMs,
    toMs,
  );
  for (const b of buckets) {
    const s = bySignal.get(b.signalId)!;
    const value = s.isCounter ? b.delta : b.last;
    if (value === null || !Number.isFinite(value)) continue;
    out.get(s.deviceId)!.set(b.bucket, value * s.kwhPerUnit);
  }
  return out;
}
