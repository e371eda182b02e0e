import { z } from 'zod';

/**
 * Operating status of a plant or a device, in precedence order (the first that applies wins): an active
 * high or dangerous alarm is a fault, lost communication is offline, a low or medium alarm (or a device of
 * the plant that stopped reporting) is a warning, no daylight is night, else normal.
 */
export const OPERATING_STATUSES = ['fault', 'offline', 'warning', 'night', 'normal'] as const;
export type OperatingStatus = (typeof OPERATING_STATUSES)[number];
export const operatingStatusSchema = z.enum(OPERATING_STATUSES);

/**
 * Where a plant's energy figure comes from: the grid meter's export counter when the plant has one with
 * readings, else the sum of its inverters' counters; `none` when neither reported.
 */
export const ENERGY_SOURCES = ['meter', 'inverters', 'none'] as const;
export type EnergySource = (typeof ENERGY_SOURCES)[number];
export const energySourceSchema = z.enum(ENERGY_SOURCES);

/**
 * Where plane-of-array irradiance comes from: measured by the station, transposed from its global
 * horizontal irradiance with the plant's tilt and azimuth, or not available.
 */
export const IRRADIANCE_SOURCES = ['measured', 'transposed', 'none'] as const;
export type IrradianceSource = (typeof IRRADIANCE_SOURCES)[number];
export const irradianceSourceSchema = z.enum(IRRADIANCE_SOURCES);

/**
 * The parts of a day's loss (expected − actual energy); they add up to the total. `grid_curtailment` is
 * energy not produced because the grid was down or the operator curtailed the plant (zero when the plant
 * has no such signals); `underperformance` is what remains, negative when the plant beat the model.
 */
export const LOSS_KINDS = [
  'downtime',
  'communication_gap',
  'clipping',
  'grid_curtailment',
  'underperformance',
] as const;
export type LossKind = (typeof LOSS_KINDS)[number];
export const lossKindSchema = z.enum(LOSS_KINDS);

/** KPI periods: a local day, month or year in the plant's time zone. */
export const KPI_PERIODS = ['day', 'month', 'year'] as const;
export type KpiPeriod = (typeof KPI_PERIODS)[number];
export const kpiPeriodSchema = z.enum(KPI_PERIODS);
