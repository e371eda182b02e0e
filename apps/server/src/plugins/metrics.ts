import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { E } from '@solar/shared';
import type { Metrics } from '../lib/metrics';
import { bearerToken } from './auth';
import { sendProblem } from './errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares a presented token with the configured one in constant time (both hashed to one length). */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  return presented !== undefined && timingSafeEqual(digest(presented), digest(expected));
}

/**
 * GET /metrics in the Prometheus text format, outside /api (a scraper is no console user, and the document
 * of the console's API does not describe it). Open only with `Authorization: Bearer <METRICS_TOKEN>`;
 * without a configured token the route answers 404, as if it did not exist (docs/operations.md).
 * Every answer's time is observed per route pattern, never the raw URL, so ids do not multiply the series.
 */
export const metricsPlugin = fp(
  (app: FastifyInstance, { metrics, token }: { metrics: Metrics; token: string | undefined }) => {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url;
      // The scrape itself is left out: it would mostly measure how often Prometheus asks.
      if (route !== '/metrics')
        metrics.observeHttp(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!token) return sendProblem(reply, 404, E.notFound);
      if (!tokenMatches(bearerToken(request.headers.authorization), token)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        return sendProblem(reply, 401, E.unauthorized);
      }
      const { body, contentType } = await metrics.render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
    return Promise.resolve();
  },
  { name: 'metrics', dependencies: ['errors'] },
);
