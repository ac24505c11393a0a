import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one file at a time.
    // Most of this suite's time is spent waiting (on subprocesses, worker threads, deadlines), so
    // at least two files run at once.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
