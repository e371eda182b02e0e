import type { TestUser, Tree } from '../../test/org-fixtures';
import { istanbulDate, makePlantWithDay, MORNING, PLANT_DAY_KWP, PLANT_DAY_ZONE } from '../../test/plant-day';
import type { TestApp } from '../../test/test-app';

const DAY = 86_400_000;

/** Both test plants keep a fixed offset all year: Istanbul UTC+3; Skopje is UTC+1/+2, so its days use Skopje dates. */
export const ISTANBUL = PLANT_DAY_ZONE;

/**
 * A plant with two 50 kW inverters and a station, 120 kWp, with a Turkish or Cyrillic name, and
 * `days` finished local days of 24 five-minute intervals at POA 800 W/m², 3.5 kWh per inverter step.
 */
export interface ReportPlantFixture {
  tree: Tree;
  name: string;
  inverters: number[];
  dates: string[];
  /** Hand-worked energy of one day, kWh. */
  dayEnergyKwh: number;
  dayIrradiationKwhM2: number;
}

export const P0_KWP = PLANT_DAY_KWP;
const STEP_KWH = 3.5;
const { intervals: INTERVALS, poaWm2: POA } = MORNING;

/** `count` finished Istanbul dates ending three days ago, oldest first. */
export function pastDates(now: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => istanbulDate(now - (count + 2 - i) * DAY));
}

export async function makeReportPlant(
  t: TestApp,
  admin: TestUser,
  name: string,
  dates: readonly string[],
  inv2StepKwh = STEP_KWH,
): Promise<ReportPlantFixture> {
  const plant = await makePlantWithDay(t, admin, {
    name,
    plantName: name,
    days: dates.map((date) => ({ date, stepKwh: [STEP_KWH, inv2StepKwh] })),
  });
  return {
    tree: plant.tree,
    name,
    inverters: plant.inverters,
    dates: [...dates],
    dayEnergyKwh: INTERVALS * (STEP_KWH + inv2StepKwh),
    dayIrradiationKwhM2: (INTERVALS * POA * (5 / 60)) / 1000,
  };
}
