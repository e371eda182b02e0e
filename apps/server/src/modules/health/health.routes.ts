import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthAnswer, type Health } from '@solar/shared';
import type { AppContext } from '../../context';
import { access } from '../../plugins/auth';

const startedAt = Date.now();

/** GET /api/health: 200 when the database answers, 503 when it does not. */
export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/health',
    {
      config: { access: access.public() },
      schema: {
        summary: 'Health of the server and its database',
        operationId: 'getHealth',
        tags: ['health'],
        response: { 200: healthAnswer, 503: healthAnswer },
      },
    },
    async (_request, reply) => {
      const t0 = performance.now();
      let ok = true;
      try {
        await ctx.ping();
      } catch {
        ok = false;
      }
      const health: Health = {
        status: ok ? 'ok' : 'unavailable',
        database: { dialect: ctx.dialect, ok, latencyMs: Math.round((performance.now() - t0) * 100) / 100 },
        version: ctx.config.version,
        uptimeS: Math.round((Date.now() - startedAt) / 1000),
      };
      return reply.code(ok ? 200 : 503).send(health);
    },
  );
  return Promise.resolve();
};
