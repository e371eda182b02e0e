import { z } from 'zod';
import { listAnswer, listQueryBase, queryFlag, sortParam, timestamps } from './common';
import { V, flag, hasNoNul, isEmail, isPhone, optionalText, requiredText } from './validation';

/** An optional text that, when given, must pass `test`; empty means none. */
const optionalPattern = (max: number, test: (v: string) => boolean, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, { error: V.tooLong })
    .refine((v) => v === '' || (test(v) && hasNoNul(v)), { error: message })
    .transform((v) => v || null)
    .nullish();

/** POST companies/{id} (0 creates; admin only). */
export const companyBody = z.object({
  name: requiredText(200),
  tax_number: optionalText(50),
  tax_office: optionalText(100),
  address: optionalText(500),
  phone: optionalPattern(40, isPhone, V.invalidPhone),
  email: optionalPattern(254, isEmail, V.invalidEmail),
  is_active: flag().default(true),
});
export type CompanyBody = z.input<typeof companyBody>;

export const companySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  tax_number: z.string().nullable(),
  tax_office: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  is_active: z.boolean(),
  ...timestamps,
});
export type Company = z.infer<typeof companySchema>;

export const COMPANY_SORTS = ['id', 'name', 'tax_number', 'is_active', 'created_at', 'updated_at'] as const;
/** GET companies */
export const companyListQuery = listQueryBase.extend({
  sort: sortParam(COMPANY_SORTS, 'name'),
  is_active: queryFlag(),
});
export type CompanyListQuery = z.input<typeof companyListQuery>;
export const companyList = listAnswer(companySchema);
export type CompanyList = z.infer<typeof companyList>;
