import { z } from 'zod';
import { alarmCountsSchema, operatingStatusSchema } from './kpi';

/**
 * A device's link: `lost` when nothing arrived for three poll intervals (at least 5 minutes), or ever. A
 * camera sends no telemetry: its link is the camera probe's last image (online within three probe
 * intervals, else lost), and `unknown` while it was never probed (no snapshot address, or no probe yet).
 */
export const COMMUNICATION_STATES = ['online', 'lost', 'unknown'] as const;
export type CommunicationState = (typeof COMMUNICATION_STATES)[number];

/**
 * One device's status (GET plants/{id}/devices/status), by the same rule as the plant's: fault (its own
 * active alarm of priority ≥ 3 other than communication loss), offline (it does not communicate), warning
 * (any other active alarm of its own), night (sun below the horizon at the plant), normal. Null when its
 * communication is `unknown` and no alarm of its own says more: neither offline nor normal is known.
 */
export const deviceStatusItem = z.object({
  device_id: z.number().int(),
  status: operatingStatusSchema.nullable(),
  communication: z.enum(COMMUNICATION_STATES),
  /**
   * Newest sample of any of its active signals (UTC ISO 8601), for a camera the last probe answered with an
   * image; null when it never reported.
   */
  last_data_at: z.string().nullable(),
  /** The device's own active alarms by priority. */
  active_alarms: alarmCountsSchema,
});
export type DeviceStatusItem = z.infer<typeof deviceStatusItem>;

export const plantDeviceStatusAnswer = z.object({
  plant_id: z.number().int(),
  /** Whether the sun is above the horizon at the plant now (true when the plant has no coordinates). */
  is_daylight: z.boolean(),
  items: z.array(deviceStatusItem),
});
export type PlantDeviceStatusAnswer = z.infer<typeof plantDeviceStatusAnswer>;
