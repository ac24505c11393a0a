import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { endToEnd } from './end-to-end.js';
import { kit, missingToolchain } from './kit.js';

endToEnd({
  lang: 'c',
  event: 'post_tool_use',
  files: ['hook.c', 'glue/basis_hook.h', 'glue/basis_hook.c'],
  skip: missingToolchain('c'),
  more(hook) {
    it('test reports a case whose expectation was edited as FAIL with a diff, and exits 1', async () => {
      const { dir, component } = hook();
      const lines = (await readFile(join(dir, 'cases.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
      const edited = lines.map((line) => {
        const c = JSON.parse(line) as { name: string; expect: Record<string, unknown> };
        if (c.name === 'a token in text output is redacted') c.expect = { ...c.expect, reason: 'redacted one token' };
        return JSON.stringify(c);
      });
      const cases = join(dir, 'edited.jsonl');
      await writeFile(cases, `${edited.join('\n')}\n`);

      const result = await kit(['test', component, '--cases', cases]);
      expect(result.code).toBe(1);
      const out = result.stdout.split('\n');
      const fail = out.findIndex((l) => l.startsWith('  FAIL  a token in text output is redacted'));
      expect(fail).toBeGreaterThan(0);
      expect(out[fail]).toContain('edited.jsonl:2');
      const diff = out.slice(fail + 1, fail + 12);
      expect(diff).toContain('        -   "reason": "redacted one token"');
      expect(diff).toContain('        +   "reason": "redacted 1 token(s)"');
      // What did match is shown as context, not as a change.
      expect(diff).toContain('            "decision": "replace",');
      expect(out.filter((l) => l.startsWith('  ok    '))).toHaveLength(lines.length - 1);
      expect(result.stdout).toMatch(/\n4 passed, 1 failed, 0 skipped\n$/);

      const json = await kit(['test', component, '--cases', cases, '--json']);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as { ok: boolean; failed: number; results: Array<{ name: string; status: string; actual?: unknown }> };
      expect(report.ok).toBe(false);
      expect(report.failed).toBe(1);
      const failed = report.results.find((r) => r.status === 'fail');
      expect(failed).toMatchObject({ name: 'a token in text output is redacted', actual: { decision: 'replace', reason: 'redacted 1 token(s)' } });
    });

    it('build without --json prints the component, its size and sha256', async () => {
      const { build } = hook();
      const again = await kit(['build', hook().dir, '--out', join(hook().dir, 'build/again.wasm')]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^built .*build\/again\.wasm \(\d+\.\d KB, basis:hook\/handler@1\.0\.0, imports: none\) in \d+\.\d s\nsha256 [0-9a-f]{64}\n$/);
      // The same sources build the same component.
      const first = JSON.parse(build.stdout) as { sha256: string };
      expect(again.stdout).toContain(first.sha256);
    });
  },
});
