import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that hold a wall-clock bound (a deadline plus a margin, an answer before a runaway's deadline)
 * while their own guests spin: they run after everything else, so no other test file competes with
 * them for the CPU.
 *
 * These spin one guest at a time, on one core: two of them run side by side. Measured so, the worst
 * runaway ended 7.5 ms past its deadline (the bound is 100 ms); beside the rest of the suite it was 96 ms
 * (and in CI a throw-and-catch runaway of metered-instrument, then in the suite, took 218 ms).
 */
const TIMED_IN_PAIRS = [
  'test/engine/metered-instrument.test.ts',
  'test/engine/metered-local.test.ts',
  'test/engine/runaway-metered.test.ts',
  'test/engine/runaway-worker.test.ts',
  'test/engine/start-function.test.ts',
  'test/engine/start-function-load.test.ts',
  'test/engine/host-calls.test.ts',
];

/** These spin several guests at once, or time a pool or a chain: one at a time, last. */
const TIMED_ALONE = [
  'test/engine/concurrency.test.ts',
  'test/engine/metered-pool.test.ts',
  'test/engine/metered-runaway.test.ts',
  'test/engine/metered-sandbox.test.ts',
  'test/engine/timeout.test.ts',
  'test/engine/signals.test.ts',
  'test/transports/component/hop.test.ts',
  'test/transports/component/caller-poll.test.ts',
  'test/runner/concurrency.test.ts',
  'test/ops/budget.test.ts',
  'test/transports/subprocess/orphans.test.ts',
  'test/transports/subprocess/timeout.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // dist/ rebuilt first when stale: the CLI tests run it (test/setup/library.ts).
    globalSetup: ['test/setup/library.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...TIMED_IN_PAIRS, ...TIMED_ALONE],
          // Vitest's default is one worker fewer than the cores: on a 2-core machine, one file at a
          // time. Most of this suite's time is spent waiting (on subprocesses, worker threads,
          // deadlines): three files at once was fastest here (two: +30 s, four: +25 s).
          maxWorkers: Math.max(3, availableParallelism() + 1),
          // Files share each worker's module cache instead of importing zod, jco and the host again
          // (import time 85 → 14 s). No test file leaves global state behind (env vars and process
          // listeners it sets are restored in its own teardown).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'timed-pairs', include: TIMED_IN_PAIRS, maxWorkers: Math.min(2, availableParallelism()), isolate: false, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'timed', include: TIMED_ALONE, maxWorkers: 1, isolate: false, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
