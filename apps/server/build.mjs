// Bundles the server into dist/server.js, the telemetry writer thread's entry into dist/telemetry-writer.js
// (src/telemetry-store/batch-writer.ts starts it from beside the server's bundle) and the file-build threads'
// into dist/file-builder.js (src/file-builds/file-build-pool.ts). Our own workspace packages (@solar/*) are TypeScript sources
// and are bundled in; every other package stays an import resolved from node_modules at run time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || args.path.startsWith('@solar/')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

await build({
  absWorkingDir: path.dirname(fileURLToPath(import.meta.url)),
  entryPoints: {
    server: 'src/server.ts',
    'telemetry-writer': 'src/telemetry-store/batch-writer-thread.ts',
    'file-builder': 'src/file-builds/file-build-thread.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});
