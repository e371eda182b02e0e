// The esbuild set-up the server and the edge agent share (apps/server/build.mjs, apps/edge/build.mjs): one
// ESM bundle per entry for Node 20. Our own workspace packages (@solar/*) are TypeScript sources and are
// bundled in; every other package (better-sqlite3, serialport: native) stays an import resolved from
// node_modules at run time.
import { build } from 'esbuild';

/** Leaves every bare import but @solar/* to node_modules at run time. */
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

/** Bundles `entryPoints` (output name → source, relative to `dir`) into `dir`/dist. */
export function bundleForNode(dir, entryPoints) {
  return build({
    absWorkingDir: dir,
    entryPoints,
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
}
