/**
 * History files are read off the event loop: each file gets a thread of its own (history-file-thread.ts),
 * ended as soon as it has answered, so that every byte and cell the reading took is returned with it.
 * The entry is found the way the server's other threads find theirs (lib/thread-entry.ts): the bundle
 * beside dist/server.js when built, the TypeScript source bundled once per process under tsx and vitest.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../lib/thread-entry';
import type { FileAnswer, FileRequest } from './history-file-protocol';

/** Reads one file on a thread of its own; rejects when the thread fails (a fault of ours: 500). */
export function readInThread(
  format: FileRequest['format'],
  data: Buffer,
  overrides: FileRequest['overrides'],
  build?: FileRequest['build'],
): Promise<Exclude<FileAnswer, { fault: string }>> {
  const entry = threadEntry('history-import-thread.js', new URL('./history-file-thread.ts', import.meta.url));
  const worker = new Worker(entry);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    worker.once('message', (answer: FileAnswer) =>
      settle(() =>
        'fault' in answer ? reject(new Error(`history file thread: ${answer.fault}`)) : resolve(answer),
      ),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`history file thread exited with ${code} before answering`))),
    );
    // A copy of its own (natively, a few ms for the largest file) moved to the thread: the caller keeps
    // its buffer (the upload stores it after the reading).
    const bytes = new Uint8Array(data);
    const request: FileRequest = { format, data: bytes, overrides, build };
    worker.postMessage(request, [bytes.buffer]);
  });
}
