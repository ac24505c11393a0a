/**
 * TypeScript hooks build with TypeScript 5 and with TypeScript 7 (the native compiler, what
 * `npm install typescript` gives today, whose package has no JavaScript compiler API): the kit runs
 * the project's own `tsc`. Both are this repository's devDependencies (TypeScript 7 as the alias
 * `typescript-7`). A starter hook inside a prefix picks up that prefix's TypeScript, the way a hook
 * inside a project picks up the project's.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHookDir, initHook, isKitError, openTarget, parseCases, runCases } from '../../host/kit/index.js';
import { ROOT, TEST_CACHE_DIR } from '../helpers/guests.js';

// The tests' shared transpile cache, not the user's (~/.cache/basis-hooks).
process.env['BASIS_HOOKS_CACHE_DIR'] = TEST_CACHE_DIR;

/**
 * A prefix whose hooks resolve `typescript@<major>`, from this repository's own devDependencies (no
 * test installs anything): for 5 a folder inside the repository, which finds `typescript` above it;
 * for 7 one whose `node_modules/typescript` links to the `typescript-7` alias.
 */
async function typescript(major: 5 | 7): Promise<{ prefix: string; version: string }> {
  const prefix = join(ROOT, '.cache', 'typescript', `ts${major}`);
  const own = join(ROOT, 'node_modules', major === 5 ? 'typescript' : 'typescript-7');
  await mkdir(prefix, { recursive: true });
  if (major === 7) {
    const link = join(prefix, 'node_modules', 'typescript');
    // Whatever an earlier run left there (a link, or an install from before the alias) goes.
    await rm(join(prefix, 'node_modules'), { recursive: true, force: true });
    await mkdir(join(prefix, 'node_modules'));
    await symlink(own, link, 'dir');
  }
  const version = (JSON.parse(await readFile(join(own, 'package.json'), 'utf8')) as { version: string }).version;
  return { prefix, version };
}

for (const major of [5, 7] as const) {
  describe(`a TypeScript hook built with TypeScript ${major}`, () => {
    let ts: { prefix: string; version: string };
    let dir: string;
    let steps: string[] = [];
    let out: string;

    beforeAll(async () => {
      ts = await typescript(major);
      dir = join(ts.prefix, 'hooks', 'redact');
      await rm(dir, { recursive: true, force: true });
      await initHook(dir, { lang: 'ts', event: 'post_tool_use', engine: 'quickjs' });
      const built = await buildHookDir(dir, { verify: false, onStep: ({ step }) => steps.push(step) });
      out = built.out;
    }, 300_000);

    it(`type-checks and compiles with the project's TypeScript ${major}.x`, () => {
      expect(ts.version.startsWith(`${major}.`)).toBe(true);
      expect(steps).toContain(`type-check and compile hook.ts (TypeScript ${ts.version})`);
    });

    it('the component passes the starter\'s cases', async () => {
      const parsed = parseCases(await readFile(join(dir, 'cases.jsonl'), 'utf8'), 'cases.jsonl');
      if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
      const target = await openTarget({ kind: 'component', path: out });
      try {
        const report = await runCases(target, parsed.cases);
        expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
        expect(report.ok).toBe(true);
      } finally {
        await target.close();
      }
    });

    it('a type error fails the build with tsc\'s diagnostics, before anything is componentized', async () => {
      const source = join(dir, 'hook.ts');
      const good = await readFile(source, 'utf8');
      try {
        await writeFile(source, good.replace("return { decision: 'allow' };", "return { decision: 'allow', because: 1 };"));
        steps = [];
        const failure = await buildHookDir(dir, { verify: false, onStep: ({ step }) => steps.push(step) }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isKitError(failure) && failure.code).toBe('build_failed');
        expect((failure as Error).message).toMatch(new RegExp(`^TypeScript errors \\(tsc ${ts.version.replaceAll('.', '\\.')}\\):\\nhook\\.ts\\(\\d+,\\d+\\): error TS2353: `));
        expect(steps.some((s) => s.startsWith('componentize'))).toBe(false);
        expect(existsSync(join(dir, 'build', 'js', 'hook.js'))).toBe(false);
      } finally {
        await writeFile(source, good);
      }
    }, 120_000);
  });
}
