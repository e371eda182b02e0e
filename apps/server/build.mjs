// Bundles the server into dist/server.js, and the entries of its threads beside it: dist/telemetry-writer.js
// (src/telemetry-store/batch-writer.ts starts it), dist/budget-import-thread.js (src/lib/thread-entry.ts),
// dist/file-builder.js (src/file-builds/file-build-pool.ts), dist/data-quality-thread.js
// (src/modules/data-quality/engine/detection-runner.ts) and dist/history-import-thread.js
// (src/modules/history-import/history-file-reader.ts). Our own workspace packages (@solar/*) are
// TypeScript sources and are bundled in; every other package stays an import resolved from node_modules at
// run time (scripts/bundle-node.mjs, which the edge agent's build shares).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../../scripts/bundle-node.mjs';

await bundleForNode(path.dirname(fileURLToPath(import.meta.url)), {
  server: 'src/server.ts',
  'telemetry-writer': 'src/telemetry-store/batch-writer-thread.ts',
  // The budget file reader's thread (lib/thread-entry.ts finds it beside dist/server.js).
  'budget-import-thread': 'src/modules/budgets/budget-import-thread.ts',
  'file-builder': 'src/file-builds/file-build-thread.ts',
  'data-quality-thread': 'src/modules/data-quality/engine/detection-thread.ts',
  // The history file reader's thread (modules/history-import/history-file-reader.ts).
  'history-import-thread': 'src/modules/history-import/history-file-thread.ts',
});
