import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI document generated from the shared zod schemas; browsable at /api/docs. */
export const openapiPlugin = fp(
  async (app: FastifyInstance, options: { version: string }) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Solar plant monitoring console API', version: options.version },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
        security: [{ bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'list' },
      // The UI's static files are public documentation, not data.
      uiHooks: {},
    });
  },
  { name: 'openapi' },
);
