import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Generous: the slowest flows take 20-30 s alone and twice that on a loaded two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two files at a time, each in its own process with its own browser and its own server (fresh data
    // directory, free port; every helper listener takes port 0): the files share no state. Much of a
    // browser test is waiting (for the server, for the renderer), so two of them use the two cores better
    // than one. More would only queue for the cores.
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
