import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type {} from '@fastify/cookie';
import { E, XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
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
 * in `X-XSRF-TOKEN`. Requests carrying an ingest key (`X-Api-Key`) are machine clients and exempt.
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
      if (request.headers['x-api-key']) return;
      const header = request.headers[XSRF_HEADER.toLowerCase()];
      if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
        return sendProblem(reply, 403, E.xsrf);
      }
    });
  },
  { name: 'xsrf', dependencies: ['@fastify/cookie'] },
);
