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
      // The stored holder (another node's name too); unknown when the database does not answer.
      const lease = ok ? await ctx.lease.holder().catch(() => undefined) : undefined;
      const live = lease && (lease.expiresAt === 0 || lease.expiresAt > Date.now()) ? lease : undefined;
      const health: Health = {
        status: ok ? 'ok' : 'unavailable',
        database: { dialect: ctx.dialect, ok, latencyMs: Math.round((performance.now() - t0) * 100) / 100 },
        version: ctx.config.version,
        uptimeS: Math.round((Date.now() - startedAt) / 1000),
        cluster: {
          node: ctx.cluster.nodeId,
          transport: ctx.cluster.transport,
          leaseHolder: live?.holder ?? null,
          leaseExpiresAt: live?.expiresAt ? new Date(live.expiresAt).toISOString() : null,
          leaseGeneration: live?.generation ?? null,
          thisNodeHoldsLease: ctx.lease.isHeld(),
        },
      };
      return reply.code(ok ? 200 : 503).send(health);
    },
  );
  return Promise.resolve();
};
