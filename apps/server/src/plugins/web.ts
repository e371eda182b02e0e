import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { E } from '@solar/shared';
import { sendProblem } from './errors';

/**
 * Serves the built console. Unknown /api paths answer a 404 problem; any other unknown GET answers
 * index.html so that the client router shows the page (or its own 404).
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { root: string | undefined }) => {
    const root = options.root && existsSync(path.join(options.root, 'index.html')) ? options.root : undefined;
    if (root) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: ['index.html'],
        preCompressed: true,
        setHeaders(reply, filePath) {
          // Vite fingerprints assets: cache them for a year; index.html must always be fresh.
          void reply.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const isApi = request.url.toLowerCase().startsWith('/api/') || request.url.toLowerCase() === '/api';
      if (root && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return sendProblem(reply, 404, E.notFound);
    });
  },
  { name: 'web' },
);
