import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type {} from '@fastify/cookie';
import { E, XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import type {} from './auth';
import { sendProblem } from './errors';

/** Methods the anti-forgery check lets through; the OpenAPI document requires the pair on all others. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Double-submit anti-forgery check (spec §9): every response to a client without the cookie sets
 * `XSRF-TOKEN` (readable by the page, SameSite=Strict); every state-changing request must echo it
 * in `X-XSRF-TOKEN`. Only an ingest route called with an `X-Api-Key` is exempt: a machine client, which
 * the auth hook then lets in only with a valid ingest key (401 otherwise). On every other route the
 * header means nothing, so it cannot switch the check off for a browser session.
 */
export const xsrfPlugin = fp(
  (app: FastifyInstance, options: { secure: boolean }) => {
    app.addHook('onRequest', async (request, reply) => {
      const cookie = request.cookies[XSRF_COOKIE];
      if (!cookie) {
        void reply.setCookie(XSRF_COOKIE, randomBytes(32).toString('base64url'), {
          path: '/',
          sameSite: 'strict',
          httpOnly: false,
          secure: options.secure,
        });
      }
      if (SAFE_METHODS.has(request.method)) return;
      const ingestRoute = request.routeOptions.config?.access?.kind === 'ingest';
      if (ingestRoute && request.headers['x-api-key'] !== undefined) return;
      const header = request.headers[XSRF_HEADER.toLowerCase()];
      if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
        return sendProblem(reply, 403, E.xsrf);
      }
    });
  },
  { name: 'xsrf', dependencies: ['@fastify/cookie'] },
);
