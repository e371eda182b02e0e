import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceBody, deviceList, deviceListQuery, deviceSchema, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { DevicesService } from './devices.service';

/** GET/POST/DELETE /api/devices (docs/spec-differences.md, resource calls). */
export const devicesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new DevicesService(ctx);
  const tags = ['devices'];

  app.get(
    '/devices',
    {
      config: { access: access.to('device_management', 'view') },
      schema: {
        summary: 'List devices',
        operationId: 'listDevices',
        tags,
        querystring: deviceListQuery,
        response: { 200: deviceList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/devices/:id',
    {
      config: { access: access.to('device_management', 'view') },
      schema: {
        summary: 'Get a device',
        operationId: 'getDevice',
        tags,
        params: idParam,
        response: { 200: deviceSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/devices/:id',
    {
      config: { access: access.to('device_management', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a device',
        operationId: 'saveDevice',
        tags,
        params: idParam,
        body: deviceBody,
        response: { 200: deviceSchema },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/devices/:id',
    {
      config: { access: access.to('device_management', 'delete') },
      schema: {
        summary: 'Delete a device',
        operationId: 'deleteDevice',
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
