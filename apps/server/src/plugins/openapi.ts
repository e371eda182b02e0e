import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemSchema, XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import type { Access } from './auth';
import { SAFE_METHODS } from './xsrf';

/** The media type of every error answer (plugins/errors.ts sends RFC 9457 problem objects). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const PROBLEM_TEXT: Record<number, string> = {
  400: 'The input is malformed or invalid; `errors` maps each field to its message keys.',
  401: 'No valid credentials: the token (or ingest key) is missing, invalid, expired or revoked.',
  403: 'Refused: the role lacks the permission, the record is out of reach, or the anti-forgery token is missing or wrong.',
  404: 'No such record, or one outside the caller’s reach (its existence is not revealed).',
  406: 'The client did not ask for `text/event-stream`.',
  409: 'The change conflicts with the current state; `detail` says which rule.',
  413: 'The body is larger than the server takes (8 MB).',
  415: 'The body is of a media type the server does not read (send JSON).',
  422: 'The device answers, but not as the call needs (e.g. no SunSpec marker).',
  429: 'Too many attempts or connections; `Retry-After` says when to try again.',
  500: 'Unexpected failure; the answer carries no internal detail.',
  502: 'The device refused or broke the connection.',
  503: 'The service is not available (database unreachable).',
  504: 'The device did not answer in time.',
};

function problemAnswer(status: number) {
  return {
    description: PROBLEM_TEXT[status] ?? 'Error',
    content: { [PROBLEM_MEDIA_TYPE]: { schema: problemSchema } },
  };
}

/**
 * Error answers a route's own code gives beyond those derived from its access and input (see
 * `derivedProblems`), to spread into the route's `response`, e.g. `...problems(409)`. Fastify then also
 * serializes those answers through the problem schema.
 */
export function problems(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, problemAnswer(status)]));
}

/** `response[204]` of a route that answers with no body. */
export const noContent = z.undefined();

/** `response[304]` of a route that revalidates a cached copy by its ETag (If-None-Match). */
export const notModified = z.undefined();

/** A file answered as bytes (a Buffer), such as an XLSX workbook. */
export const binaryFile = z.custom<Buffer>((value) => Buffer.isBuffer(value));

/**
 * What the document takes from zod beyond the schemas themselves: components referenced by name instead of
 * repeated in every operation, and the JSON Schema of what zod cannot describe. Static data, not a service.
 */
const documentRegistry = z.registry<{
  id?: string;
  type?: 'string';
  format?: string;
  description?: string;
}>();
documentRegistry.add(problemSchema, { id: 'Problem' });
documentRegistry.add(binaryFile, { type: 'string', format: 'binary' });
documentRegistry.add(noContent, { description: 'Done; no body.' });
documentRegistry.add(notModified, { description: 'Unchanged since the ETag of If-None-Match; no body.' });

const XSRF = { xsrfCookie: [], xsrfHeader: [] };

/**
 * The security requirement of a route, from the access it declares (plugins/auth.ts) and its method
 * (plugins/xsrf.ts guards every method but GET, HEAD and OPTIONS unless an X-Api-Key is sent).
 */
function securityOf(access: Access, method: string): Record<string, string[]>[] {
  const unsafe = !SAFE_METHODS.has(method);
  const xsrf = unsafe ? XSRF : {};
  if (access.kind === 'public') return unsafe ? [XSRF] : [];
  const user = { bearer: [], ...xsrf };
  return access.kind === 'ingest' ? [{ ingestKey: [] }, user] : [user];
}

/** Error statuses every route of this access, method and input can answer, whatever its own code does. */
function derivedProblems(access: Access, method: string, schema: FastifySchema, url: string): number[] {
  const statuses = [500];
  if (schema.body || schema.querystring || schema.params) statuses.push(400);
  // Fastify's own answers to a body it cannot take, before any validation.
  if (schema.body) statuses.push(413, 415);
  if (access.kind !== 'public') statuses.push(401);
  if (access.kind === 'permission' || access.kind === 'ingest' || !SAFE_METHODS.has(method))
    statuses.push(403);
  if (url.includes(':')) statuses.push(404);
  return statuses;
}

/**
 * OpenAPI 3.0 admits null in an enum only when null is one of its values, but zod's openapi-3.0 output
 * of `z.enum([...]).nullable()` says `nullable: true` and leaves null out: validators (ajv) then refuse
 * the very nulls the route answers (a signal's `word_order: null`).
 */
function nullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableEnums);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...(schema.enum as unknown[]), null];
  }
  Object.values(schema).forEach(nullableEnums);
}

/**
 * OpenAPI document generated from the shared zod schemas; browsable at /api/docs.
 *
 * Security and the standard error answers are derived here, centrally, from the access each route declares
 * for plugins/auth.ts and from its method and input, because those plugins (not the routes) are what
 * answer 400/401/403/404/500 and demand a token, an ingest key or the anti-forgery pair. Written by hand in
 * every route they would drift from what the plugins do; derived, they cannot. Routes add only what their
 * own code answers (`problems(409)`), their summary and operationId.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, options: { version: string }) => {
    const zodTransform = createJsonSchemaTransform({ schemaRegistry: documentRegistry });
    const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: documentRegistry });

    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Solar plant monitoring console API',
          version: options.version,
          description:
            'Every error answer is an RFC 9457 problem object (`application/problem+json`) whose `detail` is an i18n key under `errors.`. Timestamps are UTC ISO 8601 unless a field says epoch milliseconds.',
          // The package is private and the repository grants no licence; say so rather than leave it unknown.
          license: { name: 'UNLICENSED (proprietary, no licence granted)' },
        },
        // Paths carry their /api prefix: the API is served by the same origin as this document.
        servers: [{ url: '/', description: 'This server' }],
        components: {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'The token answered by POST /api/users/login, in `Authorization: Bearer …`.',
            },
            ingestKey: {
              type: 'apiKey',
              in: 'header',
              name: 'X-Api-Key',
              description:
                'A device or plant ingest key (POST /api/devices/{id}/ingest-key). Machine clients sending it are exempt from the anti-forgery pair.',
            },
            xsrfCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: XSRF_COOKIE,
              description:
                'Anti-forgery double submit, half one: the cookie every answer sets when the client has none (SameSite=Strict, readable by the page). Required with the header on every POST, PUT, PATCH and DELETE without `X-Api-Key`; a missing or differing pair answers 403 errors.xsrf.',
            },
            xsrfHeader: {
              type: 'apiKey',
              in: 'header',
              name: XSRF_HEADER,
              description: `Anti-forgery double submit, half two: the value of the ${XSRF_COOKIE} cookie, echoed in this header.`,
            },
          },
        },
      },
      transform: (input) => {
        const { route, url } = input;
        const access = route.config?.access;
        const method = [route.method].flat()[0] ?? 'GET';
        if (!access || !url.startsWith('/api/') || !input.schema || input.schema.hide)
          return zodTransform(input);
        const declared = input.schema.response as Record<string, unknown> | undefined;
        const response = {
          ...problems(...derivedProblems(access, method, input.schema, url)),
          ...declared,
        };
        const result = zodTransform({ ...input, schema: { ...input.schema, response } });
        nullableEnums(result.schema);
        return { ...result, schema: { ...result.schema, security: securityOf(access, method) } };
      },
      transformObject: (input) => {
        const document = zodTransformObject(input);
        // The problem schema is only ever answered, never sent: its input twin would be an unused component.
        if ('components' in document) delete document.components?.schemas?.ProblemInput;
        return document;
      },
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
