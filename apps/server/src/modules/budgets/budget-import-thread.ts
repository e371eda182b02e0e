/**
 * The entry of a thread that reads one budget file (budget-import-reader.ts starts it; build.mjs bundles
 * it as dist/budget-import-thread.js). It waits for the request's body as it came (JSON, up to 12 MB),
 * parses it and checks it against the route's schema, decodes the file's base64, reads the file within the
 * limits it is sent (BUDGET_FILE_LIMITS) and posts the rows or the refusal once; the server then ends it.
 * All of it is here, off the event loop (docs/security.md, "Uploads"). The limits come with the upload
 * rather than by an import, so the thread loads nothing but the reader, the schema and their packages.
 */
import { parentPort } from 'node:worker_threads';
import { FileRefused, readBudgetFile } from './budget-file-reader';
import { READER_READY, readEnvelope } from './budget-import-envelope';
import type { ReaderAnswer, ReaderStart } from './budget-import-reader';

async function answer({ body, limits }: ReaderStart): Promise<ReaderAnswer> {
  const envelope = readEnvelope(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  if (!envelope.ok) return envelope;
  try {
    const file = await readBudgetFile(envelope.format, Buffer.from(envelope.contentBase64, 'base64'), limits);
    return { ok: true, file };
  } catch (problem) {
    return { ok: false, reason: problem instanceof FileRefused ? problem.reason : 'unreadable' };
  }
}

parentPort!.once('message', (start: ReaderStart) => {
  void answer(start).then((a) => parentPort!.postMessage(a));
});
// Every module above is loaded: the reading's deadline starts now (budget-import-reader.ts).
parentPort!.postMessage(READER_READY);
