import { ALARM_PRIORITIES, type PlantDeviceStatusAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { CAMERA_PROBE_INTERVAL_MS } from '../cameras';
import { cameraCommunication, communicationState, deviceStatus, isDaylight } from './engine';
import { readPlantDeviceLinks, type DeviceLink } from './device-status.repository';
import { findKpiPlants, readActiveAlarms } from './kpi.repository';

/**
 * A device's link and when it was last heard from: a camera by the camera probe's last image (it sends no
 * telemetry), every other device by its newest sample.
 */
export function deviceLinkOf(
  d: Pick<DeviceLink, 'type' | 'pollIntervalS' | 'lastDataMs' | 'cameraProbe'>,
  now: number,
) {
  if (d.type === 'camera') {
    const lastMs = d.cameraProbe?.lastImageMs ?? null;
    return { communication: cameraCommunication(d.cameraProbe, now, CAMERA_PROBE_INTERVAL_MS), lastMs };
  }
  return { communication: communicationState(d.lastDataMs, now, d.pollIntervalS), lastMs: d.lastDataMs };
}

/**
 * Per-device status of a plant (GET plants/{id}/devices/status) by the one rule of engine/status.ts, so
 * the device list and the single-line diagram never disagree with the plant's own status.
 */
export class DeviceStatusService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  async list(actor: Actor, plantId: number): Promise<PlantDeviceStatusAnswer> {
    const { db } = this.ctx;
    const [plant] = await findKpiPlants(db, scopeOf(actor), plantId);
    if (!plant) throw notFound();
    const now = this.ctx.now();
    const [links, alarms] = await Promise.all([
      readPlantDeviceLinks(db, plant.id),
      readActiveAlarms(db, [plant.id]),
    ]);
    // Without coordinates the sun cannot be placed: never call such a plant's silence "night".
    const daylight =
      plant.latitude === null || plant.longitude === null || isDaylight(now, plant.latitude, plant.longitude);
    const items = links.map((d) => {
      const own = alarms.filter((a) => a.deviceId === d.deviceId);
      const { communication, lastMs } = deviceLinkOf(d, now);
      const status = deviceStatus({
        activeAlarms: own.flatMap((a) =>
          Array.from({ length: a.count }, () => ({
            priorityId: a.priorityId,
            source: a.source,
          })),
        ),
        communication,
        isDaylight: daylight,
      });
      const [low, medium, high, dangerous] = ALARM_PRIORITIES.map((p) =>
        own.filter((a) => a.priorityId === p).reduce((n, a) => n + a.count, 0),
      ) as [number, number, number, number];
      return {
        device_id: d.deviceId,
        status,
        communication,
        last_data_at: lastMs === null ? null : new Date(lastMs).toISOString(),
        active_alarms: { low, medium, high, dangerous, total: low + medium + high + dangerous },
      };
    });
    return { plant_id: plant.id, is_daylight: daylight, items };
  }
}
