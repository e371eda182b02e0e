import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  faultBody,
  faultCommentBody,
  faultCommentSchema,
  faultDetailSchema,
  faultList,
  faultListQuery,
  idParam,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { FaultsService } from './faults.service';

/** GET/POST/DELETE /api/faults (NOTES.md resource calls) and POST /api/faults/{id}/comments. */
export const faultsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new FaultsService(ctx);
  const tags = ['faults'];

  app.get(
    '/faults',
    {
      config: { access: access.to('fault', 'view') },
      schema: { tags, querystring: faultListQuery, response: { 200: faultList } },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/faults/:id',
    {
      config: { access: access.to('fault', 'view') },
      schema: { tags, params: idParam, response: { 200: faultDetailSchema } },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/faults/:id',
    {
      config: { access: access.to('fault', 'upsert') },
      schema: { tags, params: idParam, body: faultBody, response: { 200: faultDetailSchema } },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/faults/:id/comments',
    {
      config: { access: access.to('fault', 'update') },
      schema: { tags, params: idParam, body: faultCommentBody, response: { 200: faultCommentSchema } },
    },
    (request) => service.comment(actorOf(request), request.params.id, request.body.body),
  );

  app.delete(
    '/faults/:id',
    {
      config: { access: access.to('fault', 'delete') },
      schema: { tags, params: idParam },
    },
    async (request, reply) => {
      await service.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
  return Promise.resolve();
};
