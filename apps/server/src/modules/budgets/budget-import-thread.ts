/**
 * The entry of a thread that reads one budget file (budget-import-reader.ts starts it; build.mjs bundles
 * it as dist/budget-import-thread.js). It waits for the upload's bytes, reads them within the limits it
 * is sent (BUDGET_FILE_LIMITS) and posts the rows or the refusal once; the server then ends it. The limits
 * come with the upload rather than by an import, so the thread loads nothing but the reader and its two
 * packages.
 */
import { parentPort } from 'node:worker_threads';
import { FileRefused, readBudgetFile } from './budget-file-reader';
import type { ReaderAnswer, ReaderStart } from './budget-import-reader';

async function answer({ format, bytes, limits }: ReaderStart): Promise<ReaderAnswer> {
  try {
    const file = await readBudgetFile(
      format,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      limits,
    );
    return { ok: true, file };
  } catch (problem) {
    return { ok: false, reason: problem instanceof FileRefused ? problem.reason : 'unreadable' };
  }
}

parentPort!.once('message', (start: ReaderStart) => {
  void answer(start).then((a) => parentPort!.postMessage(a));
});
