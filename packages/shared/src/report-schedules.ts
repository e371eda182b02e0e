import { z } from 'zod';
import { listAnswer, refId, timestamps } from './common';
import { REPORT_TYPES, type ReportType } from './reports';
import { V, flag } from './validation';

/** Report types a user can subscribe to: every `type` of `GET reports/{type}`. */
export const SCHEDULED_REPORT_TYPES = REPORT_TYPES;
export type ScheduledReportType = ReportType;

/** Formats a scheduled report can attach to its mail: the issue asks for the PDF and the XLSX. */
export const SCHEDULED_REPORT_FORMATS = ['pdf', 'xlsx'] as const;
export type ScheduledReportFormat = (typeof SCHEDULED_REPORT_FORMATS)[number];

/** daily at the local time; weekly on `weekday` at it; monthly on the 1st at it. */
export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/** The state of a subscription's delivery as the list shows it. */
export const REPORT_SCHEDULE_STATUSES = ['pending', 'sent', 'retrying', 'failed'] as const;
export type ReportScheduleStatus = (typeof REPORT_SCHEDULE_STATUSES)[number];

/** Plants one subscription may cover: the report API's own limit decides the rest. */
export const REPORT_SCHEDULE_PLANTS_MAX = 200;

/** Local wall-clock time HH:MM, 24-hour. */
export const LOCAL_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Message keys of a failed delivery, shown on the subscription (reportSchedules.errors.*). */
export const REPORT_SCHEDULE_ERRORS = {
  /** The mail server refused the message or could not be reached. */
  sendFailed: 'reportSchedules.errors.sendFailed',
  /** The report could not be generated. */
  reportFailed: 'reportSchedules.errors.reportFailed',
  /** The subscriber is deactivated or lost the report permission: nothing is sent for them. */
  noAccess: 'reportSchedules.errors.noAccess',
  /**
   * The subscriber's address had used its mails of the day (docs/security.md, "Mail and schedules"): the
   * run is not sent and not retried; the next one goes out as usual.
   */
  mailLimit: 'reportSchedules.errors.mailLimit',
  /** A save refused: the caller already has REPORT_SCHEDULES_PER_USER subscriptions. */
  tooManyForUser: 'reportSchedules.errors.tooManyForUser',
  /** A save refused: the caller's company already has REPORT_SCHEDULES_PER_COMPANY subscriptions. */
  tooManyForCompany: 'reportSchedules.errors.tooManyForCompany',
  /** The subscriber's email address was never confirmed: reports are not mailed to it. */
  emailUnconfirmed: 'reportSchedules.errors.emailUnconfirmed',
} as const;

/**
 * Default subscription limits (docs/security.md, "Mail and schedules"): each one mails PDF and XLSX files,
 * so an unlimited number of them turned the console into a spam relay. The server's environment may set
 * others (REPORT_SCHEDULES_PER_USER, REPORT_SCHEDULES_PER_COMPANY).
 */
export const REPORT_SCHEDULES_PER_USER_DEFAULT = 20;
export const REPORT_SCHEDULES_PER_COMPANY_DEFAULT = 200;

/** POST report-schedules/{id} (0 creates): the caller's own subscription. */
export const reportScheduleBody = z.object({
  report_type: z.enum(SCHEDULED_REPORT_TYPES, { error: V.invalidValue }),
  plant_ids: z
    .array(refId(), { error: V.required })
    .min(1, { error: V.required })
    .max(REPORT_SCHEDULE_PLANTS_MAX, { error: V.tooMany })
    .refine((ids) => new Set(ids).size === ids.length, { error: V.duplicate }),
  formats: z
    .array(z.enum(SCHEDULED_REPORT_FORMATS, { error: V.invalidValue }), { error: V.required })
    .min(1, { error: V.required })
    .refine((f) => new Set(f).size === f.length, { error: V.duplicate })
    .default(['pdf', 'xlsx']),
  frequency: z.enum(REPORT_FREQUENCIES, { error: V.invalidValue }),
  local_time: z.string({ error: V.required }).regex(LOCAL_TIME_PATTERN, { error: V.invalidValue }),
  /** ISO weekday, 1 Monday … 7 Sunday; only weekly subscriptions use it. */
  weekday: z
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(7, { error: V.outOfRange })
    .default(1),
  is_paused: flag().default(false),
});
export type ReportScheduleBody = z.input<typeof reportScheduleBody>;

export const reportScheduleSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  report_type: z.enum(SCHEDULED_REPORT_TYPES),
  plant_ids: z.array(z.number().int()),
  /** Names of the plants still in the caller's scope, in plant_ids order. */
  plant_names: z.array(z.string()),
  formats: z.array(z.enum(SCHEDULED_REPORT_FORMATS)),
  frequency: z.enum(REPORT_FREQUENCIES),
  local_time: z.string(),
  weekday: z.number().int(),
  /** IANA zone the local time is read in: the zone most of the plants share. */
  time_zone: z.string(),
  is_paused: z.boolean(),
  status: z.enum(REPORT_SCHEDULE_STATUSES),
  /** The next scheduled run (UTC ISO 8601); null while paused. */
  next_run_at: z.string().nullable(),
  /** When a retry of a failed run is due; null unless retrying. */
  retry_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  /** Failed attempts of the pending run. */
  failed_attempts: z.number().int(),
  /** A reportSchedules.errors.* key of the last failure; null after a success. */
  last_error: z.string().nullable(),
  ...timestamps,
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

export const reportScheduleList = listAnswer(reportScheduleSchema);
export type ReportScheduleList = z.infer<typeof reportScheduleList>;

/**
 * The zone a subscription's local time is read in: the one most of its plants share (the plant's own zone
 * for one plant); a tie goes to the zone of the plant listed first. The server schedules its runs by it and
 * the web's form names it beside the time, so both read "07:00" on the same clock.
 */
export function zoneOfPlants(
  plantIds: readonly number[],
  plants: readonly { id: number; time_zone: string }[],
): string {
  const counts = new Map<string, number>();
  for (const id of plantIds) {
    const zone = plants.find((p) => p.id === id)?.time_zone;
    if (zone) counts.set(zone, (counts.get(zone) ?? 0) + 1);
  }
  let best = 'UTC';
  let bestCount = 0;
  for (const [zone, count] of counts) {
    if (count > bestCount) [best, bestCount] = [zone, count];
  }
  return best;
}
