/**
 * A vitest reporter that ends the run with one plain line, `N passed, N failed, N skipped`, which
 * CI reads as the run's verdict alongside the exit code. A timed test that passed only when retried
 * (test/helpers/timed-retry.ts) is counted as passed, and named on a line of its own: its first
 * failure's figure is in the log above.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const retried: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if ((test.diagnostic()?.retryCount ?? 0) > 0 && state === 'passed') retried.push(`${test.module.moduleId.replace(/^.*?\/test\//, 'test/')} > ${test.fullName}`);
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    if (retried.length > 0) process.stdout.write(`${retried.length} timed test(s) passed on their retry (first failure printed above): ${retried.join('; ')}\n`);
  }
}
