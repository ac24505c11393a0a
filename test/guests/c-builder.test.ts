/**
 * The C builder without its toolchain: where the toolchain is required (CI sets
 * BASIS_HOOKS_REQUIRE_TOOLCHAINS=1) it must fail before touching any output, naming the Debian packages
 * to install — never silently fall back to the prebuilt copies.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { C_PACKAGES } from '../../scripts/guests/c.js';
import { ROOT } from '../helpers/guests.js';

const run = promisify(execFile);

describe('c guest builder', () => {
  it('fails with the Debian packages to install when clang is missing and toolchains are required', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/guests/c.ts')], {
      cwd: ROOT,
      env: { ...process.env, CLANG: 'basis-hooks-no-such-clang', BASIS_HOOKS_REQUIRE_TOOLCHAINS: '1' },
    }).then(
      () => ({ failed: false, stderr: '' }),
      (error: unknown) => ({ failed: true, stderr: String((error as { stderr?: unknown }).stderr) }),
    );
    expect(result.failed).toBe(true);
    expect(result.stderr).toContain('CToolchainMissingError');
    expect(result.stderr).toContain(`apt-get install -y ${C_PACKAGES.join(' ')}`);
  });
});
