/**
 * Setup file of the timed projects (test/layers.ts): their wall-clock bounds hold on a quiet machine
 * with room to spare, but a runner busy with other work can stall any process for longer than a
 * margin. So a timed test that fails is run once more (the projects' `retry: 1`), and the first
 * failure is never silent: its error — the measured figure against its bound — is printed here, with
 * the load average at that moment, and the run's summary counts the tests that passed only on
 * their retry (test/helpers/summary-reporter.ts). A correct build passes; a real regression fails
 * twice and shows both figures.
 */
import { loadavg } from 'node:os';
import { beforeEach } from 'vitest';

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(({ task: failed }) => {
    const attempt = (failed.result?.retryCount ?? 0) + 1;
    // The errors of earlier attempts stay in the list: this attempt's is the last.
    const error = failed.result?.errors?.at(-1);
    const message = error === undefined ? 'no error recorded' : (error.message ?? String(error));
    const load = loadavg().map((l) => l.toFixed(2)).join(', ');
    const next = attempt === 1 ? 'retrying it once' : 'failed again: not a one-off';
    process.stderr.write(`timed: "${task.fullName ?? task.name}" failed on attempt ${attempt} at load average ${load}: ${message} — ${next}\n`);
  });
});
