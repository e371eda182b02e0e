import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUDIT_EXPORT_MAX_ROWS,
  adminIngestKeyList,
  auditExportQuery,
  collectionHealthAnswer,
  idParam,
  publicSettingsAnswer,
  systemInfoAnswer,
  systemSettingsAnswer,
  systemSettingsBody,
  testMailAnswer,
  testMailBody,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { binaryFile, noContent, problems } from '../../plugins/openapi';
import { exportAudit } from '../audit/audit.repository';
import { AdminService, adminOnly } from './admin.service';
import { auditCsv } from './audit-csv';
import { BackupService } from './backup.service';
import { publicSettingsView } from './settings';

/**
 * The admin panel's API (page `admin_panel`, issue 13). Settings, the audit export, the system state and
 * the backup are the administrator's alone; collection health and ingest keys are scoped, so a company
 * user given the page sees their own company's devices.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new AdminService(ctx);
  const backup = new BackupService(ctx);
  const tags = ['admin'];

  app.get(
    '/settings/public',
    {
      config: { access: access.public() },
      schema: {
        summary: 'The site name and default language (no sign-in)',
        operationId: 'getPublicSettings',
        tags,
        response: { 200: publicSettingsAnswer },
      },
    },
    () => publicSettingsView(ctx.settings.current()),
  );

  app.get(
    '/admin/settings',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'The system settings in force (administrator only)',
        operationId: 'getSystemSettings',
        tags,
        response: { 200: systemSettingsAnswer },
      },
    },
    (request) => {
      adminOnly(actorOf(request));
      return ctx.settings.view();
    },
  );

  app.post(
    '/admin/settings',
    {
      config: { access: access.to('admin_panel', 'update') },
      schema: {
        summary: 'Save the system settings (administrator only); they apply without a restart',
        operationId: 'saveSystemSettings',
        tags,
        body: systemSettingsBody,
        response: { 200: systemSettingsAnswer },
      },
    },
    (request) => ctx.settings.save(actorOf(request), request.body),
  );

  app.post(
    '/admin/settings/test-mail',
    {
      config: { access: access.to('admin_panel', 'update') },
      schema: {
        summary: 'Send a test mail with the mail settings in force (administrator only)',
        operationId: 'sendTestMail',
        tags,
        body: testMailBody,
        response: { 200: testMailAnswer, ...problems(502) },
      },
    },
    (request) => service.testMail(actorOf(request), request.body.to),
  );

  app.get(
    '/admin/audit/export',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'Download the audit log as CSV (administrator only)',
        operationId: 'exportAudit',
        tags,
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
      adminOnly(actorOf(request));
      const rows = await exportAudit(ctx.db, request.query, AUDIT_EXPORT_MAX_ROWS);
      const day = new Date(ctx.now()).toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .send(auditCsv(rows));
    },
  );

  app.get(
    '/admin/collection-health',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'Data collection health per device, problems first',
        operationId: 'getCollectionHealth',
        tags,
        response: { 200: collectionHealthAnswer },
      },
    },
    (request) => service.collectionHealth(actorOf(request)),
  );

  app.get(
    '/admin/ingest-keys',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'The live ingest keys of the fleet (prefix only)',
        operationId: 'listAdminIngestKeys',
        tags,
        response: { 200: adminIngestKeyList },
      },
    },
    (request) => service.ingestKeys(actorOf(request)),
  );

  app.delete(
    '/admin/ingest-keys/:id',
    {
      config: { access: access.to('admin_panel', 'delete') },
      schema: {
        summary: 'Revoke an ingest key',
        operationId: 'revokeAdminIngestKey',
        tags,
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await service.revokeKey(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/admin/system',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'Version, database, migration state and how to back up (administrator only)',
        operationId: 'getSystemInfo',
        tags,
        response: { 200: systemInfoAnswer },
      },
    },
    (request) => {
      adminOnly(actorOf(request));
      return backup.systemInfo();
    },
  );

  app.get(
    '/admin/backup',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary: 'Download an online backup of the SQLite database (administrator only)',
        operationId: 'downloadBackup',
        tags,
        description:
          'A consistent copy made while the console runs (SQLite backup API). On PostgreSQL it answers 409: use the pg_dump command of GET /api/admin/system. Restore: docs/operations-backup.md.',
        response: {
          200: {
            description: 'The database file as an attachment.',
            content: { 'application/vnd.sqlite3': { schema: binaryFile } },
          },
          ...problems(409),
        },
      },
    },
    async (request, reply) => {
      adminOnly(actorOf(request));
      const file = await backup.sqliteBackup();
      const stream = createReadStream(file);
      // Removed once sent, or once the download is abandoned.
      stream.on('close', () => void backup.discard(file));
      const stamp = new Date(ctx.now()).toISOString().replace(/[:.]/g, '-').slice(0, 19);
      return (
        reply
          .type('application/vnd.sqlite3')
          .header('content-disposition', `attachment; filename="solar-${stamp}.db"`)
          // A stream is sent as is (never serialised); the schema's Buffer type only describes the bytes.
          .send(stream as unknown as Buffer)
      );
    },
  );
  return Promise.resolve();
};
