/**
 * Helpers for the authoring-kit tests: run the built CLI (`npm run build` → dist/cli/main.js) as a user
 * does, in directories that live for a whole describe block (a build is reused by every assertion),
 * and tell whether a language's toolchain is really installed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_CACHE_DIR } from '../helpers/guests.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI, run the way a user runs it. */
export const CLI = join(ROOT, 'dist/cli/main.js');

export interface KitRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run `node dist/cli/main.js ...args` with stdin closed. The transpile cache is the tests' shared one,
 * so a component built once is not transpiled again by every later command.
 */
export function kit(args: readonly string[], options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {}): Promise<KitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, BASIS_HOOKS_CACHE_DIR: TEST_CACHE_DIR, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** A directory for one describe block: create it in `beforeAll`, remove it with `dispose` in `afterAll`. */
export async function scratchDir(): Promise<{ readonly path: string; dispose(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'basis-hooks-kit-'));
  return { path, dispose: () => rm(path, { recursive: true, force: true }) };
}

/** In CI every toolchain must be there: a missing one fails instead of skipping. */
const REQUIRE_TOOLCHAINS = process.env['BASIS_HOOKS_REQUIRE_TOOLCHAINS'] === '1';

function runs(file: string, args: readonly string[]): boolean {
  try {
    execFileSync(file, [...args], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a language's end-to-end test must be skipped on this machine, or undefined when its toolchain
 * is installed (always undefined in CI, where a missing toolchain must fail the run instead).
 */
export function missingToolchain(lang: 'c' | 'rust'): string | undefined {
  if (REQUIRE_TOOLCHAINS) return undefined;
  if (lang === 'c') {
    const wasiLibc = existsSync('/usr/include/wasm32-wasi') || existsSync('/usr/share/wasi-sysroot');
    return runs('clang', ['--version']) && wasiLibc ? undefined : 'clang or wasi-libc is not installed (apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32)';
  }
  const rustc = '/usr/bin/rustc';
  return existsSync(rustc) && existsSync('/usr/lib/rustlib/wasm32-wasi') ? undefined : 'Debian rustc with the wasm32 libraries is not installed (apt-get install -y rustc libstd-rust-dev-wasm32)';
}

/** The lines of a cases file, each parsed. */
export function caseLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
