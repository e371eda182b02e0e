import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { co2CountryParam, co2FactorBody, co2FactorItem, co2FactorList } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';

/**
 * The grid emission factors the CO₂-avoided KPI uses (admin panel): the administrator's overrides of the
 * built-in table (engine/co2.ts), kept with the other settings in `ctx.settings` so every node reads them.
 */
export const co2FactorsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const tags = ['admin'];

  app.get(
    '/admin/co2-factors',
    {
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary:
          "The grid emission factors by country: built-in and the admin's overrides (administrator only)",
        operationId: 'listCo2Factors',
        tags,
        description:
          "A plant's CO₂ avoided = its energy × the factor of its country (from its time zone): the admin's override for the country, else the built-in one, else the override of DEFAULT, else the built-in DEFAULT.",
        response: { 200: co2FactorList },
      },
    },
    () => ctx.settings.co2Factors(),
  );
  app.post(
    '/admin/co2-factors/:country',
    {
      config: { access: access.admin('admin_panel', 'update') },
      schema: {
        summary: "Set a country's grid emission factor, overriding the built-in one (administrator only)",
        operationId: 'saveCo2Factor',
        tags,
        description:
          '`country` is an ISO 3166-1 alpha-2 code or DEFAULT. The KPIs use the factor from their next answer; stored days are recomputed when next read.',
        params: co2CountryParam,
        body: co2FactorBody,
        response: { 200: co2FactorItem },
      },
    },
    (request) => ctx.settings.saveCo2Factor(actorOf(request), request.params.country, request.body),
  );
  app.delete(
    '/admin/co2-factors/:country',
    {
      config: { access: access.admin('admin_panel', 'update') },
      schema: {
        summary: "Remove a country's override: its built-in factor (or DEFAULT) applies again",
        operationId: 'removeCo2Factor',
        tags,
        params: co2CountryParam,
        response: { 204: noContent, ...problems(404) },
      },
    },
    async (request, reply) => {
      await ctx.settings.removeCo2Factor(actorOf(request), request.params.country);
      return reply.code(204).send();
    },
  );
  return Promise.resolve();
};
