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
import { noContent, problems } from '../../plugins/openapi';
import { FaultsService } from './faults.service';

/** GET/POST/DELETE /api/faults (docs/spec-differences.md, resource calls), POST /api/faults/{id}/comments. */
export const faultsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new FaultsService(ctx);
  const tags = ['faults'];

  app.get(
    '/faults',
    {
      config: { access: access.to('fault', 'view') },
      schema: {
        summary: 'List faults',
        operationId: 'listFaults',
        tags,
        querystring: faultListQuery,
        response: { 200: faultList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/faults/:id',
    {
      config: { access: access.to('fault', 'view') },
      schema: {
        summary: 'Get a fault',
        operationId: 'getFault',
        tags,
        params: idParam,
        response: { 200: faultDetailSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/faults/:id',
    {
      config: { access: access.to('fault', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a fault',
        operationId: 'saveFault',
        tags,
        params: idParam,
        body: faultBody,
        response: { 200: faultDetailSchema, ...problems(409) },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/faults/:id/comments',
    {
      config: { access: access.to('fault', 'update') },
      schema: {
        summary: 'Add a comment to a fault',
        operationId: 'commentOnFault',
        tags,
        params: idParam,
        body: faultCommentBody,
        response: { 200: faultCommentSchema },
      },
    },
    (request) => service.comment(actorOf(request), request.params.id, request.body.body),
  );

  app.delete(
    '/faults/:id',
    {
      config: { access: access.to('fault', 'delete') },
      schema: {
        summary: 'Delete a fault',
        operationId: 'deleteFault',
        tags,
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await service.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
  return Promise.resolve();
};
