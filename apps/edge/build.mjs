// Bundles the agent into dist/cli.js. Our own workspace packages (@solar/*) are TypeScript sources and are
// bundled in; every other package (better-sqlite3, serialport: native) stays an import resolved from
// node_modules at run time, as in the server's build.
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
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});
