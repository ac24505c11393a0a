/**
 * The end-to-end path a new user takes, for one language: `init` → `build` → `test` (and `inspect`),
 * all through the built CLI with the real toolchain. One build per describe block; every assertion
 * reuses it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseLines, kit, scratchDir, type KitRun } from './kit.js';

export interface EndToEnd {
  readonly lang: 'js' | 'ts' | 'c' | 'rust' | 'assemblyscript';
  readonly event: 'pre_tool_use' | 'post_tool_use';
  /** Extra `init` flags (`--engine spidermonkey`, `--flavour nostd`). */
  readonly flags?: readonly string[];
  /** Files besides hook.json, cases.jsonl, README.md and .gitignore that `init` must write. */
  readonly files: readonly string[];
  /** Why the language cannot be built on this machine (its toolchain is missing): the block is skipped. */
  readonly skip?: string | undefined;
  /** More assertions on the same build. */
  readonly more?: (built: () => BuiltHook) => void;
}

/** What the block's `beforeAll` made, for `more`. */
export interface BuiltHook {
  readonly dir: string;
  readonly component: string;
  readonly init: KitRun;
  readonly build: KitRun;
}

/** A parsed `build --json` line. */
interface BuildJson {
  readonly ok: boolean;
  readonly out: string;
  readonly size: number;
  readonly sha256: string;
  readonly handler: string;
  readonly imports: readonly string[];
  readonly ms: number;
}

export function endToEnd(spec: EndToEnd): void {
  const label = [spec.lang, spec.event, ...(spec.flags ?? [])].join(' ');
  describe.skipIf(spec.skip !== undefined)(`init → build → test: ${label}${spec.skip === undefined ? '' : ` — skipped: ${spec.skip}`}`, () => {
    let scratch: Awaited<ReturnType<typeof scratchDir>> | undefined;
    let built: BuiltHook | undefined;
    const hook = (): BuiltHook => {
      if (built === undefined) throw new Error('beforeAll did not run');
      return built;
    };

    beforeAll(async () => {
      scratch = await scratchDir();
      const dir = join(scratch.path, 'my-hook');
      const init = await kit(['init', dir, '--lang', spec.lang, '--event', spec.event, ...(spec.flags ?? [])]);
      const build = await kit(['build', dir, '--json']);
      built = { dir, component: join(dir, 'build/my-hook.wasm'), init, build };
      const parsed = build.code === 0 ? (JSON.parse(build.stdout) as BuildJson) : undefined;
      // Not an assertion (no performance thresholds): the figure for the report.
      process.stderr.write(`[kit] ${label}: build exit ${String(build.code)}, ${parsed === undefined ? build.stderr : `${parsed.size} bytes in ${parsed.ms} ms`}\n`);
    }, 300_000);
    afterAll(async () => {
      await scratch?.dispose();
    });

    it('init writes the starter: source, glue, manifest, cases, README', async () => {
      const { init, dir } = hook();
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      for (const file of [...spec.files, 'hook.json', 'cases.jsonl', 'README.md', '.gitignore']) {
        expect(existsSync(join(dir, file)), file).toBe(true);
        expect(init.stdout).toContain(`  ${file}\n`);
      }
      const manifest = JSON.parse(await readFile(join(dir, 'hook.json'), 'utf8')) as Record<string, unknown>;
      expect(manifest).toMatchObject({ manifest: 1, name: 'my-hook', lang: spec.lang, event: spec.event });
    });

    it('build writes the component, verifies that it loads, and shows its steps with elapsed times', () => {
      const { build, component } = hook();
      expect(build.code, build.stderr).toBe(0);
      const result = JSON.parse(build.stdout) as BuildJson;
      expect(result).toMatchObject({ ok: true, out: component, handler: 'basis:hook/handler@1.0.0' });
      expect(existsSync(component)).toBe(true);
      expect(result.size).toBeGreaterThan(0);
      expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
      // Progress: one line per step, each with the time elapsed, ending with the verification.
      const steps = build.stderr.split('\n').filter((l) => l !== '');
      expect(steps.length).toBeGreaterThanOrEqual(3);
      for (const line of steps) expect(line).toMatch(/^basis-hooks build: \[ *\d+\.\d s\] \S/);
      expect(steps.at(-1)).toMatch(/verify: load it as the host does/);
    });

    it('test passes every starter case, each run through the runner at its own event', async () => {
      const { dir } = hook();
      const cases = caseLines(await readFile(join(dir, 'cases.jsonl'), 'utf8'));
      expect(cases.some((c) => (c['call'] as { event: string }).event !== spec.event)).toBe(true);
      const result = await kit(['test', dir, '--json']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { ok: boolean; passed: number; failed: number; skipped: number; results: Array<{ status: string }> };
      expect(report).toMatchObject({ ok: true, passed: cases.length, failed: 0, skipped: 0 });
      expect(report.results.map((r) => r.status)).toEqual(cases.map(() => 'pass'));
    });

    it('inspect says it loads, at basis:hook 1.0.0, with every import allowed', async () => {
      const { component } = hook();
      const result = await kit(['inspect', component, '--json']);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { loads: boolean; world: unknown; imports: Array<{ allowed: boolean }> };
      expect(report.loads).toBe(true);
      expect(report.world).toEqual({ handler: 'basis:hook/handler@1.0.0', version: '1.0.0' });
      expect(report.imports.every((i) => i.allowed)).toBe(true);
    });

    spec.more?.(hook);
  });
}
