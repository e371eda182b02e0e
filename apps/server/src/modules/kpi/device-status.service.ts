import { ALARM_PRIORITIES, type PlantDeviceStatusAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { communicationState, isDaylight, operatingStatus } from './engine';
import { readPlantDeviceLinks } from './device-status.repository';
import { findKpiPlants, readActiveAlarms } from './kpi.repository';

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
      const communication = communicationState(d.lastDataMs, now, d.pollIntervalS);
      const status = operatingStatus({
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
        last_data_at: d.lastDataMs === null ? null : new Date(d.lastDataMs).toISOString(),
        active_alarms: { low, medium, high, dangerous, total: low + medium + high + dangerous },
      };
    });
    return { plant_id: plant.id, is_daylight: daylight, items };
  }
}
