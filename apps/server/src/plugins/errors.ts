import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { E, type Problem } from '@solar/shared';
import { DATABASE_BUSY_RETRY_AFTER_S, DATABASE_UNAVAILABLE_RETRY_AFTER_S } from '../db/database';
import { isDatabaseBusy, isDatabaseUnavailable } from '../lib/db-errors';
import { HttpError } from '../lib/http-errors';

/** Sends an RFC 9457 problem object. */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  detail: string,
  errors?: Record<string, string[]>,
) {
  const problem: Problem = {
    status,
    title: STATUS_CODES[status] ?? 'Error',
    detail,
    ...(errors ? { errors } : {}),
  };
  return reply.code(status).type('application/problem+json').send(problem);
}

/** Field path → message keys; zod's own English messages become `validation.invalidValue`. */
function fieldErrors(error: FastifyError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.validation ?? []) {
    const field =
      issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
    const message = issue.message?.startsWith('validation.') ? issue.message : 'validation.invalidValue';
    const messages = (errors[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return errors;
}

/** Turns every error into a problem answer; never leaks a stack trace or an internal message. */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        // A failure of the server's own (a file build out of memory): its cause is logged, never answered.
        if (error.status === 500) request.log.error({ err: error.cause ?? error }, 'request failed');
        if (error.headers) void reply.headers(error.headers);
        return sendProblem(reply, error.status, error.detail, error.errors);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        return sendProblem(reply, 400, E.badRequest, fieldErrors(error));
      }
      if (isDatabaseBusy(error)) {
        // On SQLite the error names the statement and the writer thread's state (db/sqlite-writer-gate.ts).
        request.log.warn({ err: error }, 'database locked: write refused');
        void reply.header('retry-after', String(DATABASE_BUSY_RETRY_AFTER_S));
        return sendProblem(reply, 503, E.databaseBusy);
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        void reply.header('retry-after', String(DATABASE_UNAVAILABLE_RETRY_AFTER_S));
        return sendProblem(reply, 503, E.databaseUnavailable);
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // Fastify's own client errors: malformed JSON, body too large, wrong content type.
        return sendProblem(reply, status, status === 404 ? E.notFound : E.badRequest);
      }
      request.log.error({ err: error }, 'request failed');
      return sendProblem(reply, 500, E.internal);
    });
  },
  { name: 'errors' },
);
