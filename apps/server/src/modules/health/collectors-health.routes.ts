import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { collectionHealthAnswer, collectorsHealthAnswer, type CollectorsHealth } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { plantNames } from '../plants';
import { CollectionHealthService } from './collection-health.service';

/**
 * GET /api/health/collectors: the MQTT collector's connections, counters and the broker's dropped count, the
 * edge agents' MQTT side (connected, batches and refusals), and the Modbus poller's devices with their poll
 * times, for the admin only (they describe the whole installation, not one company). GET /api/admin/collection-health: per device, what arrived and what was
 * refused, scoped to the caller's devices (a company user given the admin_panel page sees their own).
 */
export const collectorsHealthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const collection = new CollectionHealthService(ctx);

  app.get(
    '/health/collectors',
    {
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary: 'State of the telemetry collectors (administrator only)',
        operationId: 'getCollectorsHealth',
        tags: ['health'],
        response: { 200: collectorsHealthAnswer },
      },
    },
    async () => {
      const { mqtt, edgeMqtt, modbus } = ctx.collectors.health();
      // Device names repeat across plants (every plant has its INV-01): each device carries its plant's name.
      const names = await plantNames(ctx.db, [...new Set(modbus?.devices.map((d) => d.plant_id))]);
      for (const d of modbus?.devices ?? []) d.plant_name = names.get(d.plant_id) ?? null;
      const health: CollectorsHealth = { mqtt, edgeMqtt, modbus };
      return health;
    },
  );

  app.get(
    '/admin/collection-health',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'Data collection health per device, problems first',
        operationId: 'getCollectionHealth',
        tags: ['admin'],
        response: { 200: collectionHealthAnswer },
      },
    },
    (request) => collection.collectionHealth(actorOf(request)),
  );
  return Promise.resolve();
};
