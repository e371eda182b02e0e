import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's CSP forbids inline scripts; keep the module preload polyfill out of index.html.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Everything the first page statically needs (React, Ant Design's form, the login page) in one
        // chunk: one request instead of ~30, and one gzip/brotli stream that compresses better than thirty.
        // The console's modules stay in their own on-demand chunks.
        codeSplitting: { groups: [{ name: 'first-load', tags: ['$initial'] }] },
      },
      treeshake: {
        // @solar/shared only declares constants and schemas: a chunk that uses none of a file's exports
        // leaves the file (and zod) out, so the login page does not carry every API schema.
        // The shared UI pieces under src/components are side-effect free too (the barrel costs nothing).
        moduleSideEffects: [
          { test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false },
          { test: /[\\/]apps[\\/]web[\\/]src[\\/]components[\\/].*\.tsx?$/, sideEffects: false },
        ],
        // Building a zod schema has no side effects; unused schemas are dropped.
        manualPureFunctions: ['z'],
      },
    },
  },
});
