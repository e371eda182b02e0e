import { defineConfig } from 'vitest/config';

/**
 * `npm run test:resilience`: the proof suites (load, faults, attack). Long and heavy, so not part
 * of `npm test`; each file starts the built server itself. One file at a time: the machine has two cores.
 */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.resilience.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
