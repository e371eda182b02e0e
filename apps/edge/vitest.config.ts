import { defineConfig } from 'vitest/config';
// The end-to-end test runs the console, a simulated device and the agent as processes: slow on a loaded machine.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 120_000 },
});
