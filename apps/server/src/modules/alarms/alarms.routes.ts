import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activeAlarmCounts,
  alarmApproveAnswer,
  alarmIdParam,
  alarmList,
  alarmListenAnswer,
  alarmListenQuery,
  alarmListQuery,
  alarmPage,
  alarmSchema,
  customAlarmBody,
  customAlarmList,
  customAlarmSchema,
  idParam,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { noContent, problems } from '../../plugins/openapi';
import { AlarmsService } from './alarms.service';

/**
 * Alarms (spec call table): GET alarms, GET alarms/{id}/plant, POST alarms/{id}/fault (approve),
 * POST alarms/{id}/reject, GET alarms/listen, GET alarms/substationAlarms (page `alarm`), and the custom
 * rules GET/POST/DELETE alarms/custom[/{id}] (page `dashboard`, like /customized-alarms).
 */
export const alarmsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new AlarmsService(ctx);
  const tags = ['alarms'];

  app.get(
    '/alarms',
    {
      config: { access: access.to('alarm', 'view') },
      schema: {
        summary: 'List alarms',
        operationId: 'listAlarms',
        tags,
        description:
          'Newest first. Without page/pageSize: the plain list (at most 1,000 alarms); with either: { items, total }.',
        querystring: alarmListQuery,
        response: { 200: z.union([alarmList, alarmPage]) },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/alarms/:id/plant',
    {
      config: { access: access.to('alarm', 'view') },
      schema: {
        summary: 'List the alarms of a plant',
        operationId: 'listPlantAlarms',
        tags,
        description: 'Alarms of the plant with this id.',
        params: alarmIdParam,
        response: { 200: alarmList },
      },
    },
    (request) => service.ofPlant(actorOf(request), request.params.id),
  );

  app.post(
    '/alarms/:id/fault',
    {
      config: { access: access.to('alarm', 'update') },
      schema: {
        summary: 'Approve an alarm into a fault',
        operationId: 'approveAlarm',
        tags,
        description: 'Approves the alarm and creates a fault from it; a second approval answers 409.',
        params: alarmIdParam,
        response: { 200: alarmApproveAnswer, ...problems(409) },
      },
    },
    (request) => service.approve(actorOf(request), request.params.id),
  );

  app.post(
    '/alarms/:id/reject',
    {
      config: { access: access.to('alarm', 'update') },
      schema: {
        summary: 'Reject an alarm',
        operationId: 'rejectAlarm',
        tags,
        params: alarmIdParam,
        response: { 200: alarmSchema, ...problems(409) },
      },
    },
    (request) => service.reject(actorOf(request), request.params.id),
  );

  app.get(
    '/alarms/listen',
    {
      config: { access: access.to('alarm', 'view') },
      schema: {
        summary: 'Alarm events after a cursor',
        operationId: 'listenAlarms',
        tags,
        description:
          'Alarm events after the cursor (oldest first) and the cursor to pass next; without a cursor the newest events.',
        querystring: alarmListenQuery,
        response: { 200: alarmListenAnswer },
      },
    },
    (request) => service.listen(actorOf(request), request.query.cursor, request.query.limit),
  );

  app.get(
    '/alarms/activeCounts',
    {
      config: { access: access.to('alarm', 'view') },
      schema: {
        summary: 'Count the active alarms',
        operationId: 'countActiveAlarms',
        tags,
        description:
          "Alarms whose condition still holds (acknowledged or not) in the caller's scope, by priority; never cached.",
        response: { 200: activeAlarmCounts },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.activeCounts(actorOf(request));
    },
  );

  app.get(
    '/alarms/substationAlarms',
    {
      config: { access: access.to('alarm', 'view') },
      schema: {
        summary: 'Active alarms of substation devices',
        operationId: 'listSubstationAlarms',
        tags,
        description: 'Active alarms of transformers, protection relays and meters; never cached.',
        response: { 200: alarmList },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.substation(actorOf(request));
    },
  );

  app.get(
    '/alarms/custom',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'List custom alarm rules',
        operationId: 'listCustomAlarms',
        tags,
        response: { 200: customAlarmList },
      },
    },
    (request) => service.listRules(actorOf(request)),
  );

  app.get(
    '/alarms/custom/:id',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Get a custom alarm rule',
        operationId: 'getCustomAlarm',
        tags,
        params: alarmIdParam,
        response: { 200: customAlarmSchema },
      },
    },
    (request) => service.getRule(actorOf(request), request.params.id),
  );

  app.post(
    '/alarms/custom/:id',
    {
      config: { access: access.to('dashboard', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a custom alarm rule',
        operationId: 'saveCustomAlarm',
        tags,
        params: idParam,
        body: customAlarmBody,
        response: { 200: customAlarmSchema },
      },
    },
    (request) => service.saveRule(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/alarms/custom/:id',
    {
      config: { access: access.to('dashboard', 'delete') },
      schema: {
        summary: 'Delete a custom alarm rule',
        operationId: 'deleteCustomAlarm',
        tags,
        params: alarmIdParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await service.removeRule(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
  return Promise.resolve();
};
