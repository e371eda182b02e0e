import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { roleBody, roleList, roleListQuery, roleSchema, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { RolesService } from './roles.service';

/** GET/POST/DELETE /api/roles (docs/spec-differences.md, resource calls); changes are admin only. */
export const rolesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new RolesService(ctx);
  const tags = ['roles'];

  app.get(
    '/roles',
    {
      config: { access: access.to('role_management', 'view') },
      schema: {
        summary: 'List roles',
        operationId: 'listRoles',
        tags,
        querystring: roleListQuery,
        response: { 200: roleList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/roles/:id',
    {
      config: { access: access.to('role_management', 'view') },
      schema: {
        summary: 'Get a role',
        operationId: 'getRole',
        tags,
        params: idParam,
        response: { 200: roleSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/roles/:id',
    {
      config: { access: access.admin('role_management', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a role',
        operationId: 'saveRole',
        tags,
        params: idParam,
        body: roleBody,
        response: { 200: roleSchema, ...problems(409) },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/roles/:id',
    {
      config: { access: access.admin('role_management', 'delete') },
      schema: {
        summary: 'Delete a role',
        operationId: 'deleteRole',
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
