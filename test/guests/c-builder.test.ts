/**
 * The repository's C build without its toolchain: where the toolchain is required (CI sets
 * BASIS_HOOKS_REQUIRE_TOOLCHAINS=1) it must fail before touching any output, with the kit's
 * ToolchainMissingError naming the Debian packages to install — never silently fall back to the
 * prebuilt copies.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { C_TOOLCHAIN, CLANG_ENV } from '../../host/kit/toolchains.js';
import { ROOT } from '../helpers/guests.js';

const run = promisify(execFile);

describe('c guest build', () => {
  it('fails with the Debian packages to install when clang is missing and toolchains are required', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-guests.ts'), 'c'], {
      cwd: ROOT,
      env: { ...process.env, [CLANG_ENV]: 'basis-hooks-no-such-clang', BASIS_HOOKS_REQUIRE_TOOLCHAINS: '1' },
    }).then(
      () => ({ failed: false, stderr: '' }),
      (error: unknown) => ({ failed: true, stderr: String((error as { stderr?: unknown }).stderr) }),
    );
    expect(result.failed).toBe(true);
    expect(result.stderr).toContain('ToolchainMissingError');
    expect(result.stderr).toContain(C_TOOLCHAIN.command);
  });
});
