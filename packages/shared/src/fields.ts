import { z } from 'zod';
import {
  latitudeField,
  listAnswer,
  listQueryBase,
  longitudeField,
  queryFlag,
  refFilter,
  refId,
  sortParam,
  timestamps,
} from './common';
import { flag, optionalText, requiredText } from './validation';

/** POST fields/{id} (0 creates). A field is a site of one company. */
export const fieldBody = z.object({
  company_id: refId(),
  name: requiredText(200),
  city: optionalText(100),
  district: optionalText(100),
  address: optionalText(500),
  latitude: latitudeField(),
  longitude: longitudeField(),
  is_active: flag().default(true),
});
export type FieldBody = z.input<typeof fieldBody>;

export const fieldSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  name: z.string(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  is_active: z.boolean(),
  ...timestamps,
});
export type Field = z.infer<typeof fieldSchema>;

export const FIELD_SORTS = [
  'id',
  'name',
  'city',
  'district',
  'company_name',
  'is_active',
  'created_at',
  'updated_at',
] as const;
/** GET fields */
export const fieldListQuery = listQueryBase.extend({
  sort: sortParam(FIELD_SORTS, 'name'),
  is_active: queryFlag(),
  company_id: refFilter(),
});
export type FieldListQuery = z.input<typeof fieldListQuery>;
export const fieldList = listAnswer(fieldSchema);
export type FieldList = z.infer<typeof fieldList>;
