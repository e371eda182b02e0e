import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditList, auditListQuery } from '@solar/shared';
import type { AppContext } from '../../context';
import { forbidden } from '../../lib/http-errors';
import { access, callerOf } from '../../plugins/auth';
import { listAudit } from './audit.repository';

/** GET /api/audit: the change log, for the admin only (the admin_panel pair alone is not enough). */
export const auditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/audit',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'List the change log (administrator only)',
        operationId: 'listAudit',
        tags: ['audit'],
        querystring: auditListQuery,
        response: { 200: auditList },
      },
    },
    async (request) => {
      if (!callerOf(request).isAdmin) throw forbidden();
      return listAudit(ctx.db, request.query);
    },
  );
  return Promise.resolve();
};
