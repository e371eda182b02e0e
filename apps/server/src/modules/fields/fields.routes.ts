import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fieldBody, fieldList, fieldListQuery, fieldSchema, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { FieldsService } from './fields.service';

/** GET/POST/DELETE /api/fields (docs/spec-differences.md, resource calls). */
export const fieldsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new FieldsService(ctx);
  const tags = ['fields'];

  app.get(
    '/fields',
    {
      config: { access: access.to('field_management', 'view') },
      schema: {
        summary: 'List fields',
        operationId: 'listFields',
        tags,
        querystring: fieldListQuery,
        response: { 200: fieldList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/fields/:id',
    {
      config: { access: access.to('field_management', 'view') },
      schema: {
        summary: 'Get a field',
        operationId: 'getField',
        tags,
        params: idParam,
        response: { 200: fieldSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/fields/:id',
    {
      config: { access: access.to('field_management', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a field',
        operationId: 'saveField',
        tags,
        params: idParam,
        body: fieldBody,
        response: { 200: fieldSchema },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/fields/:id',
    {
      config: { access: access.to('field_management', 'delete') },
      schema: {
        summary: 'Delete a field',
        operationId: 'deleteField',
        tags,
        params: idParam,
        response: { 204: noContent, ...problems(409) },
      },
    },
    async (request, reply) => {
      await service.remove(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
  return Promise.resolve();
};
