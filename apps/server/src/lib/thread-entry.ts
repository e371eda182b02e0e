import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';

/** The workspace packages a thread's source may import. */
const WORKSPACE_PACKAGES = ['@solar/shared', '@solar/i18n', '@solar/pv-model'];

/** Under tsx and vitest: each thread's entry bundled once per process, by its bundle name. */
const sourceBundles = new Map<string, URL>();

/**
 * A worker thread's entry. In the built server (this module is part of dist/server.js) it is the bundle
 * `bundleName` that build.mjs writes beside it. Under tsx and vitest, where this module is TypeScript, the
 * entry's source is bundled with esbuild (about 0.1-0.3 s, once per process) into
 * node_modules/.cache/solar, named by its content so that test processes share it: a worker does not
 * inherit the parent's TypeScript loader (loading the sources through tsx's took 2 s per thread).
 */
export function threadEntry(bundleName: string, source: URL): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL(`./${bundleName}`, here);
  const known = sourceBundles.get(bundleName);
  if (known) return known;
  const require = createRequire(here);
  const esbuild = require('esbuild') as typeof Esbuild;
  const [output] = esbuild.buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    packages: 'external',
    // Our workspace packages are TypeScript sources: bundled in, as build.mjs does.
    alias: Object.fromEntries(WORKSPACE_PACKAGES.map((name) => [name, require.resolve(name)])),
    logLevel: 'warning',
  }).outputFiles;
  const code = output!.text;
  const dir = fileURLToPath(new URL('../../node_modules/.cache/solar/', here));
  const stem = bundleName.replace(/\.js$/, '');
  const file = path.join(dir, `${stem}-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written whole under another name first: another test process may read it meanwhile.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  const url = pathToFileURL(file);
  sourceBundles.set(bundleName, url);
  return url;
}
