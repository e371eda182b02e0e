import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { E, streamConnectionParam, streamSubscriptionAnswer, streamSubscriptionBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { scopeOf } from '../../lib/scope';
import { access, bearerToken, callerOf } from '../../plugins/auth';
import { sendProblem } from '../../plugins/errors';
import { problems } from '../../plugins/openapi';
import { sessionKeyOf, type StreamSink } from './stream.hub';
import { StreamService } from './stream.service';

/**
 * GET /api/stream (Server-Sent Events read with fetch, so the bearer token travels in the header, never
 * in the URL) and POST /api/stream/{connection_id}/subscriptions.
 */
export const streamRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const hub = ctx.stream;
  const service = new StreamService(ctx, hub);
  const tags = ['stream'];

  app.get(
    '/stream',
    {
      // A connection alone reveals nothing: it carries events the owner may see (subscriptions are checked).
      config: { access: access.authenticated() },
      schema: {
        operationId: 'openStream',
        tags,
        summary:
          'Live push as Server-Sent Events: hello, latest, alarm, resync; a heartbeat comment every 15 s',
        response: {
          200: {
            description:
              'An endless `text/event-stream`; ask for it with `Accept: text/event-stream`. `resync` says that the node may have missed events of other nodes: re-read the alarm list; the latest values follow as `latest`.',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          ...problems(406, 429),
        },
      },
    },
    async (request, reply) => {
      // Only a client that asks for an event stream gets one (a plain call must not hang open).
      if (!/\btext\/event-stream\b/.test(request.headers.accept ?? '')) {
        return sendProblem(reply, 406, E.badRequest);
      }
      const caller = callerOf(request);
      const claims = await ctx.tokens.verify(bearerToken(request.headers.authorization) ?? '');
      if (!claims) return sendProblem(reply, 401, E.unauthorized);
      if (!hub.canOpen(caller.userId)) {
        void reply.header('retry-after', '30');
        return sendProblem(reply, 429, E.tooManyRequests);
      }
      const raw = reply.raw;
      reply.hijack();
      // The headers hooks set (security headers, the anti-forgery cookie) go out with the stream's own.
      const hooked = Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined);
      raw.writeHead(200, {
        ...(Object.fromEntries(hooked) as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const sink: StreamSink = {
        write: (chunk) => raw.write(chunk),
        onceDrain: (callback) => raw.once('drain', callback),
        end: () => raw.end(),
      };
      const id = hub.open(
        {
          userId: caller.userId,
          roleId: caller.roleId,
          scope: scopeOf(caller),
          sessionKey: sessionKeyOf({ ...caller, tokenVersion: claims.version }),
          can: (page, method) => caller.can(page, method),
          tokenIat: claims.iat,
          tokenExp: claims.exp,
        },
        sink,
      );
      raw.on('close', () => hub.close(id));
      raw.on('error', () => hub.close(id));
    },
  );

  app.post(
    '/stream/:connection_id/subscriptions',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Choose the signals a live stream carries',
        operationId: 'subscribeStream',
        tags,
        params: streamConnectionParam,
        body: streamSubscriptionBody,
        response: { 200: streamSubscriptionAnswer },
      },
    },
    async (request) => ({
      signal_ids: await service.subscribe(
        actorOf(request),
        request.params.connection_id,
        request.body.signal_ids,
      ),
    }),
  );
  return Promise.resolve();
};
