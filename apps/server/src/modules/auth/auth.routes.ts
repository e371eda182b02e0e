import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginBody,
  okAnswer,
  resetCheckAnswer,
  resetCheckBody,
  resetPasswordBody,
  resetRequestBody,
  tokenAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { DEVICE_COOKIE_MAX_AGE_S, DEVICE_COOKIE_PATH } from '../../lib/device-cookie';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { AuthService } from './auth.service';

/** Sign-in and the password reset by mail (spec §7); all public. */
export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new AuthService(ctx, app.log);
  const tags = ['auth'];

  app.post(
    '/users/login',
    {
      config: { access: access.public() },
      schema: {
        summary: 'Sign in with email and password',
        operationId: 'login',
        tags,
        body: loginBody,
        response: { 200: tokenAnswer, ...problems(401, 429) },
      },
    },
    async (request, reply) => {
      const { token, deviceCookie } = await service.login(
        request.body,
        request.ip,
        request.cookies,
        request.headers['user-agent'],
      );
      // Signed (HMAC) and HttpOnly: scripts cannot read it, and only this server can make one.
      void reply.setCookie(deviceCookie.name, deviceCookie.value, {
        path: DEVICE_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.config.cookieSecure,
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
      });
      return { token };
    },
  );

  app.post(
    '/users/resetpasswordrequest',
    {
      config: { access: access.public() },
      schema: {
        summary: 'Mail a password reset link',
        operationId: 'requestPasswordReset',
        tags,
        body: resetRequestBody,
        response: { 200: okAnswer, ...problems(429) },
      },
    },
    (request) => service.requestReset(request.body.email, request.ip),
  );

  app.post(
    '/users/checkresetpasswordrequest',
    {
      config: { access: access.public() },
      schema: {
        summary: 'Check that a password reset link is valid',
        operationId: 'checkPasswordReset',
        tags,
        body: resetCheckBody,
        response: { 200: resetCheckAnswer },
      },
    },
    (request) => service.checkReset(request.body.guid),
  );

  app.post(
    '/users/resetpassword',
    {
      config: { access: access.public() },
      schema: {
        summary: 'Set a new password with a reset link',
        operationId: 'resetPassword',
        tags,
        body: resetPasswordBody,
        response: { 200: okAnswer },
      },
    },
    (request) => service.resetPassword(request.body.guid, request.body.password, request.ip),
  );
  return Promise.resolve();
};
