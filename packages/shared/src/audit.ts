import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, listAnswer, refFilter } from './common';
import { V, hasNoNul } from './validation';

/** A moment in a query string: ISO 8601 (date or date-time) or epoch milliseconds; answers epoch ms. */
const moment = () =>
  z
    .string({ error: V.invalidDate })
    .trim()
    .max(40, { error: V.invalidDate })
    .transform((v, ctx) => {
      const ms = /^\d{1,15}$/.test(v) ? Number(v) : /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : NaN;
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: V.invalidDate });
        return z.NEVER;
      }
      return ms;
    })
    .optional();

/** GET audit (admin only): who changed what, newest first. */
export const auditListQuery = z.object({
  page: z.coerce
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1)
    .max(1_000_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(PAGE_SIZE_MAX, { error: V.outOfRange })
    .default(PAGE_SIZE_DEFAULT),
  entity: z
    .string({ error: V.invalidValue })
    .trim()
    .max(40, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue })
    .optional(),
  entity_id: refFilter(),
  /** create, update, delete, login, rotate, revoke, … */
  action: z
    .string({ error: V.invalidValue })
    .trim()
    .max(40, { error: V.tooLong })
    .refine(hasNoNul, { error: V.invalidValue })
    .optional(),
  user_id: refFilter(),
  from: moment(),
  to: moment(),
});
export type AuditListQuery = z.input<typeof auditListQuery>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditList = listAnswer(auditEntrySchema);
export type AuditList = z.infer<typeof auditList>;
