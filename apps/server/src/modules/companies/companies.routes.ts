import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyBody, companyList, companyListQuery, companySchema, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { CompaniesService } from './companies.service';

/** GET/POST/DELETE /api/companies (docs/spec-differences.md, resource calls); changes are admin only. */
export const companiesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new CompaniesService(ctx);
  const tags = ['companies'];

  app.get(
    '/companies',
    {
      config: { access: access.to('company_management', 'view') },
      schema: {
        summary: 'List companies',
        operationId: 'listCompanies',
        tags,
        querystring: companyListQuery,
        response: { 200: companyList },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/companies/:id',
    {
      config: { access: access.to('company_management', 'view') },
      schema: {
        summary: 'Get a company',
        operationId: 'getCompany',
        tags,
        params: idParam,
        response: { 200: companySchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/companies/:id',
    {
      config: { access: access.admin('company_management', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a company',
        operationId: 'saveCompany',
        tags,
        params: idParam,
        body: companyBody,
        response: { 200: companySchema },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/companies/:id',
    {
      config: { access: access.admin('company_management', 'delete') },
      schema: {
        summary: 'Delete a company',
        operationId: 'deleteCompany',
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
