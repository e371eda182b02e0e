import { z } from 'zod';
import { calendarDateField } from './dates';
import {
  latitudeField,
  listAnswer,
  listQueryBase,
  longitudeField,
  queryFlag,
  rangedNumber,
  refFilter,
  refId,
  sortParam,
  timeZoneField,
  timestamps,
} from './common';
import { V, flag, requiredText } from './validation';

/**
 * Defaults of the expected power model's plant parameters: PVWatts' (Dobos 2014) −0.37 %/K and 14 %
 * lumped losses, the same figures as the KPI engine's DEFAULT_GAMMA_PER_K and DEFAULT_SYSTEM_LOSS_FRACTION.
 */
export const PLANT_MODEL_DEFAULTS = {
  temperature_coefficient_per_k: -0.0037,
  system_loss_fraction: 0.14,
} as const;

/** POST plants/{id} (0 creates). A plant (santral) is a grid-connected unit of a field. */
export const plantBody = z.object({
  field_id: refId(),
  name: requiredText(200),
  dc_capacity_kwp: rangedNumber(0, 10_000_000),
  ac_capacity_kw: rangedNumber(0, 10_000_000),
  latitude: latitudeField(),
  longitude: longitudeField(),
  time_zone: timeZoneField(),
  commissioning_date: calendarDateField().nullish(),
  /** Electricity subscriber (abone) numbers of the plant's grid connections. */
  subscriber_numbers: z.array(requiredText(50), { error: V.invalidValue }).max(50).default([]),
  tilt_deg: rangedNumber(0, 90),
  azimuth_deg: rangedNumber(0, 360),
  /**
   * Power temperature coefficient γ of the modules, per kelvin (datasheet −0.29…−0.45 %/K); the expected
   * power model's temperature correction. Absent or null: PVWatts' −0.0037 /K.
   */
  temperature_coefficient_per_k: rangedNumber(-0.01, 0),
  /** Lumped system losses of the expected power model, as a fraction (0.14 = 14 %, PVWatts' default). */
  system_loss_fraction: rangedNumber(0, 0.5),
  is_active: flag().default(true),
});
export type PlantBody = z.input<typeof plantBody>;

export const plantSchema = z.object({
  id: z.number().int(),
  field_id: z.number().int(),
  field_name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  name: z.string(),
  dc_capacity_kwp: z.number().nullable(),
  ac_capacity_kw: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  time_zone: z.string(),
  commissioning_date: z.string().nullable(),
  subscriber_numbers: z.array(z.string()),
  tilt_deg: z.number().nullable(),
  azimuth_deg: z.number().nullable(),
  temperature_coefficient_per_k: z.number(),
  system_loss_fraction: z.number(),
  is_active: z.boolean(),
  ...timestamps,
});
export type Plant = z.infer<typeof plantSchema>;

export const PLANT_SORTS = [
  'id',
  'name',
  'field_name',
  'company_name',
  'dc_capacity_kwp',
  'ac_capacity_kw',
  'commissioning_date',
  'is_active',
  'created_at',
  'updated_at',
] as const;
/** GET plants */
export const plantListQuery = listQueryBase.extend({
  sort: sortParam(PLANT_SORTS, 'name'),
  is_active: queryFlag(),
  field_id: refFilter(),
  company_id: refFilter(),
});
export type PlantListQuery = z.input<typeof plantListQuery>;
export const plantList = listAnswer(plantSchema);
export type PlantList = z.infer<typeof plantList>;
