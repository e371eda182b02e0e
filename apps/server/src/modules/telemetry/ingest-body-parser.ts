import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IngestColumns } from './ingest-columns';
import { PARSE_THREAD_MIN_BYTES, type IngestParseThread } from './ingest-parse-thread';

/** An ingest body whose points the parse thread has checked already (the route's validator takes it as is). */
export class ThreadCheckedBody {
  constructor(readonly columns: IngestColumns) {}
}

/**
 * The JSON parser of the ingest route's context: a large body goes to the parse thread first; whatever it
 * leaves (and every small body) is parsed by Fastify's own JSON parser with the server's settings, so that
 * errors, limits and the refusal of `__proto__` keys are Fastify's as on every other route.
 */
export function parseLargeBodiesOnThread(
  app: FastifyInstance,
  thread: IngestParseThread,
  counted: (parsedOn: 'thread' | 'loop') => void,
): void {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const json = app.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, raw: Buffer) => {
      if (raw.length >= PARSE_THREAD_MIN_BYTES) {
        const columns = await thread.parse(raw);
        if (columns) {
          counted('thread');
          return new ThreadCheckedBody(columns);
        }
      }
      counted('loop');
      return new Promise<unknown>((resolve, reject) => {
        // Fastify's parser is synchronous and calls back once.
        void json(request, raw.toString('utf8'), (error, body) => (error ? reject(error) : resolve(body)));
      });
    },
  );
}
