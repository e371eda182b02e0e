import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_EXPORT_MAX_ROWS, auditExportQuery, auditList, auditListQuery } from '@solar/shared';
import type { AppContext } from '../../context';
import { access } from '../../plugins/auth';
import { auditCsv } from './audit-csv';
import { exportAudit, listAudit } from './audit.repository';

/**
 * GET /api/audit: the change log, and its CSV download from the admin panel; the administrator's alone
 * (the admin_panel pair is not enough).
 */
export const auditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/audit',
    {
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary: 'List the change log (administrator only)',
        operationId: 'listAudit',
        tags: ['audit'],
        querystring: auditListQuery,
        response: { 200: auditList },
      },
    },
    (request) => listAudit(ctx.db, request.query),
  );

  app.get(
    '/admin/audit/export',
    {
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary: 'Download the audit log as CSV (administrator only)',
        operationId: 'exportAudit',
        tags: ['admin'],
        description: `The filters of GET /api/audit; the newest ${AUDIT_EXPORT_MAX_ROWS} rows at most. UTF-8 with a byte order mark; text that a spreadsheet would run as a formula is prefixed with an apostrophe.`,
        querystring: auditExportQuery,
        response: {
          200: {
            description: 'The log as a CSV attachment.',
            content: { 'text/csv': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const rows = await exportAudit(ctx.db, request.query, AUDIT_EXPORT_MAX_ROWS);
      const day = new Date(ctx.now()).toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .send(auditCsv(rows));
    },
  );
  return Promise.resolve();
};
