import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminSessionList, idParam, revokeSessionsAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access, callerOf } from '../../plugins/auth';
import { SessionsAdminService } from './sessions.service';

/**
 * The admin panel's Sessions tab (page `admin_panel`; docs/operations.md, "Sessions"): list live sessions,
 * revoke a user's.
 */
export const adminSessionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new SessionsAdminService(ctx);
  const tags = ['admin'];

  app.get(
    '/admin/sessions',
    {
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary: 'The signed-in sessions of every user (administrator only)',
        operationId: 'listSessions',
        tags,
        description:
          'Sessions that are not expired and not ended by a password change, a deactivation or a revocation; most recently used first. last_seen_at is written at most once a minute.',
        response: { 200: adminSessionList },
      },
    },
    (request) => service.list(callerOf(request).sessionId),
  );

  app.post(
    '/admin/users/:id/revoke-sessions',
    {
      config: { access: access.admin('admin_panel', 'update') },
      schema: {
        summary: "End all of a user's sessions and live streams (administrator only)",
        operationId: 'revokeUserSessions',
        tags,
        params: idParam,
        response: { 200: revokeSessionsAnswer },
      },
    },
    (request) => service.revokeAll(actorOf(request), request.params.id),
  );
  return Promise.resolve();
};
