import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUDIT_EXPORT_MAX_ROWS,
  adminIngestKeyList,
  auditExportQuery,
  co2CountryParam,
  co2FactorBody,
  co2FactorItem,
  co2FactorList,
  collectionHealthAnswer,
  idParam,
  LOGO_MAX_BYTES,
  logoAnswer,
  logoBody,
  publicSettingsAnswer,
  systemInfoAnswer,
  systemSettingsAnswer,
  systemSettingsBody,
  testMailAnswer,
  testMailBody,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { notFound } from '../../lib/http-errors';
import { access } from '../../plugins/auth';
import { binaryFile, noContent, notModified, problems } from '../../plugins/openapi';
import { exportAudit } from '../audit/audit.repository';
import { AdminService, adminOnly } from './admin.service';
import { auditCsv } from './audit-csv';
import { BackupService } from './backup.service';

/**
 * The logo is shown as an image only: no script, no plugin, no framing, and never read as another type
 * (a PNG with HTML after its end stays a PNG).
 */
const LOGO_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
};

/**
 * The admin panel's API (page `admin_panel`). Settings, the audit export, the system state and
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
        summary: 'The site name, default language and logo (no sign-in)',
        operationId: 'getPublicSettings',
        tags,
        response: { 200: publicSettingsAnswer },
      },
    },
    () => ctx.settings.publicView(),
  );

  app.get(
    '/settings/logo',
    {
      config: { access: access.public() },
      schema: {
        summary: "The site's logo (no sign-in: the login page shows it)",
        operationId: 'getSiteLogo',
        tags,
        description:
          "Read from the database on every call, so that every node serves the logo saved on any of them. With `v` equal to the logo's ETag (the `logo_url` of GET /api/settings/public) the answer may be cached for a year; otherwise it is revalidated each time (`If-None-Match` answers 304).",
        querystring: z.object({ v: z.string().max(64).optional() }),
        response: {
          200: {
            description: 'The logo, a PNG, JPEG or WebP checked by its bytes when it was saved.',
            content: {
              'image/png': { schema: binaryFile },
              'image/jpeg': { schema: binaryFile },
              'image/webp': { schema: binaryFile },
            },
          },
          304: notModified,
          ...problems(404),
        },
      },
    },
    async (request, reply) => {
      const meta = await ctx.settings.storedLogo();
      if (!meta) throw notFound();
      const etag = `"${meta.etag}"`;
      void reply
        .headers(LOGO_HEADERS)
        .header('etag', etag)
        .header(
          'cache-control',
          request.query.v === meta.etag ? 'public, max-age=31536000, immutable' : 'public, no-cache',
        );
      const match = request.headers['if-none-match'];
      if (match !== undefined && match.split(/\s*,\s*/).some((tag) => tag === etag || tag === `W/${etag}`))
        return reply.code(304).send();
      // Saved between the two reads: the bytes and their type are read together, the ETag is theirs.
      const logo = await ctx.settings.logoFile();
      if (!logo) throw notFound();
      return reply.header('etag', `"${logo.etag}"`).type(logo.content_type).send(logo.data);
    },
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
    '/admin/settings/logo',
    {
      config: { access: access.to('admin_panel', 'update') },
      // base64 of the largest logo and the JSON around it; more is refused before it is read.
      bodyLimit: 2 * LOGO_MAX_BYTES,
      schema: {
        summary:
          "Save the site's logo (administrator only); shown at once in the header and on the login page",
        operationId: 'saveSiteLogo',
        tags,
        description: `A PNG, JPEG or WebP of at most ${LOGO_MAX_BYTES} bytes, base64 in JSON. The type is read from the bytes; the file's name and declared type are not asked for. Anything else (SVG included: it can carry script) answers 400 \`errors.logoType\`; a larger file 400 \`errors.logoTooLarge\`.`,
        body: logoBody,
        response: { 200: logoAnswer, ...problems(413) },
      },
    },
    (request) => ctx.settings.saveLogo(actorOf(request), request.body.content_base64),
  );

  app.delete(
    '/admin/settings/logo',
    {
      config: { access: access.to('admin_panel', 'update') },
      schema: {
        summary: "Remove the site's logo (administrator only); the built-in mark shows again",
        operationId: 'removeSiteLogo',
        tags,
        response: { 204: noContent, ...problems(404) },
      },
    },
    async (request, reply) => {
      await ctx.settings.removeLogo(actorOf(request));
      return reply.code(204).send();
    },
  );

  app.get(
    '/admin/co2-factors',
    {
      config: { access: access.to('admin_panel', 'view') },
      schema: {
        summary:
          "The grid emission factors by country: built-in and the admin's overrides (administrator only)",
        operationId: 'listCo2Factors',
        tags,
        description:
          "A plant's CO₂ avoided = its energy × the factor of its country (from its time zone): the admin's override for the country, else the built-in one, else the override of DEFAULT, else the built-in DEFAULT.",
        response: { 200: co2FactorList },
      },
    },
    (request) => ctx.settings.co2Factors(actorOf(request)),
  );

  app.post(
    '/admin/co2-factors/:country',
    {
      config: { access: access.to('admin_panel', 'update') },
      schema: {
        summary: "Set a country's grid emission factor, overriding the built-in one (administrator only)",
        operationId: 'saveCo2Factor',
        tags,
        description:
          '`country` is an ISO 3166-1 alpha-2 code or DEFAULT. The KPIs use the factor from their next answer; stored days are recomputed when next read.',
        params: co2CountryParam,
        body: co2FactorBody,
        response: { 200: co2FactorItem },
      },
    },
    (request) => ctx.settings.saveCo2Factor(actorOf(request), request.params.country, request.body),
  );

  app.delete(
    '/admin/co2-factors/:country',
    {
      config: { access: access.to('admin_panel', 'update') },
      schema: {
        summary: "Remove a country's override: its built-in factor (or DEFAULT) applies again",
        operationId: 'removeCo2Factor',
        tags,
        params: co2CountryParam,
        response: { 204: noContent, ...problems(404) },
      },
    },
    async (request, reply) => {
      await ctx.settings.removeCo2Factor(actorOf(request), request.params.country);
      return reply.code(204).send();
    },
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
        // 429: the recipient's mails of the day are used up (lib/mail-budget.ts).
        response: { 200: testMailAnswer, ...problems(429, 502) },
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
