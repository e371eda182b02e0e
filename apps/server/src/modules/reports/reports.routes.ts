import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportAnswer, reportQuery, reportTypeParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { z } from 'zod';
import { access } from '../../plugins/auth';
import { binaryFile, problems } from '../../plugins/openapi';
import { buildReport } from './report-data';
import { generateReport } from './report.service';

/**
 * GET reports/{type} (page `report`): production, fleet, alarms, inverters and the yearly degradation, as
 * JSON, XLSX, CSV or PDF.
 */
export const reportsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/reports/:type',
    {
      config: { access: access.to('report', 'view') },
      schema: {
        tags: ['reports'],
        summary: 'A production, fleet, alarm, inverter or degradation report as JSON, XLSX, CSV or PDF',
        operationId: 'getReport',
        description:
          "`from` and `to` are the plants' local dates, both inclusive; no `plant_ids` means every plant in scope (a plant outside it answers 404). Production rows are the plants' days, months or years (`granularity`); every figure is the KPI engine's (GET plants/{id}/kpis) summed over the days, ratios recomputed from the sums, fleet ratios weighted by kWp. The fleet report's expected and actual energy, losses by kind, availability, PR, coverage and `top_loss` are those of GET plants/losses for the same plants and dates (one computation); a negative loss is energy above the model's expectation, which the files write in words (the XLSX keeps the signed number under a number format that says so). Budget: the monthly P50 budget pro rata per day, null when a day of the period has none; weather-corrected budget = budget × measured / budget irradiation. The degradation report gives per plant and per inverter the year-on-year degradation rate with its 68.2 % circular-block-bootstrap interval, pairs and data span (GET plants/{id}/performance's method), computed from up to five years of history ending at `to`, or `insufficient_data` with the span found when it is under two years; and the period's soiling-corrected normalised energy by month. More than 366 days or 80,000 plant-days (a degradation report counts 1,830 days per plant read) answers 400 errors.reportTooLarge. Files are built on a small pool of threads; a user with as many files in the making as one may have (FILE_BUILDS_PER_USER, 2) is answered 429 errors.tooManyFileBuilds with Retry-After. `format` other than json answers the file (Content-Disposition attachment); CSV uses `delimiter` (default: semicolon with a decimal comma for tr_TR, de_DE and mk_MK, comma for en_US), a UTF-8 BOM and quotes text a spreadsheet would run as a formula.",
        params: reportTypeParam,
        querystring: reportQuery,
        response: {
          200: {
            description: 'The report: JSON by default, else the file as an attachment.',
            content: {
              'application/json': { schema: reportAnswer },
              'text/csv': { schema: z.string() },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: binaryFile },
              'application/pdf': { schema: binaryFile },
            },
          },
          ...problems(404, 429),
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (request.query.format === 'json') return buildReport(ctx, actor, request.params.type, request.query);
      const file = await generateReport(ctx, actor, request.params.type, request.query);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.body);
    },
  );
  return Promise.resolve();
};
