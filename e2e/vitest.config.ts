import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Generous: the slowest flows take 20-30 s alone and twice that on a loaded two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One file at a time. Two at a time (each with its own browser and server; the files share no state)
    // took four files from 570 to 426 s on a machine loaded by other work, but in a full run on two cores
    // page loads overran their 10 s waits in four files (organisation, budgets, data, devices-detail).
    fileParallelism: false,
  },
});
