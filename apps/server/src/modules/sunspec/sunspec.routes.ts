import type { FastifyBaseLogger } from 'fastify';
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
import { problems } from '../../plugins/openapi';
import { DeviceFailure, SunSpecService } from './sunspec.service';

/** The reason a device could not be read goes to the log; the client only ever sees the one 502. */
function logFailure(log: FastifyBaseLogger, deviceId: number) {
  return (error: unknown): never => {
    if (error instanceof DeviceFailure) {
      const reason = error.reason instanceof Error ? error.reason.message : String(error.reason);
      log.warn({ deviceId, reason }, 'sunspec: device not read');
    }
    throw error;
  };
}

/** GET /api/sunspec/templates, POST /api/devices/{id}/sunspec/discover and …/apply. */
export const sunspecRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new SunSpecService(ctx);
  const tags = ['sunspec'];
  const permission = access.to('device_management', 'update');
  // A device of another protocol (409), no SunSpec marker (422), not read for any reason (502).
  const deviceProblems = problems(409, 422, 502);

  app.get(
    '/sunspec/templates',
    {
      config: { access: permission },
      schema: {
        summary: 'List the SunSpec models signals can be made from',
        operationId: 'listSunspecTemplates',
        tags,
        response: { 200: sunspecTemplatesAnswer },
      },
    },
    () => service.templates(),
  );

  app.post(
    '/devices/:id/sunspec/discover',
    {
      config: { access: permission },
      schema: {
        summary: 'Read a Modbus TCP device’s SunSpec model chain',
        operationId: 'discoverSunspec',
        tags,
        params: idParam,
        response: { 200: sunspecDiscoverAnswer, ...deviceProblems },
      },
    },
    (request) =>
      service.discover(actorOf(request), request.params.id).catch(logFailure(request.log, request.params.id)),
  );

  app.post(
    '/devices/:id/sunspec/apply',
    {
      config: { access: permission },
      schema: {
        summary: 'Create a device’s signals from SunSpec models',
        operationId: 'applySunspec',
        tags,
        params: idParam,
        body: sunspecApplyBody,
        response: { 200: sunspecApplyAnswer, ...deviceProblems },
      },
    },
    (request) =>
      service
        .apply(actorOf(request), request.params.id, request.body)
        .catch(logFailure(request.log, request.params.id)),
  );
  return Promise.resolve();
};
