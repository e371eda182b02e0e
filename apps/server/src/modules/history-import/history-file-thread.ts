/**
 * The entry of a thread that reads one history file (history-file-reader.ts starts it; build.mjs bundles
 * it as dist/history-import-thread.js): the file parsed, shaped and checked, and with a mapping its
 * columns built into points, all off the event loop. A year of 5-minute data of 20 inverters held the
 * event loop for over 30 s on the main thread (docs/benchmarks.md, bench:history-import). Only the
 * detection and the points cross back, as typed arrays moved without a copy; the file's cells stay here.
 */
import { parentPort } from 'node:worker_threads';
import { HistoryFileRefused, readHistoryFile } from './history-file';
import type { FileAnswer, FileRequest, SignalColumns } from './history-file-protocol';
import { buildPoints } from './history-points';

async function answer(request: FileRequest): Promise<{ answer: FileAnswer; transfer: ArrayBuffer[] }> {
  const data = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
  try {
    const file = await readHistoryFile(request.format, data, request.overrides);
    const bySignal = new Map<number, SignalColumns>();
    const transfer: ArrayBuffer[] = [];
    let rows = 0;
    if (request.build) {
      const built = buildPoints(file, request.build.plans, request.build.timeZone);
      rows = built.rows;
      for (const [id, s] of built.bySignal) {
        const ts = Float64Array.from(s.points, (p) => p.ts);
        const values = Float64Array.from(s.points, (p) => p.value);
        transfer.push(ts.buffer, values.buffer);
        bySignal.set(id, { signal: s.signal, ts, values, duplicates: s.duplicates });
      }
    }
    return { answer: { ok: true, detection: file.detection, rows, bySignal }, transfer };
  } catch (problem) {
    if (problem instanceof HistoryFileRefused)
      return { answer: { ok: false, problems: problem.problems }, transfer: [] };
    return { answer: { ok: false, fault: String((problem as Error)?.stack ?? problem) }, transfer: [] };
  }
}

parentPort!.once('message', (request: FileRequest) => {
  void answer(request).then(({ answer: a, transfer }) => parentPort!.postMessage(a, transfer));
});
