import { sql } from 'kysely';
import type { Page } from '@solar/shared';
import type { AppConfig } from '../config';
import type { Db } from '../db/database';
import type { SessionChange, SessionEvents } from '../lib/session-events';
import type { StoredPoint, TelemetryHub } from '../telemetry-store/telemetry-hub';
import { createLocalBus, createPostgresBus, createRedisBus, type ClusterBus } from './cluster-bus';

type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/**
 * The bus this node talks to the others on: Redis pub/sub when REDIS_URL is set, else PostgreSQL
 * LISTEN/NOTIFY on PostgreSQL, else none (SQLite is one node by construction).
 */
export function createClusterBus(config: AppConfig, db: Db, log: Log): ClusterBus {
  const { nodeId, redisUrl } = config.cluster;
  if (config.database.dialect !== 'postgres') return createLocalBus(nodeId);
  const { schema, url } = config.database;
  if (redisUrl) return createRedisBus({ nodeId, url: redisUrl, schema, log });
  return createPostgresBus({
    nodeId,
    url,
    schema,
    log,
    async notify(channel, payloads) {
      await sql`select pg_notify(${channel}, p) from unnest(${payloads}::text[]) with ordinality as t(p, i) order by i`.execute(
        db,
      );
    },
  });
}

/** Stored points older than this are not relayed: a history back-fill is not live news for other nodes. */
export const RELAY_MAX_AGE_MS = 86_400_000;

/** A stored point on the wire: [signal, plant, device, ts, value]. */
type WirePoint = [number, number, number, number, number];

/**
 * Telemetry stored on any node: the local store's points and those other nodes relay. The stream hub (every
 * node's SSE clients) and the alarm engine (on the lease holder) listen to it; the KPI marks stay local,
 * since every node marks what it stored itself.
 */
export function clusterTelemetry(
  bus: ClusterBus,
  local: Pick<TelemetryHub, 'onStored'>,
  now: () => number = Date.now,
): Pick<TelemetryHub, 'onStored'> {
  const remote = new Set<(points: readonly StoredPoint[]) => void>();
  if (bus.transport !== 'local') {
    local.onStored((points) => {
      const oldest = now() - RELAY_MAX_AGE_MS;
      const wire: WirePoint[] = [];
      for (const p of points)
        if (p.ts >= oldest) wire.push([p.signal_id, p.plant_id, p.device_id, p.ts, p.value]);
      if (wire.length) bus.publish('points', wire);
    });
    bus.on('points', (data) => {
      const points: StoredPoint[] = (data as WirePoint[]).map(
        ([signal_id, plant_id, device_id, ts, value]) => ({
          signal_id,
          plant_id,
          device_id,
          ts,
          value,
        }),
      );
      for (const listener of remote) listener(points);
    });
  }
  return {
    onStored(listener) {
      const offLocal = local.onStored(listener);
      remote.add(listener);
      return () => {
        offLocal();
        remote.delete(listener);
      };
    },
  };
}

/**
 * Session changes across nodes: what is emitted here reaches this node's listeners and the other nodes';
 * what other nodes emit reaches this node's listeners (so a role change on A ends the streams on B).
 */
export function clusterSessionEvents(bus: ClusterBus, local: SessionEvents): SessionEvents {
  bus.on('session', (data) => local.emit(data as SessionChange));
  return {
    emit(change) {
      local.emit(change);
      bus.publish('session', change);
    },
    on: (listener) => local.on(listener),
  };
}

/** An event for the SSE clients allowed to see a plant, as it crosses nodes. */
interface PlantEvent {
  plantId: number;
  event: string;
  data: unknown;
  page?: Page;
}

/**
 * Sends a plant event to this node's SSE clients and to the other nodes', each of which delivers it once to
 * its own clients, checked against each connection's current scope there.
 */
export function clusterPlantEvents(
  bus: ClusterBus,
  publishLocal: (plantId: number, event: string, data: unknown, options: { page?: Page }) => Promise<number>,
): (plantId: number, event: string, data: unknown, options: { page?: Page }) => Promise<number> {
  bus.on('plant-event', (raw) => {
    const e = raw as PlantEvent;
    void publishLocal(e.plantId, e.event, e.data, e.page ? { page: e.page } : {}).catch(() => 0);
  });
  return (plantId, event, data, options) => {
    const message: PlantEvent = { plantId, event, data, ...(options.page ? { page: options.page } : {}) };
    bus.publish('plant-event', message);
    return publishLocal(plantId, event, data, options);
  };
}
