import { defineConfig } from 'vitest/config';
// The end-to-end tests run the console, a simulated device and the agent as processes: slow on a loaded
// machine. One file at a time: each rebuilds dist/cli.js, which the other's agent restarts would run.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
