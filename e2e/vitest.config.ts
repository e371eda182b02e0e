import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Generous: the slowest flows take 20-30 s alone and twice that on a loaded two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One browser and one server at a time: the machine has two cores.
    fileParallelism: false,
  },
});
