import { z } from 'zod';
import { PAGE_SIZE_MAX, refFilter, refId } from './common';
import { inOrder, instantField, nullableInstantField } from './dates';
import { DEVICE_TYPES } from './devices';
import { ID_MAX, V, canonicalInt, flag, optionalText, requiredText } from './validation';

/** Alarm priorities: 1 low, 2 medium, 3 high, 4 high and dangerous. */
export const ALARM_PRIORITIES = [1, 2, 3, 4] as const;
export type AlarmPriority = (typeof ALARM_PRIORITIES)[number];
/** The priorities by name, so code says `ALARM_PRIORITY.high` rather than 3. */
export const ALARM_PRIORITY = {
  low: 1,
  medium: 2,
  high: 3,
  dangerous: 4,
} as const satisfies Record<string, AlarmPriority>;
/** i18n key of each priority label. */
export const ALARM_PRIORITY_KEYS: Record<AlarmPriority, string> = {
  1: 'alarms.priority.low',
  2: 'alarms.priority.medium',
  3: 'alarms.priority.high',
  4: 'alarms.priority.dangerous',
};

/** Alarm lifecycle: 1 active, 2 approved (converted to a fault), 3 rejected, 4 cleared by itself. */
export const ALARM_STATUS = { active: 1, approved: 2, rejected: 3, cleared: 4 } as const;
export const ALARM_STATUS_IDS = [1, 2, 3, 4] as const;
export type AlarmStatusId = (typeof ALARM_STATUS_IDS)[number];
export const ALARM_STATUS_NAMES = ['active', 'approved', 'rejected', 'cleared'] as const;
export type AlarmStatusName = (typeof ALARM_STATUS_NAMES)[number];
/** Status name of a status id. */
export const alarmStatusName = (id: AlarmStatusId): AlarmStatusName => ALARM_STATUS_NAMES[id - 1]!;

/**
 * The alarm's state as operators know it (ISA-18.2 / IEC 62682): whether its condition still holds and
 * whether someone acknowledged it (approved into a fault or rejected as false). Derived from `cleared_at`
 * and the decision; acknowledging never ends an alarm: only its condition clearing does.
 */
export const ALARM_STATES = [
  'active_unacknowledged',
  'active_acknowledged',
  'cleared_unacknowledged',
  'cleared',
] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** The ISA-18.2 state of an alarm from its condition (cleared or not) and its decision (taken or not). */
export function alarmStateOf(alarm: {
  cleared_at: unknown;
  approved_at: unknown;
  rejected_at: unknown;
}): AlarmState {
  const acknowledged = alarm.approved_at !== null || alarm.rejected_at !== null;
  if (alarm.cleared_at === null) return acknowledged ? 'active_acknowledged' : 'active_unacknowledged';
  return acknowledged ? 'cleared' : 'cleared_unacknowledged';
}

/** True while the alarm's condition holds, acknowledged or not: the one meaning of "active alarm". */
export const isAlarmActive = (alarm: { cleared_at: unknown }): boolean => alarm.cleared_at === null;

/** Where an alarm comes from. */
export const ALARM_SOURCES = [
  'device_status',
  'comm_loss',
  'plant_no_production',
  'custom',
  'performance',
] as const;
export type AlarmSource = (typeof ALARM_SOURCES)[number];

/** Custom rule comparison operators, as the spec codes them. */
export const ALARM_OPERANTS = ['<', '>', '>=', '<=', '='] as const;
export type AlarmOperant = (typeof ALARM_OPERANTS)[number];

/** Device types whose alarms the header's substation badge counts (`GET alarms/substationAlarms`). */
export const SUBSTATION_DEVICE_TYPES = ['transformer', 'protection_relay', 'meter'] as const;

/** Default list cap when `GET alarms` is called without paging (the spec's plain list). */
export const ALARM_LIST_CAP = 1000;

const statusId = z.enum(['1', '2', '3', '4'], { error: V.invalidValue }).transform(Number);
const priorityId = z.enum(['1', '2', '3', '4'], { error: V.invalidValue }).transform(Number);
/**
 * Query of `GET alarms`. Without `page`/`pageSize` it answers the plain list (newest first, at most
 * ALARM_LIST_CAP rows); with either it answers `{ items, total }`.
 */
export const alarmListQuery = z
  .object({
    status_id: statusId.optional(),
    priority_id: priorityId.optional(),
    plant_id: refFilter(),
    device_id: refFilter(),
    /** true: only alarms whose condition still holds (acknowledged or not); false: only cleared ones. */
    active: z
      .enum(['true', 'false'], { error: V.invalidValue })
      .transform((v) => v === 'true')
      .optional(),
    from: instantField().optional(),
    to: instantField().optional(),
    page: z.coerce
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(1, { error: V.outOfRange })
      .max(1_000_000, { error: V.outOfRange })
      .optional(),
    pageSize: z.coerce
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(1, { error: V.outOfRange })
      .max(PAGE_SIZE_MAX, { error: V.outOfRange })
      .optional(),
  })
  .refine((q) => inOrder(q.from, q.to, true), { error: V.rangeOrder, path: ['to'] });
export type AlarmListQuery = z.output<typeof alarmListQuery>;

/** One alarm as every alarm answer (and the in-process alarm feed) carries it. */
export const alarmSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  plant_id: z.number().int(),
  plant_name: z.string(),
  /** The plant's IANA time zone: the web shows the alarm's times on the plant's clock. */
  plant_time_zone: z.string(),
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  device_type: z.enum(DEVICE_TYPES).nullable(),
  /** The signal (tag) the alarm is about, when there is one. */
  tag_id: z.number().int().nullable(),
  source: z.enum(ALARM_SOURCES),
  /** The custom rule that raised it (source `custom`). */
  rule_id: z.number().int().nullable(),
  priority_id: z.number().int().min(1).max(4),
  /** i18n key of the alarm text (`alarms.msg.*`); the client translates it with `message_params`. */
  message: z.string(),
  // Null sits on the number branch so that each branch has a type (OpenAPI 3.0 allows nullable only with a type).
  message_params: z.record(z.string(), z.union([z.string(), z.number().nullable()])),
  status_id: z.number().int().min(1).max(4),
  status: z.enum(ALARM_STATUS_NAMES),
  /** ISA-18.2 state (alarmStateOf): active while the condition holds, whatever the decision. */
  state: z.enum(ALARM_STATES),
  started_at: z.string(),
  cleared_at: z.string().nullable(),
  approved_at: z.string().nullable(),
  approved_by: z.number().int().nullable(),
  rejected_at: z.string().nullable(),
  rejected_by: z.number().int().nullable(),
  fault_id: z.number().int().nullable(),
  /**
   * The alarm of the same event this one followed (active on its device or a device above it, raised at
   * most ALARM_GROUP_WINDOW_MS before it); null when the alarm is its own cause. Beyond the spec.
   */
  cause_alarm_id: z.number().int().nullable(),
  /** How many alarms followed this one (have it as their cause); 0 for a consequence. Beyond the spec. */
  consequence_count: z.number().int(),
});
export type AlarmRecord = z.infer<typeof alarmSchema>;

export const alarmList = z.array(alarmSchema);
export const alarmPage = z.object({ items: z.array(alarmSchema), total: z.number().int() });

/**
 * Answer of `GET alarms/activeCounts`: the alarms active now in the caller's scope (condition holding,
 * acknowledged or not), by priority; the same count every page shows.
 */
export const activeAlarmCounts = z.object({
  low: z.number().int(),
  medium: z.number().int(),
  high: z.number().int(),
  dangerous: z.number().int(),
  total: z.number().int(),
});
export type ActiveAlarmCounts = z.infer<typeof activeAlarmCounts>;

/** Answer of `POST alarms/{id}/fault`. */
export const alarmApproveAnswer = z.object({ alarm: alarmSchema, fault_id: z.number().int() });

/** Query of `GET alarms/listen`: events after `cursor` (0 or absent: from the start of the log tail). */
export const alarmListenQuery = z.object({
  cursor: canonicalInt(0, Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(500, { error: V.outOfRange })
    .default(200),
});

export const ALARM_EVENT_KINDS = ['raised', 'cleared', 'approved', 'rejected'] as const;
export type AlarmEventKind = (typeof ALARM_EVENT_KINDS)[number];

/** One entry of the alarm event log; `id` is the cursor. Also the `alarm` SSE event's data. */
export const alarmEventSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ALARM_EVENT_KINDS),
  at: z.string(),
  alarm: alarmSchema,
});
export type AlarmEvent = z.infer<typeof alarmEventSchema>;

/** Answer of `GET alarms/listen`: the events after the cursor and the cursor to pass next time. */
export const alarmListenAnswer = z.object({ cursor: z.number().int(), events: z.array(alarmEventSchema) });
export type AlarmListenAnswer = z.infer<typeof alarmListenAnswer>;

/** Largest on/off delay of a custom rule: one day. */
export const ALARM_DELAY_MAX_S = 86_400;

const delayField = () =>
  z
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(0, { error: V.outOfRange })
    .max(ALARM_DELAY_MAX_S, { error: V.outOfRange })
    .default(0);

/** A finite number (JSON cannot carry NaN/Infinity, but large exponents overflow to Infinity). */
const finiteNumber = () =>
  z.number({ error: V.invalidNumber }).refine(Number.isFinite, { error: V.invalidNumber });

/**
 * Body of `POST alarms/custom/{id}` (0 creates). `started_at`/`end_at` bound when the rule is active
 * (either may be null: open-ended): instants, so the engine needs no zone; the web enters them on the
 * plant's clock. Beyond the spec: `on_delay_s` (the condition must hold that long
 * before raising), `hysteresis` (the value must be clear of the threshold by this margin to clear) and
 * `off_delay_s` (it must stay clear that long).
 */
export const customAlarmBody = z
  .object({
    name: requiredText(200),
    description: optionalText(1000),
    priority_id: z
      .number({ error: V.invalidValue })
      .int({ error: V.invalidValue })
      .min(1, { error: V.invalidValue })
      .max(4, { error: V.invalidValue }),
    tag_id: refId(),
    operant: z.enum(ALARM_OPERANTS, { error: V.invalidValue }),
    value: finiteNumber(),
    started_at: nullableInstantField(),
    end_at: nullableInstantField(),
    is_active: flag().default(true),
    on_delay_s: delayField(),
    off_delay_s: delayField(),
    hysteresis: z
      .number({ error: V.invalidNumber })
      .min(0, { error: V.outOfRange })
      .refine(Number.isFinite, { error: V.invalidNumber })
      .default(0),
  })
  .superRefine((v, ctx) => {
    if (!inOrder(v.started_at ?? undefined, v.end_at ?? undefined, true))
      ctx.addIssue({ code: 'custom', path: ['end_at'], message: V.rangeOrder });
  });
export type CustomAlarmBody = z.input<typeof customAlarmBody>;
export type CustomAlarmBodyParsed = z.output<typeof customAlarmBody>;

export const customAlarmSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  plant_id: z.number().int(),
  /** The plant's IANA zone: the web shows and enters the active window on the plant's clock. */
  plant_time_zone: z.string(),
  device_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  priority_id: z.number().int(),
  tag_id: z.number().int(),
  tag_name: z.string(),
  /** The signal's technical key: with `tag_name`, the client shows the signal's name in its language. */
  tag_key: z.string(),
  unit: z.string().nullable(),
  operant: z.enum(ALARM_OPERANTS),
  value: z.number(),
  started_at: z.string().nullable(),
  end_at: z.string().nullable(),
  is_active: z.boolean(),
  on_delay_s: z.number().int(),
  off_delay_s: z.number().int(),
  hysteresis: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CustomAlarm = z.infer<typeof customAlarmSchema>;
export const customAlarmList = z.array(customAlarmSchema);

export const alarmIdParam = z.object({
  id: canonicalInt(1, ID_MAX),
});
