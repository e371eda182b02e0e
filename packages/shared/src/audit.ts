import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, listAnswer, refFilter } from './common';
import { inOrder, instantField } from './dates';
import { V, hasNoNul } from './validation';

/** The audit log's filters and paging, before the range check (GET admin/audit/export takes them unpaged). */
export const auditListFields = z.object({
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
  from: instantField().optional(),
  to: instantField().optional(),
});

/** A `from`/`to` pair in order (the log's `to` is exclusive). */
export const auditRangeInOrder = (q: { from?: number; to?: number }, ctx: z.RefinementCtx) => {
  if (!inOrder(q.from, q.to, true)) ctx.addIssue({ code: 'custom', message: V.rangeOrder, path: ['to'] });
};

/** GET audit (admin only): who changed what, newest first. */
export const auditListQuery = auditListFields.superRefine(auditRangeInOrder);
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
