import { z } from 'zod';
import { listAnswer, listQueryBase, refFilter, refId } from './common';
import { inOrder, instantField } from './dates';
import { V, canonicalInt, optionalText, requiredText } from './validation';

/** Status of a fault (arıza); `closed` is final until the fault is reopened to `open`. */
export const FAULT_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/**
 * Status changes a fault allows (staying in the same status is always allowed). Work can go back and
 * forth between open, in progress and resolved; any of them can be closed (a false alarm is closed from
 * open); a closed fault only reopens to `open`.
 */
export const FAULT_TRANSITIONS: Record<FaultStatus, readonly FaultStatus[]> = {
  open: ['in_progress', 'resolved', 'closed'],
  in_progress: ['open', 'resolved', 'closed'],
  resolved: ['open', 'in_progress', 'closed'],
  closed: ['open'],
};

/** True when a fault may move from `from` to `to`. */
export const faultTransitionAllowed = (from: FaultStatus, to: FaultStatus): boolean =>
  from === to || FAULT_TRANSITIONS[from].includes(to);

/** Priorities shared with alarms: 1 low, 2 medium, 3 high, 4 high and dangerous. */
export const FAULT_PRIORITY_IDS = [1, 2, 3, 4] as const;
const faultPriorityField = () =>
  z
    .number({ error: (issue) => (issue.input == null ? V.required : V.invalidNumber) })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(4, { error: V.outOfRange });

/**
 * POST faults/{id} (0 creates by hand). The whole record is sent on update, like every other resource.
 * Moving to `resolved` needs a resolution; the device must be on the plant and the signal on the device.
 */
export const faultBody = z.object({
  plant_id: refId(),
  device_id: refId().nullish(),
  tag_id: refId().nullish(),
  title: requiredText(200),
  description: optionalText(4000),
  priority_id: faultPriorityField(),
  status: z.enum(FAULT_STATUSES, { error: V.invalidValue }).default('open'),
  /** Must be an active user of the plant's company. */
  assignee_user_id: refId().nullish(),
  root_cause: optionalText(2000),
  resolution: optionalText(2000),
});
export type FaultBody = z.input<typeof faultBody>;
export type FaultBodyParsed = z.output<typeof faultBody>;

/** POST faults/{id}/comments */
export const faultCommentBody = z.object({ body: requiredText(4000) });
export type FaultCommentBody = z.input<typeof faultCommentBody>;

export const faultSchema = z.object({
  id: z.number().int(),
  /** The alarm the fault was approved from; null for a fault made by hand. */
  alarm_id: z.number().int().nullable(),
  plant_id: z.number().int(),
  plant_name: z.string(),
  /** The plant's IANA time zone: the web shows the fault's times on the plant's clock. */
  plant_time_zone: z.string(),
  field_id: z.number().int(),
  company_id: z.number().int(),
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  tag_id: z.number().int().nullable(),
  /** The text written when the fault was made (the approver's language) or typed by a person. */
  title: z.string(),
  /**
   * For a fault made from an alarm, the alarm's message key (`alarms.msg.*`): the client shows the title as
   * "device or plant: message" in the reader's language, with `title` as fallback. Null once a person edits
   * the title, and for faults made by hand.
   */
  title_code: z.string().nullable(),
  /** The message's parameters; null when there is no `title_code`. */
  title_params: z.record(z.string(), z.union([z.string(), z.number().nullable()])).nullable(),
  description: z.string().nullable(),
  priority_id: z.number().int(),
  status: z.enum(FAULT_STATUSES),
  assignee_user_id: z.number().int().nullable(),
  assignee_name: z.string().nullable(),
  root_cause: z.string().nullable(),
  resolution: z.string().nullable(),
  created_by: z.number().int().nullable(),
  /** When the problem began: the alarm's start, or the creation time of a fault made by hand. */
  detected_at: z.string(),
  created_at: z.string(),
  /** First move out of `open` or first assignment. */
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  updated_at: z.string(),
  /** acknowledged_at − detected_at in seconds; null until acknowledged. */
  time_to_acknowledge_s: z.number().int().nullable(),
  /** resolved_at − detected_at in seconds; null until resolved (cleared again on reopen). */
  time_to_repair_s: z.number().int().nullable(),
});
export type Fault = z.infer<typeof faultSchema>;

export const faultCommentSchema = z.object({
  id: z.number().int(),
  fault_id: z.number().int(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  body: z.string(),
  created_at: z.string(),
});
export type FaultComment = z.infer<typeof faultCommentSchema>;

export const faultHistorySchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  /** Null on the first entry: the fault was created in `to_status`. */
  from_status: z.enum(FAULT_STATUSES).nullable(),
  to_status: z.enum(FAULT_STATUSES),
  at: z.string(),
});
export type FaultHistoryEntry = z.infer<typeof faultHistorySchema>;

/**
 * GET faults/{id}: the fault with its comments (oldest first), status history (oldest first) and the alarms
 * it covers.
 */
export const faultDetailSchema = faultSchema.extend({
  comments: z.array(faultCommentSchema),
  history: z.array(faultHistorySchema),
  /**
   * Every alarm approved into this fault, oldest first: the one it was made from and the alarms that
   * followed it (an event's consequences share their cause's fault). Beyond the spec.
   */
  alarm_ids: z.array(z.number().int()),
});
export type FaultDetail = z.infer<typeof faultDetailSchema>;

export const FAULT_SORTS = [
  'id',
  'title',
  'priority_id',
  'status',
  'plant_name',
  'detected_at',
  'created_at',
  'updated_at',
] as const;
export type FaultSort = (typeof FAULT_SORTS)[number];

/** `sort` of the fault list: a whitelisted column, `-column` for descending; newest first by default. */
const faultSortParam = () => {
  const values = [...FAULT_SORTS, ...FAULT_SORTS.map((c) => `-${c}` as const)] as const;
  return z
    .enum(values, { error: V.invalidValue })
    .default('-created_at')
    .transform((v) => ({ column: v.replace(/^-/, '') as FaultSort, descending: v.startsWith('-') }));
};

/** GET faults: newest first by default; `from`/`to` bound created_at (from included, to excluded). */
export const faultListQuery = listQueryBase
  .extend({
    sort: faultSortParam(),
    status: z.enum(FAULT_STATUSES, { error: V.invalidValue }).optional(),
    plant_id: refFilter(),
    priority_id: canonicalInt(1, 4, V.outOfRange).optional(),
    assignee_user_id: refFilter(),
    alarm_id: refFilter(),
    from: instantField().optional(),
    to: instantField().optional(),
  })
  .refine((q) => inOrder(q.from, q.to, true), {
    error: V.rangeOrder,
    path: ['to'],
  });
export type FaultListQuery = z.input<typeof faultListQuery>;

export const faultList = listAnswer(faultSchema);
export type FaultList = z.infer<typeof faultList>;
