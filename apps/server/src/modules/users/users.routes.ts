import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  confirmEmailBody,
  dashboardLayoutAnswer,
  dashboardLayoutBody,
  idParam,
  okAnswer,
  passwordBody,
  profileBody,
  userListSchema,
  userSchema,
  userUpsertBody,
  userWithTokenSchema,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access, callerOf } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { UsersService, type UserActor } from './users.service';

function userActorOf(request: FastifyRequest): UserActor {
  const caller = callerOf(request);
  return {
    ...actorOf(request),
    permissions: caller.permissions,
    remember: caller.remember,
    ...(caller.sessionId === undefined ? {} : { sessionId: caller.sessionId }),
    tokenGeneration: caller.tokenGeneration,
    can: (page, method) => caller.can(page, method),
  };
}

/** The users calls of spec §7 (sign-in and reset live in modules/auth). */
export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new UsersService(ctx, app.log);
  const tags = ['users'];

  app.get(
    '/users',
    {
      config: { access: access.to('user_management', 'view') },
      schema: {
        summary: 'List the users in reach',
        operationId: 'listUsers',
        tags,
        response: { 200: userListSchema },
      },
    },
    (request) => service.list(userActorOf(request)),
  );

  app.get(
    '/users/dashboard',
    {
      config: { access: access.authenticated() },
      schema: {
        summary: 'Get the own dashboard layout',
        operationId: 'getDashboardLayout',
        tags,
        response: { 200: dashboardLayoutAnswer },
      },
    },
    (request) => service.getDashboard(userActorOf(request)),
  );

  app.post(
    '/users/dashboard',
    {
      config: { access: access.authenticated() },
      schema: {
        summary: 'Save the own dashboard layout',
        operationId: 'saveDashboardLayout',
        tags,
        body: dashboardLayoutBody,
        response: { 200: okAnswer },
      },
    },
    (request) => service.saveDashboard(userActorOf(request), request.body.data),
  );

  // Own id for anyone signed in; other ids need user_management view (checked by the service).
  app.get(
    '/users/:id',
    {
      config: { access: access.authenticated() },
      schema: {
        summary: 'Get a user, and a fresh token of the caller with current permissions',
        operationId: 'getUser',
        tags,
        params: idParam,
        // Another user's id needs user_management view, checked by the service.
        response: { 200: userWithTokenSchema, ...problems(403) },
      },
    },
    (request) => service.get(userActorOf(request), request.params.id),
  );

  app.post(
    '/users/:id',
    {
      config: { access: access.to('user_management', 'upsert') },
      schema: {
        summary: 'Create (id 0) or update a user',
        operationId: 'saveUser',
        tags,
        params: idParam,
        body: userUpsertBody,
        response: { 200: userSchema, ...problems(409) },
      },
    },
    (request) => service.save(userActorOf(request), request.params.id, request.body),
  );

  app.post(
    '/users/profile/:id',
    {
      config: { access: access.authenticated() },
      schema: {
        summary: 'Update the own profile',
        operationId: 'saveProfile',
        tags,
        params: idParam,
        body: profileBody,
        response: { 200: userSchema, ...problems(409) },
      },
    },
    (request) => service.saveProfile(userActorOf(request), request.params.id, request.body),
  );

  app.post(
    '/users/:id/password',
    {
      config: { access: access.authenticated() },
      schema: {
        summary: 'Change a user’s password',
        operationId: 'changePassword',
        tags,
        params: idParam,
        body: passwordBody,
        response: { 200: okAnswer },
      },
    },
    (request) =>
      service.changePassword(
        userActorOf(request),
        request.params.id,
        request.body.password,
        request.body.current_password,
      ),
  );

  app.post(
    '/users/logout',
    {
      config: { access: access.authenticated() },
      schema: {
        summary: 'Sign out: end the sign-in of the token, which is refused from then on',
        operationId: 'logout',
        tags,
        response: { 200: okAnswer },
      },
    },
    (request) => service.logout(userActorOf(request)),
  );

  app.post(
    '/users/confirm-email',
    {
      config: { access: access.public() },
      schema: {
        summary: 'Confirm a new email address with the link mailed to it',
        operationId: 'confirmEmail',
        tags,
        body: confirmEmailBody,
        response: { 200: okAnswer, ...problems(409) },
      },
    },
    (request) => service.confirmEmail(request.body.token, request.ip),
  );
  return Promise.resolve();
};
