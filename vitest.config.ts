import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { E2E, INTEGRATION, TIMED_ALONE, TIMED_IN_PAIRS, UNIT } from './test/layers.js';

/*
 * One vitest project per layer of test/layers.ts (what each holds, and the guard that every test file
 * is in exactly one, are there). `npm test` runs them all: unit, integration and e2e together, then
 * the timed files two at a time, then the rest of the timed files one at a time, so that no other
 * file competes with a wall-clock bound for the CPU. `npm run test:unit` (and test:integration,
 * test:e2e, test:timed) runs one layer.
 */

// Vitest's default is one worker fewer than the cores: on a 2-core machine, one file at a time. Most
// of the suite's time is spent waiting (on subprocesses, worker threads, deadlines): three files at
// once was fastest here (two: +30 s, four: +25 s). The three untimed layers share these workers
// (projects of one `groupOrder` run in one pool, and must agree on its size).
const SHARED_WORKERS = Math.max(3, availableParallelism() + 1);

// dist/ rebuilt first when stale: the CLI tests run it (test/setup/library.ts). Not for the unit
// layer, which imports host/ directly: an edit there does not cost a rebuild in the inner loop.
const BUILT = ['test/setup/library.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Files share each worker's module cache instead of importing zod, jco and the host again
    // (import time 85 → 14 s). No test file leaves global state behind (env vars and process
    // listeners it sets are restored in its own teardown).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [...UNIT],
          // A unit test that starts a process or a worker, or loads a built guest, fails (and names it).
          setupFiles: ['test/setup/unit-guard.ts'],
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'integration', include: [...INTEGRATION], globalSetup: BUILT, maxWorkers: SHARED_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'e2e', include: [...E2E], globalSetup: BUILT, maxWorkers: SHARED_WORKERS, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'timed-pairs',
          include: [...TIMED_IN_PAIRS],
          globalSetup: BUILT,
          setupFiles: ['test/helpers/timed-retry.ts'],
          retry: 1,
          maxWorkers: Math.min(2, availableParallelism()),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'timed', include: [...TIMED_ALONE], globalSetup: BUILT, setupFiles: ['test/helpers/timed-retry.ts'], retry: 1, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
