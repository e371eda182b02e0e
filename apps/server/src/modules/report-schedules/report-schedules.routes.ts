import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, reportScheduleBody, reportScheduleList, reportScheduleSchema } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { ReportSchedulesService } from './report-schedules.service';

/**
 * GET/POST/DELETE /api/report-schedules: the caller's own report subscriptions. Every call needs view on
 * `report` only: a subscription mails its owner what they may already view and download on /report, and
 * the owners and accountants who receive reports hold no more than that.
 */
export const reportSchedulesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new ReportSchedulesService(ctx);
  const tags = ['report-schedules'];
  const viewReports = access.to('report', 'view');

  app.get(
    '/report-schedules',
    {
      config: { access: viewReports },
      schema: {
        summary: "List the caller's report subscriptions",
        operationId: 'listReportSchedules',
        tags,
        response: { 200: reportScheduleList },
      },
    },
    (request) => service.list(actorOf(request)),
  );

  app.get(
    '/report-schedules/:id',
    {
      config: { access: viewReports },
      schema: {
        summary: 'Get a report subscription',
        operationId: 'getReportSchedule',
        tags,
        params: idParam,
        response: { 200: reportScheduleSchema },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/report-schedules/:id',
    {
      config: { access: viewReports },
      schema: {
        summary: 'Create (id 0) or update a report subscription; is_paused pauses it',
        operationId: 'saveReportSchedule',
        tags,
        params: idParam,
        body: reportScheduleBody,
        // 409: the caller or the company already holds as many subscriptions as allowed.
        response: { 200: reportScheduleSchema, ...problems(409) },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/report-schedules/:id',
    {
      config: { access: viewReports },
      schema: {
        summary: 'Remove a report subscription',
        operationId: 'deleteReportSchedule',
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
  return Promise.resolve();
};
