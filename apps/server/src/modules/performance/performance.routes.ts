import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParam,
  plantModelAnswer,
  plantModelBody,
  plantModelFitAnswer,
  plantModelFitBody,
  plantPerformanceAnswer,
  plantPerformanceQuery,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { PerformanceService } from './performance.service';

/**
 * A plant's degradation and soiling (page `plant`) and its expected-power model parameters (page
 * `plant_management`): docs/performance.md.
 */
export const performanceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new PerformanceService(ctx);
  const tags = ['plants'];

  app.get(
    '/plants/:id/performance',
    {
      config: { access: access.to('plant', 'view') },
      schema: {
        tags,
        summary: "A plant's degradation rate, soiling ratio and loss, and the cleaning payback",
        operationId: 'getPlantPerformance',
        description:
          'Reads the finished days of up to five years. Degradation: year-on-year median on the daily temperature-corrected normalised energy with a 68.2 % bootstrap interval (RdTools degradation_year_on_year), per plant and per inverter, or `insufficient_data` with the span found when under two years. Soiling: simplified stochastic rate and recovery (RdTools soiling_srr) with 95 % Monte-Carlo intervals; loss = Σ expected × (1 − ratio) over the intervals whose decline is significant (slope interval below 0, Bonferroni over the intervals, and a decline at least the recovery threshold); `not_detected` when none is, `insufficient_data` with too few usable days; each states its span and usable days. With `from` and `to` (local dates, both or neither) `soiling_period` answers the loss over those days with its interval, or why there is none. Days without energy, under 90 % complete, or with impossible energy are left out and counted in `excluded_days`. `model_source` says which parameters the expected energy used.',
        params: idParam,
        querystring: plantPerformanceQuery,
        response: { 200: plantPerformanceAnswer },
      },
    },
    (request) => service.performance(actorOf(request), request.params.id, request.query),
  );

  app.get(
    '/plants/:id/model',
    {
      config: { access: access.to('plant_management', 'view') },
      schema: {
        tags,
        summary: "A plant's expected-power model parameters, their origin and uncertainty",
        operationId: 'getPlantModel',
        params: idParam,
        response: { 200: plantModelAnswer },
      },
    },
    (request) => service.model(actorOf(request), request.params.id),
  );

  app.put(
    '/plants/:id/model',
    {
      config: { access: access.to('plant_management', 'update') },
      schema: {
        tags,
        summary: "Enter a plant's model parameters from its design, and its cleaning cost (audited)",
        operationId: 'savePlantModel',
        description:
          'The design loss factors and inverter efficiency become one lumped loss 1 − Π(1 − lᵢ)·η_inv that, with γ, the KPIs use from then on; `design: null` keeps the parameters and saves the cleaning cost and energy price alone.',
        params: idParam,
        body: plantModelBody,
        response: { 200: plantModelAnswer },
      },
    },
    (request) => service.saveModel(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/plants/:id/model/fit',
    {
      config: { access: access.to('plant_management', 'update') },
      schema: {
        tags,
        summary: "Fit a plant's system loss and γ on the clear days of a period (audited)",
        operationId: 'fitPlantModel',
        description:
          "Least squares of the PVWatts model, linear in (1 − L) and (1 − L)·γ, on the clear, unclipped, complete days of [from, to] (at most 366 days); the fitted values and their standard errors become the KPIs' parameters. With fewer than 5 clear days nothing changes and the answer says how many were found.",
        params: idParam,
        body: plantModelFitBody,
        response: { 200: plantModelFitAnswer },
      },
    },
    (request) => service.fit(actorOf(request), request.params.id, request.body),
  );
  return Promise.resolve();
};
