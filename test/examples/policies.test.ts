/**
 * The same policy — no `rm -rf` outside the workspace, no `git push --force`, only the GitHub issue
 * tools among MCP tools for triage-bot — shipped three ways in examples/policies/: a Cedar policy set,
 * CEL rules and a WebAssembly component. All three pass the one shared case file, through the real
 * runner (the cases as `basis-hooks test --config` runs them), and the CLI says so too.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCases } from '../../host/index.js';
import { runCases } from '../../host/kit/cases/run.js';
import { openTarget } from '../../host/kit/cases/target.js';
import { ROOT, runCli } from '../cli/cli.js';

const EXAMPLE = path.join(ROOT, 'examples/policies');
const CASES = path.join(EXAMPLE, 'cases.jsonl');

describe('examples/policies: one policy in Cedar, in CEL and as a component, one case file', () => {
  it('the component is built (npm run build-guests builds it)', () => {
    expect(existsSync(path.join(EXAMPLE, 'component/build/workspace-policy.wasm')), 'run "npm run build-guests -- js" first').toBe(true);
  });

  for (const kind of ['cedar', 'cel', 'component'] as const) {
    it(`${kind}: every shared case passes`, async () => {
      const parsed = parseCases(await readFile(CASES, 'utf8'), CASES);
      if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
      expect(parsed.cases.length).toBeGreaterThanOrEqual(20);
      const target = await openTarget({ kind: 'config', config: path.join(EXAMPLE, kind, 'hooks.json') });
      try {
        const report = await runCases(target, parsed.cases);
        const failed = report.results.filter((r) => r.status !== 'pass').map((r) => `${r.name}: ${JSON.stringify(r)}`);
        expect(failed).toEqual([]);
        expect(report.passed).toBe(parsed.cases.length);
      } finally {
        await target.close();
      }
    });
  }

  it('basis-hooks test --config … --cases examples/policies/cases.jsonl exits 0 for the Cedar and the CEL example', async () => {
    for (const kind of ['cedar', 'cel']) {
      const ran = await runCli(['test', '--config', path.join(EXAMPLE, kind, 'hooks.json'), '--cases', CASES]);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      expect(ran.stdout).toContain('20 passed, 0 failed, 0 skipped');
    }
  });
});
