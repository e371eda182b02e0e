import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminIngestKeyList, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent } from '../../plugins/openapi';
import { FleetKeysService } from './fleet-keys.service';

/**
 * The admin panel's Ingest keys tab: the fleet's live keys and their revocation, scoped (a company user
 * given the admin_panel page sees their own company's keys).
 */
export const fleetKeysRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new FleetKeysService(ctx);
  const tags = ['admin'];

  app.get(
    '/admin/ingest-keys',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'The live ingest keys of the fleet (prefix only)',
        operationId: 'listAdminIngestKeys',
        tags,
        response: { 200: adminIngestKeyList },
      },
    },
    (request) => service.ingestKeys(actorOf(request)),
  );

  app.delete(
    '/admin/ingest-keys/:id',
    {
      config: { access: access.to('admin_panel', 'delete') },
      schema: {
        summary: 'Revoke an ingest key',
        operationId: 'revokeAdminIngestKey',
        tags,
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await service.revokeKey(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
  return Promise.resolve();
};
