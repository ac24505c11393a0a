import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { KitError } from '../errors/kit-error.js';
import { ToolchainMissingError } from '../errors/toolchain-missing-error.js';
import type { HookManifest } from '../manifest.js';
import { C_TOOLCHAIN, CLANG_ENV } from '../toolchains.js';
import { runTool, ToolNotFound, type ToolRun } from './exec.js';
import type { Steps } from './progress.js';

/** Compile flags of every translation unit. */
export const C_FLAGS = ['--target=wasm32-wasi', '-O2', '-std=c11', '-Wall', '-Wextra'];

/**
 * Link flags: a reactor (`_initialize` runs C constructors once, no `main`), the shadow stack below the
 * data so an overflow traps instead of overwriting globals, no name section. No `-O` at link time: with
 * one, clang runs whatever `wasm-opt` is on PATH, which makes the output depend on PATH.
 */
export const C_LINK_FLAGS = ['--target=wasm32-wasi', '-mexec-model=reactor', '-Wl,--stack-first', '-Wl,--strip-all'];

type CManifest = Extract<HookManifest, { lang: 'c' }>;

function clang(): string {
  const fromEnv = process.env[CLANG_ENV];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : 'clang';
}

function missing(detail: string, cause?: unknown): ToolchainMissingError {
  return new ToolchainMissingError('C', detail, C_TOOLCHAIN, cause === undefined ? {} : { cause });
}

async function run(args: readonly string[]): Promise<ToolRun> {
  try {
    return await runTool(clang(), args);
  } catch (error) {
    if (error instanceof ToolNotFound) throw missing(`\`${clang()}\` was not found`, error);
    throw error;
  }
}

/**
 * Can this clang build a wasm32-wasi reactor at all? Asked only after a compile or link failed, to tell
 * a missing sysroot, linker or runtime library (install the packages) from an error in the hook.
 */
async function probe(dir: string): Promise<string | undefined> {
  await writeFile(join(dir, 'probe.c'), '#include <string.h>\nint probe(const char *s) { return (int)strlen(s); }\n');
  const compiled = await run([...C_FLAGS, '-c', '-o', join(dir, 'probe.o'), join(dir, 'probe.c')]);
  if (!compiled.ok) return compiled.stderr;
  const linked = await run([...C_LINK_FLAGS, '-o', join(dir, 'probe.wasm'), join(dir, 'probe.o')]);
  return linked.ok ? undefined : linked.stderr;
}

async function failed(what: string, result: ToolRun, dir: string): Promise<never> {
  const broken = await probe(dir);
  if (broken !== undefined) {
    throw missing(`${clang()} cannot build for wasm32-wasi (${broken.trim().split('\n')[0] ?? 'no output'})`);
  }
  throw new KitError('build_failed', `${what} failed:\n${result.stderr.trim()}`);
}

/** Build a C hook's core module: clang compiles every source, then links a wasm32-wasi reactor. */
export async function buildCCore(dir: string, manifest: CManifest, steps: Steps): Promise<Uint8Array> {
  const version = await steps.run(`check ${clang()}`, async () => (await run(['--version'])).stdout.split('\n')[0]?.trim() ?? clang());
  const work = await mkdtemp(join(tmpdir(), 'basis-hooks-c-'));
  try {
    const includes = [...manifest.include.map((i) => `-I${join(dir, i)}`), ...(manifest.defines ?? []).map((d) => `-D${d}`)];
    const objects = await steps.run(`compile ${manifest.sources.join(', ')} (${version})`, async () => {
      const out: string[] = [];
      for (const [index, source] of manifest.sources.entries()) {
        const object = join(work, `${index}-${basename(source)}.o`);
        const result = await run([...C_FLAGS, ...includes, '-c', '-o', object, join(dir, source)]);
        if (!result.ok) await failed(`clang ${source}`, result, work);
        out.push(object);
      }
      return out;
    });
    return await steps.run('link a wasm32-wasi reactor', async () => {
      const core = join(work, 'core.wasm');
      const result = await run([...C_LINK_FLAGS, '-o', core, ...objects]);
      if (!result.ok) await failed('linking', result, work);
      return new Uint8Array(await readFile(core));
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
