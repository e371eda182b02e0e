import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signalBody, signalList, signalListQuery, signalSchema, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { SignalsService } from './signals.service';

/** GET/POST/DELETE /api/signals (docs/spec-differences.md, resource calls). */
export const signalsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new SignalsService(ctx);
  const tags = ['signals'];

  app.get(
    '/signals',
    {
      config: { access: access.to('device_signals', 'view') },
      schema: {
        summary: 'List signals',
        operationId: 'listSignals',
        tags,
        querystring: signalListQuery,
        response: { 200: signalList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/signals/:id',
    {
      config: { access: access.to('device_signals', 'view') },
      schema: {
        summary: 'Get a signal',
        operationId: 'getSignal',
        tags,
        params: idParam,
        response: { 200: signalSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/signals/:id',
    {
      config: { access: access.to('device_signals', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a signal',
        operationId: 'saveSignal',
        tags,
        params: idParam,
        body: signalBody,
        response: { 200: signalSchema, ...problems(409) },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/signals/:id',
    {
      config: { access: access.to('device_signals', 'delete') },
      schema: {
        summary: 'Delete a signal',
        operationId: 'deleteSignal',
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
