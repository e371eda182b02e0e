import {
  INGEST_COUNT_REASONS,
  POINT_REJECTIONS,
  type CollectionHealthAnswer,
  type CollectionHealthItem,
  type IngestCountReason,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { scopeOf } from '../../lib/scope';
import { agentsHealth } from '../edge';
import { deviceLinkOf } from '../kpi';
import * as repo from './collection-health.repository';

const HOUR_MS = 3_600_000;
const REFUSALS: ReadonlySet<string> = new Set(POINT_REJECTIONS);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The fleet's data collection health (admin panel), scoped: a company user holding the admin_panel page sees
 * their own company's devices.
 */
export class CollectionHealthService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'ingestCounts'>) {}

  /** Per device: last seen, points in the last hour, communication, refusals by reason; problems first. */
  async collectionHealth(actor: Actor): Promise<CollectionHealthAnswer> {
    const { db } = this.ctx;
    const now = this.ctx.now();
    const devices = await repo.readFleetDevices(db, scopeOf(actor));
    const ids = devices.map((d) => d.device_id);
    // What the collectors counted in the last few seconds is in memory: write it first, so none is missing.
    await this.ctx.ingestCounts.flush();
    const [points, counts] = await Promise.all([
      repo.countPointsSince(db, ids, now - HOUR_MS),
      repo.readCountsOf(db, ids),
    ]);
    const countsOf = new Map<number, typeof counts>();
    for (const c of counts) countsOf.set(c.device_id, [...(countsOf.get(c.device_id) ?? []), c]);
    const order = (reason: string) => INGEST_COUNT_REASONS.indexOf(reason as IngestCountReason);
    const items: CollectionHealthItem[] = devices.map((d) => {
      // The one rule of the device status (a camera by its last probe: modules/kpi deviceLinkOf).
      const { communication, lastMs } = deviceLinkOf(
        {
          type: d.device_type,
          pollIntervalS: d.poll_interval_s,
          lastDataMs: d.last_ts === null ? null : Number(d.last_ts),
          cameraProbe:
            d.camera_probed_at === null
              ? null
              : { lastImageMs: d.camera_last_image_at === null ? null : Number(d.camera_last_image_at) },
        },
        now,
      );
      const rejected = (countsOf.get(d.device_id) ?? [])
        .filter((c) => order(c.reason) >= 0)
        .sort((a, b) => order(a.reason) - order(b.reason))
        .map((c) => ({
          reason: c.reason as IngestCountReason,
          count: Number(c.count),
          last_at: new Date(Number(c.last_at)).toISOString(),
        }));
      const rejectedTotal = rejected.filter((r) => REFUSALS.has(r.reason)).reduce((n, r) => n + r.count, 0);
      const isActive = d.is_active === 1;
      return {
        device_id: d.device_id,
        device_name: d.device_name,
        device_type: d.device_type,
        protocol: d.protocol,
        is_active: isActive,
        plant_id: d.plant_id,
        plant_name: d.plant_name,
        last_seen_at: iso(lastMs),
        points_last_hour: points.get(d.device_id) ?? 0,
        communication,
        rejected,
        rejected_total: rejectedTotal,
        // An inactive device is expected to be silent: only its refusals are a problem.
        has_problem: (isActive && communication === 'lost') || rejectedTotal > 0,
      };
    });
    // Problems first, then the list's own order (plant, device); the sort is stable.
    items.sort((a, b) => Number(b.has_problem) - Number(a.has_problem));
    const agents = await agentsHealth(this.ctx, scopeOf(actor), now);
    return { generated_at: new Date(now).toISOString(), items, agents };
  }
}
