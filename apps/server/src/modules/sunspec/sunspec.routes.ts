import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParam,
  sunspecApplyAnswer,
  sunspecApplyBody,
  sunspecDiscoverAnswer,
  sunspecTemplatesAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { SunSpecService } from './sunspec.service';

/** GET /api/sunspec/templates, POST /api/devices/{id}/sunspec/discover and …/apply (issue 5). */
export const sunspecRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new SunSpecService(ctx);
  const tags = ['sunspec'];
  const permission = access.to('device_management', 'update');

  app.get(
    '/sunspec/templates',
    { config: { access: permission }, schema: { tags, response: { 200: sunspecTemplatesAnswer } } },
    () => service.templates(),
  );

  app.post(
    '/devices/:id/sunspec/discover',
    {
      config: { access: permission },
      schema: { tags, params: idParam, response: { 200: sunspecDiscoverAnswer } },
    },
    (request) => service.discover(actorOf(request), request.params.id),
  );

  app.post(
    '/devices/:id/sunspec/apply',
    {
      config: { access: permission },
      schema: { tags, params: idParam, body: sunspecApplyBody, response: { 200: sunspecApplyAnswer } },
    },
    (request) => service.apply(actorOf(request), request.params.id, request.body),
  );
  return Promise.resolve();
};
