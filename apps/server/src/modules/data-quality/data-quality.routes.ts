import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataQualityAcceptBody,
  dataQualityAnswer,
  dataQualityFlagSchema,
  dataQualityProblemList,
  dataQualityProblemsQuery,
  dataQualityQuery,
  dataQualityRecheckAnswer,
  dataQualityRecheckBody,
  idParam,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { DataQualityService } from './data-quality.service';

/**
 * The data-quality flags (docs/data-quality.md, "Engine and API"): a plant's and a device's flags where
 * their pages show them (the plant page; the inverter page, which is the dashboard's), the fleet's open
 * problems in the admin panel's collection health, acceptance and a rerun of a day by those who may
 * update plants.
 */
export const dataQualityRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new DataQualityService(ctx);
  const tags = ['data-quality'];

  app.get(
    '/plants/:id/data-quality',
    {
      config: { access: access.toAny(['plant', 'dashboard'], 'view') },
      schema: {
        summary: "A plant's data-quality flags and their summary over local days",
        operationId: 'getPlantDataQuality',
        tags,
        params: idParam,
        querystring: dataQualityQuery,
        response: { 200: dataQualityAnswer },
      },
    },
    (request) => service.plant(actorOf(request), request.params.id, request.query),
  );

  app.get(
    '/devices/:id/data-quality',
    {
      config: { access: access.toAny(['dashboard', 'plant'], 'view') },
      schema: {
        summary: "A device's data-quality flags and their summary over its plant's local days",
        operationId: 'getDeviceDataQuality',
        tags,
        params: idParam,
        querystring: dataQualityQuery,
        response: { 200: dataQualityAnswer },
      },
    },
    (request) => service.device(actorOf(request), request.params.id, request.query),
  );

  app.get(
    '/data-quality/problems',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: "The fleet's open data problems, newest first",
        operationId: 'listDataQualityProblems',
        tags,
        querystring: dataQualityProblemsQuery,
        response: { 200: dataQualityProblemList },
      },
    },
    (request) => service.problems(actorOf(request), request.query),
  );

  app.post(
    '/data-quality/flags/:id/accept',
    {
      config: { access: access.to('plant', 'update') },
      schema: {
        summary: 'Accept a data-quality flag (the data is right after all), audited',
        operationId: 'acceptDataQualityFlag',
        tags,
        params: idParam,
        body: dataQualityAcceptBody,
        response: { 200: dataQualityFlagSchema, ...problems(409) },
      },
    },
    (request) => service.accept(actorOf(request), request.params.id, request.body.note),
  );

  app.post(
    '/plants/:id/data-quality/recheck',
    {
      config: { access: access.to('plant', 'update') },
      schema: {
        summary: "Run the data-quality engine over a plant's local day again",
        operationId: 'recheckPlantDataQuality',
        tags,
        params: idParam,
        body: dataQualityRecheckBody,
        response: { 200: dataQualityRecheckAnswer },
      },
    },
    (request) => service.recheck(actorOf(request), request.params.id, request.body.day),
  );
  return Promise.resolve();
};
