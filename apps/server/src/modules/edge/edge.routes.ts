import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { edgeConfigAnswer, edgeHealthAnswer, edgeHealthBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { DbAttemptLimiter } from '../../lib/attempt-limiter';
import { tooManyRequests } from '../../lib/http-errors';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { EdgeService, plantOfKey } from './edge.service';

/**
 * Requests per plant key and route within EDGE_LIMIT_WINDOW_MS. An agent reports every minute and reads its
 * configuration at start and when a health answer names another version; 20 a minute leaves room for
 * restarts and retries while a stolen or looping key cannot keep the database busy (docs/security.md).
 */
export const EDGE_LIMIT_MAX = 20;
export const EDGE_LIMIT_WINDOW_MS = 60_000;

/**
 * GET /api/edge/config and POST /api/edge/health: the edge agent's calls (docs/edge.md), each with a plant
 * ingest key in `X-Api-Key`. A device key or a user's token is 403: an agent serves a whole plant.
 */
export const edgeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new EdgeService(ctx);
  const limiter = new DbAttemptLimiter(ctx.db, 'edge', EDGE_LIMIT_MAX, EDGE_LIMIT_WINDOW_MS, () => ctx.now());
  const tags = ['edge'];
  /** Before the body is validated: a device key is refused, and counted, whatever it sent. */
  const plantKeyOnly = (route: string) => async (request: FastifyRequest) => {
    plantOfKey(request.ingestKey);
    const { count, retryAfterS } = await limiter.hit(`${route}:${request.ingestKey!.keyId}`);
    if (count > limiter.max) throw tooManyRequests(retryAfterS);
  };

  app.get(
    '/edge/config',
    {
      config: { access: access.ingest('device_management', 'view') },
      preValidation: plantKeyOnly('config'),
      schema: {
        summary: "The plant's Modbus devices an edge agent polls",
        operationId: 'getEdgeConfig',
        tags,
        description:
          "Authenticated by a plant ingest key in `X-Api-Key` (a device key or a user token is 403). The key's plant's active `modbus_tcp` and `modbus_rtu` devices with their active signals that have a register, and `config_version`, a hash of that content that changes whenever a device or signal does. At most 20 calls a minute per key (429 with Retry-After).",
        response: { 200: edgeConfigAnswer, ...problems(401, 403, 404, 429) },
      },
    },
    (request) => service.config(plantOfKey(request.ingestKey)),
  );

  app.post(
    '/edge/health',
    {
      config: { access: access.ingest('device_management', 'update') },
      preValidation: plantKeyOnly('health'),
      schema: {
        summary: "An edge agent's health report",
        operationId: 'reportEdgeHealth',
        tags,
        description:
          "Authenticated by a plant ingest key in `X-Api-Key` (a device key or a user token is 403). Stores the agent's latest report per (plant, agent_id) on the console's clock and answers the agent's clock offset (`sent_at` minus the time of receipt) and the current `config_version`. An offset beyond ±5 s opens an `agent_clock_offset` data-quality flag on the plant's polled devices until a report comes back within it. At most 20 calls a minute per key (429 with Retry-After).",
        body: edgeHealthBody,
        response: { 200: edgeHealthAnswer, ...problems(400, 401, 403, 404, 429) },
      },
    },
    (request) => service.health(plantOfKey(request.ingestKey), request.body),
  );
  return Promise.resolve();
};
