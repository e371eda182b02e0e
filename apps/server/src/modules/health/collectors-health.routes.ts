import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { collectorsHealthAnswer, type CollectorsHealth } from '@solar/shared';
import type { AppContext } from '../../context';
import { forbidden } from '../../lib/http-errors';
import { access, callerOf } from '../../plugins/auth';

/**
 * GET /api/health/collectors: the MQTT collector's connections, counters and the broker's dropped count, for
 * the admin only (they describe the whole installation, not one company).
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
    (request) => {
      if (!callerOf(request).isAdmin) throw forbidden();
      const health: CollectorsHealth = { mqtt: ctx.collectors.mqtt?.health() ?? null };
      return Promise.resolve(health);
    },
  );
  return Promise.resolve();
};
