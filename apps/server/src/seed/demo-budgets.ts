import {
  clearSkyGhiHaurwitz,
  decomposeGhi,
  dayOfYear,
  moduleTemperatureFaiman,
  planeOfArrayIsotropic,
  pvwattsExpectedPowerKw,
  PVWATTS_DEFAULT_SYSTEM_LOSS_FRACTION,
  sunPosition,
} from '@solar/pv-model';
import type { Db } from '../db/database';

/**
 * The demo's P50 budgets: what a design simulation of each demo plant would have given, month by month, so
 * that the reports' budget columns and the budget ratio have figures (docs/pv-model.md for the model).
 *
 * The sky is the demo's own climate: the simulator's cloud process (apps/simulator, physics/clouds.ts) draws
 * a clear day with probability 0.45 + 0.25 · cos(2π (doy − 196) / 365) (north of the equator), otherwise a
 * broken (60 %) or overcast (40 %) sky, and dims the clear sky by cover · (0.55 + 0.3 · cover). Its mean over
 * those regimes is the expected clear-sky index of a day; the server does not import the simulator (it is an
 * optional part), so the few figures are repeated here. A P50 is the expectation, which this is.
 */

/** Mean cloud cover of the simulator's clear, broken and overcast days (the middle of each draw's range). */
const COVER = { clear: 0.06, broken: 0.425, overcast: 0.86 } as const;
const clearSkyIndexOf = (cover: number) => 1 - cover * (0.55 + 0.3 * cover);

/** The expected GHI / clear-sky GHI of a day of the year at a latitude, in the simulator's climate. */
export function expectedClearSkyIndex(doy: number, latitude: number): number {
  const summerPeak = latitude >= 0 ? 196 : 15;
  const clearChance = 0.45 + 0.25 * Math.cos((2 * Math.PI * (doy - summerPeak)) / 365);
  return (
    clearChance * clearSkyIndexOf(COVER.clear) +
    (1 - clearChance) * (0.6 * clearSkyIndexOf(COVER.broken) + 0.4 * clearSkyIndexOf(COVER.overcast))
  );
}

/** Air temperature by day of year: 15 °C ± 10 °C, warmest in late July (as the simulator's seasons). */
const ambientC = (doy: number, latitude: number) =>
  15 + 10 * Math.cos((2 * Math.PI * (doy - (latitude >= 0 ? 205 : 20))) / 365);

/** Crystalline silicon's power temperature coefficient, per kelvin (datasheets: −0.34 … −0.40 %/K). */
const GAMMA_PER_K = -0.0037;
/** Yearly degradation a P50 carries (crystalline silicon, about 0.5 % a year). */
const DEGRADATION_PER_YEAR = 0.005;
/** What is left of the first year's output after `years` of operation. */
const ageing = (years: number) => (1 - DEGRADATION_PER_YEAR) ** Math.max(years, 0);
const STEP_MS = 30 * 60_000;

export interface BudgetPlant {
  dcCapacityKwp: number;
  latitude: number;
  longitude: number;
  tiltDeg: number;
  azimuthDeg: number;
  /** First year of operation, from which degradation counts. */
  firstYear: number;
}

/**
 * One plant's P50 for each month of `year`: the plane-of-array irradiation (kWh/m²) of the expected sky and
 * the PVWatts energy (kWh) with its default 14 % system losses, module temperature by Faiman at 2 m/s wind.
 */
export function plantBudgetYear(
  plant: BudgetPlant,
  year: number,
): { month: number; energyKwh: number; irradiationKwhM2: number }[] {
  return Array.from({ length: 12 }, (_, m) => {
    let energyKwh = 0;
    let irradiationKwhM2 = 0;
    const start = Date.UTC(year, m, 1);
    const end = Date.UTC(year, m + 1, 1);
    for (let ts = start + STEP_MS / 2; ts < end; ts += STEP_MS) {
      const sun = sunPosition(ts, plant.latitude, plant.longitude);
      const clear = clearSkyGhiHaurwitz(sun.zenithDeg);
      if (clear <= 0) continue;
      const doy = dayOfYear(ts);
      const ghi = clear * expectedClearSkyIndex(doy, plant.latitude);
      const poa = planeOfArrayIsotropic(
        decomposeGhi(ghi, sun.zenithDeg, doy),
        sun,
        plant.tiltDeg,
        plant.azimuthDeg,
      );
      const cell = moduleTemperatureFaiman(poa, ambientC(doy, plant.latitude), 2);
      const hours = STEP_MS / 3_600_000;
      irradiationKwhM2 += (poa / 1000) * hours;
      energyKwh +=
        pvwattsExpectedPowerKw(
          poa,
          cell,
          plant.dcCapacityKwp,
          GAMMA_PER_K,
          PVWATTS_DEFAULT_SYSTEM_LOSS_FRACTION,
        ) * hours;
    }
    return {
      month: m + 1,
      energyKwh: Math.round(energyKwh * ageing(year - plant.firstYear) * 10) / 10,
      irradiationKwhM2: Math.round(irradiationKwhM2 * 100) / 100,
    };
  });
}

/**
 * Gives the demo's new plants a P50 for every month of last year, this year and next year (the years a
 * report of the demo's history or of today asks for). Called by the organisation seed for the plants it has
 * just made, so a restart never gives budgets to plants a user made or whose budgets a user removed.
 */
export async function seedDemoBudgets(db: Db, plantIds: readonly number[], now: number): Promise<void> {
  if (!plantIds.length) return;
  const plants = await db
    .selectFrom('plants')
    .select([
      'id',
      'dc_capacity_kwp',
      'latitude',
      'longitude',
      'tilt_deg',
      'azimuth_deg',
      'commissioning_date',
    ])
    .where('id', 'in', plantIds)
    .execute();
  const year = new Date(now).getUTCFullYear();
  const rows = plants.flatMap((p) => {
    if (p.dc_capacity_kwp === null || p.latitude === null || p.longitude === null) return [];
    const plant: BudgetPlant = {
      dcCapacityKwp: Number(p.dc_capacity_kwp),
      latitude: Number(p.latitude),
      longitude: Number(p.longitude),
      tiltDeg: p.tilt_deg === null ? 30 : Number(p.tilt_deg),
      azimuthDeg: p.azimuth_deg === null ? 180 : Number(p.azimuth_deg),
      firstYear: p.commissioning_date ? Number(p.commissioning_date.slice(0, 4)) : year - 1,
    };
    // The sky is the same every year: one year is simulated, the others differ by degradation only.
    const simulated = plantBudgetYear({ ...plant, firstYear: year }, year);
    return [year - 1, year, year + 1].flatMap((y) =>
      simulated.map((b) => ({
        plant_id: p.id,
        year: y,
        month: b.month,
        energy_kwh: Math.round(b.energyKwh * ageing(y - plant.firstYear) * 10) / 10,
        irradiation_kwh_m2: b.irradiationKwhM2,
        updated_at: now,
      })),
    );
  });
  if (rows.length) await db.insertInto('plant_budgets').values(rows).execute();
}
