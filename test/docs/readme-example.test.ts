/**
 * The README's first example prints what the README says it prints: the example is run as written
 * (`node example.mjs`, importing the package by its name) and its output compared with the block
 * after it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/guests.js';

/** The first ```js block of the README (the example) and the block that follows it (`$ node example.mjs` and its output). */
function example(readme: string): { code: string; command: string; output: string } {
  const m = /```js\n([\s\S]*?)```\s*```\n\$ (.*)\n([\s\S]*?)```/.exec(readme);
  if (m === null) throw new Error('README.md: no ```js example followed by its printed output');
  return { code: m[1] ?? '', command: m[2] ?? '', output: m[3] ?? '' };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("the README's example", () => {
  it('prints exactly the outcome the README shows', async () => {
    const { code, command, output } = example(await readFile(join(ROOT, 'README.md'), 'utf8'));
    expect(command).toBe('node example.mjs');
    // Inside the package's directory, so `import ... from 'basis-hooks'` resolves to this package (dist/).
    await mkdir(join(ROOT, '.cache'), { recursive: true });
    const dir = await mkdtemp(join(ROOT, '.cache', 'readme-example-'));
    dirs.push(dir);
    await writeFile(join(dir, 'example.mjs'), code);
    const { stdout } = await promisify(execFile)(process.execPath, ['example.mjs'], { cwd: dir });
    expect(stdout).toBe(output);
  });
});
