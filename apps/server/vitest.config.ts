import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file builds its own app on its own database; two workers match the two cores.
    maxWorkers: 2,
    // Files share their worker's module cache instead of importing the whole server again per file: the
    // import was about half of the suite's time. Safe because the server keeps no module-level state (every
    // long-lived part hangs off the AppContext each file builds, docs/architecture.md); a file that fakes
    // timers or stubs globals restores them in its own hooks.
    isolate: false,
  },
});
