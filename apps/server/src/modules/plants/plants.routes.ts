import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { plantBody, plantList, plantListQuery, plantSchema, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { PlantsService } from './plants.service';

/** GET/POST/DELETE /api/plants (docs/spec-differences.md, resource calls). */
export const plantsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new PlantsService(ctx);
  const tags = ['plants'];

  app.get(
    '/plants',
    {
      config: { access: access.to('plant_management', 'view') },
      schema: {
        summary: 'List plants',
        operationId: 'listPlants',
        tags,
        querystring: plantListQuery,
        response: { 200: plantList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/plants/:id',
    {
      config: { access: access.to('plant_management', 'view') },
      schema: {
        summary: 'Get a plant',
        operationId: 'getPlant',
        tags,
        params: idParam,
        response: { 200: plantSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/plants/:id',
    {
      config: { access: access.to('plant_management', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a plant',
        operationId: 'savePlant',
        tags,
        params: idParam,
        body: plantBody,
        response: { 200: plantSchema },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/plants/:id',
    {
      config: { access: access.to('plant_management', 'delete') },
      schema: {
        summary: 'Delete a plant',
        operationId: 'deletePlant',
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
