import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  companyRegisterTemplateBody,
  idParam,
  registerTemplateApplyAnswer,
  registerTemplateApplyBody,
  registerTemplateCheckAnswer,
  registerTemplateCompanyQuery,
  registerTemplateEntry,
  registerTemplateSchema,
  registerTemplatesAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { DeviceFailure, RegisterTemplatesService } from './register-templates.service';

/** The reason a device could not be read goes to the log; the client only ever sees the one 502. */
function logFailure(log: FastifyBaseLogger, deviceId: number) {
  return (error: unknown): never => {
    if (error instanceof DeviceFailure) {
      const reason = error.reason instanceof Error ? error.reason.message : String(error.reason);
      log.warn({ deviceId, reason }, 'register template check: device not read');
    }
    throw error;
  };
}

/**
 * GET/POST /api/register-templates, GET/PUT/DELETE /api/register-templates/{id} (a company's own, exported
 * and imported as the JSON file), POST /api/devices/{id}/register-template and …/register-template/check.
 */
export const registerTemplatesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new RegisterTemplatesService(ctx);
  const tags = ['register-templates'];
  const permission = access.to('device_management', 'update');

  app.get(
    '/register-templates',
    {
      config: { access: permission },
      schema: {
        summary: 'List the shipped register-map templates and the company’s own',
        operationId: 'listRegisterTemplates',
        tags,
        response: { 200: registerTemplatesAnswer },
      },
    },
    (request) => service.list(actorOf(request)),
  );

  app.get(
    '/register-templates/:id',
    {
      config: { access: permission },
      schema: {
        summary: 'Export a company register-map template as its JSON file',
        operationId: 'exportRegisterTemplate',
        tags,
        params: idParam,
        response: { 200: registerTemplateSchema },
      },
    },
    async (request, reply) => {
      const template = await service.get(actorOf(request), request.params.id);
      return reply.header('content-disposition', `attachment; filename="${template.id}.json"`).send(template);
    },
  );

  app.post(
    '/register-templates',
    {
      config: { access: access.to('device_management', 'create') },
      schema: {
        summary: 'Create or import a company register-map template (the exported JSON file)',
        operationId: 'createRegisterTemplate',
        tags,
        querystring: registerTemplateCompanyQuery,
        body: companyRegisterTemplateBody,
        // Its id is a shipped template's or another of the company's (409).
        response: { 200: registerTemplateEntry, ...problems(409) },
      },
    },
    (request) => service.save(actorOf(request), 0, request.body, request.query.company_id),
  );

  app.put(
    '/register-templates/:id',
    {
      config: { access: permission },
      schema: {
        summary: 'Change a company register-map template',
        operationId: 'updateRegisterTemplate',
        tags,
        params: idParam,
        body: companyRegisterTemplateBody,
        response: { 200: registerTemplateEntry, ...problems(409) },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body, undefined),
  );

  app.delete(
    '/register-templates/:id',
    {
      config: { access: access.to('device_management', 'delete') },
      schema: {
        summary: 'Delete a company register-map template (signals made from it stay)',
        operationId: 'deleteRegisterTemplate',
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
        // Not a Modbus device, or not of the template's device type (409).
        response: { 200: registerTemplateApplyAnswer, ...problems(409) },
      },
    },
    (request) => service.apply(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/devices/:id/register-template/check',
    {
      config: { access: permission },
      schema: {
        summary: 'Read each register a template maps once from the device and judge it',
        operationId: 'checkRegisterTemplate',
        tags,
        params: idParam,
        body: registerTemplateApplyBody,
        // Not a Modbus device or of another type (409); the device not read, for any reason (502).
        response: { 200: registerTemplateCheckAnswer, ...problems(409, 502) },
      },
    },
    (request) =>
      service
        .check(actorOf(request), request.params.id, request.body)
        .catch(logFailure(request.log, request.params.id)),
  );
  return Promise.resolve();
};
