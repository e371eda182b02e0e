import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LOGO_MAX_BYTES,
  logoAnswer,
  logoBody,
  publicSettingsAnswer,
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
import { TestMailService } from './test-mail.service';

/**
 * The logo is shown as an image only: no script, no plugin, no framing, and never read as another type
 * (a PNG with HTML after its end stays a PNG).
 */
const LOGO_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
};

/**
 * The system settings (admin panel, page `admin_panel`): the site name, language, logo and mail settings
 * are the administrator's alone to read and change; the public view and the logo need no sign-in.
 */
export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const testMail = new TestMailService(ctx);
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
      config: { access: access.admin('admin_panel', 'view') },
      schema: {
        summary: 'The system settings in force (administrator only)',
        operationId: 'getSystemSettings',
        tags,
        response: { 200: systemSettingsAnswer },
      },
    },
    () => ctx.settings.view(),
  );
  app.post(
    '/admin/settings',
    {
      config: { access: access.admin('admin_panel', 'update') },
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
      config: { access: access.admin('admin_panel', 'update') },
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
      config: { access: access.admin('admin_panel', 'update') },
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
  app.post(
    '/admin/settings/test-mail',
    {
      config: { access: access.admin('admin_panel', 'update') },
      schema: {
        summary: 'Send a test mail with the mail settings in force (administrator only)',
        operationId: 'sendTestMail',
        tags,
        body: testMailBody,
        // 429: the recipient's mails of the day are used up (lib/mail-budget.ts).
        response: { 200: testMailAnswer, ...problems(429, 502) },
      },
    },
    (request) => testMail.testMail(actorOf(request), request.body.to),
  );
  return Promise.resolve();
};
