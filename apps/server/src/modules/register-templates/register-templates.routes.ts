import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParam,
  registerTemplateApplyAnswer,
  registerTemplateApplyBody,
  registerTemplatesAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { RegisterTemplatesService } from './register-templates.service';

/** GET /api/register-templates and POST /api/devices/{id}/register-template. */
export const registerTemplatesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new RegisterTemplatesService(ctx);
  const tags = ['register-templates'];
  const permission = access.to('device_management', 'update');

  app.get(
    '/register-templates',
    {
      config: { access: permission },
      schema: {
        summary: 'List the shipped register-map templates of non-SunSpec devices, as their JSON',
        operationId: 'listRegisterTemplates',
        tags,
        response: { 200: registerTemplatesAnswer },
      },
    },
    () => service.list(),
  );

  app.post(
    '/devices/:id/register-template',
    {
      config: { access: permission },
      schema: {
        summary: 'Create a Modbus device’s signals from a register-map template',
        operationId: 'applyRegisterTemplate',
        tags,
        params: idParam,
        body: registerTemplateApplyBody,
        // Not a Modbus device, or not of the template's device type, or more strings than it has (409).
        response: { 200: registerTemplateApplyAnswer, ...problems(409) },
      },
    },
    (request) => service.apply(actorOf(request), request.params.id, request.body),
  );
  return Promise.resolve();
};
