/**
 * TypeScript hooks build with TypeScript 5 and with TypeScript 7 (the native compiler, what
 * `npm install typescript` gives today, whose package has no JavaScript compiler API): the kit runs
 * the project's own `tsc`. TypeScript 5 is this repository's devDependency; TypeScript 7 is installed
 * from the npm registry into a prefix under .cache/ (once; later runs reuse it). A starter hook inside
 * a prefix picks up that prefix's TypeScript, the way a hook inside a project picks up the project's.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHookDir, initHook, isKitError, openTarget, parseCases, runCases } from '../../host/kit/index.js';
import { ROOT, TEST_CACHE_DIR } from '../helpers/guests.js';

const run = promisify(execFile);

// The tests' shared transpile cache, not the user's (~/.cache/basis-hooks).
process.env['BASIS_HOOKS_CACHE_DIR'] = TEST_CACHE_DIR;

/**
 * A prefix whose hooks resolve `typescript@<major>`: for 5, a folder inside the repository (its own
 * devDependency); otherwise one with it installed from the registry, reused across runs.
 */
async function typescript(major: number): Promise<{ prefix: string; version: string }> {
  const prefix = join(ROOT, '.cache', 'typescript', `ts${major}`);
  const own = join(ROOT, 'node_modules', 'typescript', 'package.json');
  const ownVersion = (JSON.parse(await readFile(own, 'utf8')) as { version: string }).version;
  if (ownVersion.startsWith(`${major}.`)) {
    await mkdir(prefix, { recursive: true });
    return { prefix, version: ownVersion };
  }
  const pkg = join(prefix, 'node_modules', 'typescript', 'package.json');
  if (!existsSync(pkg)) {
    await mkdir(prefix, { recursive: true });
    await writeFile(join(prefix, 'package.json'), '{ "private": true }\n');
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', `typescript@${major}`], { cwd: prefix });
  }
  return { prefix, version: (JSON.parse(await readFile(pkg, 'utf8')) as { version: string }).version };
}

for (const major of [5, 7]) {
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
