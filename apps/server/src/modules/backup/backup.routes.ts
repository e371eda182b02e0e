import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemInfoAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import { access } from '../../plugins/auth';
import { binaryFile, problems } from '../../plugins/openapi';
import { BackupService } from './backup.service';

/** The admin panel's system state and database backup: the administrator's alone (docs/operations-backup.md). */
export const backupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const backup = new BackupService(ctx);
  const tags = ['admin'];

  app.get(
    '/admin/system',
    {
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary: 'Version, database, migration state and how to back up (administrator only)',
        operationId: 'getSystemInfo',
        tags,
        response: { 200: systemInfoAnswer },
      },
    },
    () => backup.systemInfo(),
  );

  app.get(
    '/admin/backup',
    {
      config: { access: access.admin('admin_panel', 'view') },
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
    async (_request, reply) => {
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
