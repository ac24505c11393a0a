import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kit, missingToolchain, scratchDir } from './kit.js';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir();
});
afterAll(async () => {
  await scratch.dispose();
});

async function starter(name: string, lang: string, ...flags: string[]): Promise<string> {
  const dir = join(scratch.path, name);
  const result = await kit(['init', dir, '--lang', lang, ...flags]);
  expect(result.code).toBe(0);
  return dir;
}

describe('basis-hooks build: what goes wrong', () => {
  it('a missing clang (BASIS_HOOKS_CLANG pointing nowhere) exits 2 naming the Debian packages', async () => {
    const dir = await starter('c-missing', 'c');
    const result = await kit(['build', dir], { env: { BASIS_HOOKS_CLANG: '/nonexistent/bin/clang' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('toolchain_missing: `/nonexistent/bin/clang` was not found');
    expect(result.stderr).toContain('apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32');
    expect(result.stdout).toBe('');
  });

  it('a missing rustc (BASIS_HOOKS_RUSTC pointing nowhere) exits 2 naming the Debian packages', async () => {
    const dir = await starter('rust-missing', 'rust');
    const result = await kit(['build', dir], { env: { BASIS_HOOKS_RUSTC: '/nonexistent/bin/rustc' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('toolchain_missing: `/nonexistent/bin/rustc` was not found');
    expect(result.stderr).toContain('apt-get install -y rustc libstd-rust-dev-wasm32');
  });

  it('a rustc without the wasm32 libraries (the host\'s own rustc is not it) exits 2 naming the packages', async () => {
    // A script stands in for a rustc that runs but has no wasm32 libraries, like rustup's here.
    const fake = join(scratch.path, 'fake-rustc');
    await writeFile(fake, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "rustc 9.9.9 (fake)"; else echo /nonexistent-sysroot; fi\n', { mode: 0o755 });
    const dir = await starter('rust-no-target', 'rust', '--flavour', 'nostd');
    const result = await kit(['build', dir], { env: { BASIS_HOOKS_RUSTC: fake } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/toolchain_missing: rustc 9\.9\.9 \(fake\) .* has no standard library for wasm32-unknown-unknown/);
    expect(result.stderr).toContain('apt-get install -y rustc libstd-rust-dev-wasm32');
  });

  it('a directory without hook.json exits 2 (manifest_invalid)', async () => {
    const dir = join(scratch.path, 'empty');
    await mkdir(dir);
    const result = await kit(['build', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/manifest_invalid: .*hook\.json: not found/);
  });

  it('an invalid hook.json exits 2 listing every problem', async () => {
    const dir = join(scratch.path, 'bad-manifest');
    await mkdir(dir);
    await writeFile(join(dir, 'hook.json'), JSON.stringify({ manifest: 1, name: 'x', event: 'pre_tool_use', lang: 'c', sources: [], include: ['/abs'] }));
    const result = await kit(['build', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/manifest_invalid: .*invalid manifest/);
    expect(result.stderr).toMatch(/sources: must not be empty/);
    expect(result.stderr).toMatch(/include\[0\]: must be relative to the hook directory/);
  });

  it.skipIf(missingToolchain('c') !== undefined)('a C hook that does not compile exits 1 with clang\'s diagnostics (build_failed)', async () => {
    const dir = await starter('c-broken', 'c');
    await writeFile(join(dir, 'hook.c'), '#include "basis_hook.h"\nhook_decision handle(const hook_request *req) { return not_a_function(req); }\n');
    const result = await kit(['build', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/build_failed: clang hook\.c failed:\n[\s\S]*hook\.c:2:\d+: error: /);
  });

  it('a TypeScript hook with a type error exits 1 before anything is componentized (build_failed)', async () => {
    const dir = await starter('ts-broken', 'ts');
    const source = join(dir, 'hook.ts');
    const { readFile } = await import('node:fs/promises');
    await writeFile(source, (await readFile(source, 'utf8')).replace("return { decision: 'deny', reason: REASON };", "return { decision: 'deny', why: REASON };"));
    const result = await kit(['build', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/build_failed: TypeScript errors \(tsc \d+\.\d+\.\d+\):\nhook\.ts\(\d+,\d+\): error TS\d+/);
    expect(result.stderr).not.toMatch(/componentize/);
  });
});
