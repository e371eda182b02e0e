import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { collectorsHealthAnswer, type CollectorsHealth } from '@solar/shared';
import type { AppContext } from '../../context';
import { forbidden } from '../../lib/http-errors';
import { access, callerOf } from '../../plugins/auth';
import { plantNames } from '../plants/plants.repository';

/**
 * GET /api/health/collectors: the MQTT collector's connections, counters and the broker's dropped count, and
 * the Modbus poller's devices with their poll times, for the admin only (they describe the whole
 * installation, not one company).
 */
export const collectorsHealthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/health/collectors',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'State of the telemetry collectors (administrator only)',
        operationId: 'getCollectorsHealth',
        tags: ['health'],
        response: { 200: collectorsHealthAnswer },
      },
    },
    async (request) => {
      if (!callerOf(request).isAdmin) throw forbidden();
      const modbus = ctx.collectors.modbus?.health() ?? null;
      // Device names repeat across plants (every plant has its INV-01): each device carries its plant's name.
      const names = await plantNames(ctx.db, [...new Set(modbus?.devices.map((d) => d.plant_id))]);
      for (const d of modbus?.devices ?? []) d.plant_name = names.get(d.plant_id) ?? null;
      const health: CollectorsHealth = { mqtt: ctx.collectors.mqtt?.health() ?? null, modbus };
      return health;
    },
  );
  return Promise.resolve();
};
