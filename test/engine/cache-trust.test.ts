/**
 * The cache cannot run what the host did not write: every file is verified against the sha256 the
 * host recorded when it wrote it, a bad entry is rebuilt, a directory others can write is refused,
 * and an unusable directory falls back to memory with exactly one warning — never a hang.
 */
import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { CACHE_WARNING_CODE } from '../../host/engine/cache/cache-dir.js';
import { WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt, ROOT } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

const DENY = join(WAT_CONFORMANCE_DIR, 'deny.wasm');
const HANG = join(WAT_CONFORMANCE_DIR, 'hang.wasm');
const isRoot = process.getuid?.() === 0;

const dirs: string[] = [];
const transports: ComponentTransport[] = [];
beforeAll(async () => {
  await ensureWatGuestsBuilt();
});
afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'basis-cache-trust-'));
  dirs.push(dir);
  return join(dir, 'cache');
}

function open(path: string, cacheDir: string, extra: Partial<Parameters<typeof componentTransport>[0]> = {}): ComponentTransport {
  const t = componentTransport({ path, cache_dir: cacheDir, ...extra });
  transports.push(t);
  return t;
}

/** Collect this process's cache warnings while `fn` runs. */
async function warningsDuring(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (warning: Error & { code?: string }): void => {
    if (warning.code === CACHE_WARNING_CODE) seen.push(warning.message);
  };
  process.on('warning', listener);
  try {
    await fn();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

describe('cache entries are verified and rebuilt', () => {
  it('records the sha256 of every file it writes, and keeps the entry private (0700 / 0600)', async () => {
    const cacheDir = await freshDir();
    const info = await open(DENY, cacheDir).load();
    const manifest = JSON.parse(await readFile(join(info.cache_entry, 'manifest.json'), 'utf8')) as { files: Record<string, string>; modules: string[] };
    expect(Object.keys(manifest.files).sort()).toEqual(['hook.mjs', ...manifest.modules].sort());
    for (const hash of Object.values(manifest.files)) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const { stat } = await import('node:fs/promises');
    expect((await stat(info.cache_entry)).mode & 0o077).toBe(0);
    expect((await stat(join(info.cache_entry, 'hook.mjs'))).mode & 0o077).toBe(0);
  });

  it('edited glue is never executed: the entry is rebuilt from the component', async () => {
    const cacheDir = await freshDir();
    const info = await open(DENY, cacheDir).load();
    const glueFile = join(info.cache_entry, 'hook.mjs');
    const original = await readFile(glueFile, 'utf8');
    await writeFile(glueFile, `globalThis.__basisCachePwned = true;\n${original}`);

    const again = open(DENY, cacheDir);
    const reloaded = await again.load();
    expect(reloaded.cache_hit).toBe(false);
    expect(await again.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { decision: 'deny' } });
    expect((globalThis as { __basisCachePwned?: unknown }).__basisCachePwned).toBeUndefined();
    expect(await readFile(glueFile, 'utf8')).toBe(original);
  });

  it.each([
    ['truncated', async (file: string) => truncate(file, 8)],
    ['missing', async (file: string) => rm(file)],
    ['altered', async (file: string) => writeFile(file, Buffer.concat([await readFile(file), Buffer.from([0])]))],
  ])('a core module that is %s is rebuilt, and the hook works', async (_what, damage) => {
    const cacheDir = await freshDir();
    const info = await open(DENY, cacheDir, { isolation: 'worker' }).load();
    const module = (await readdir(info.cache_entry)).find((f) => f.endsWith('.wasm')) ?? '';
    const good = await readFile(join(info.cache_entry, module));
    await damage(join(info.cache_entry, module));

    const again = open(DENY, cacheDir, { isolation: 'worker', memory_mb: 32 });
    expect((await again.load()).cache_hit).toBe(false);
    expect(await again.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { decision: 'deny' } });
    expect(await readFile(join(info.cache_entry, module))).toEqual(good);
  });

  it('an entry directory others can write is not trusted: rebuilt, private again', async () => {
    const cacheDir = await freshDir();
    const info = await open(DENY, cacheDir).load();
    await chmod(info.cache_entry, 0o777);
    const again = open(DENY, cacheDir, { memory_mb: 16 });
    expect((await again.load()).cache_hit).toBe(false);
    const { stat } = await import('node:fs/promises');
    expect((await stat(info.cache_entry)).mode & 0o077).toBe(0);
  });

  it('a fuel-stripped instrumented module is not run: it is instrumented again, and a runaway still stops', async () => {
    const cacheDir = await freshDir();
    const info = await open(HANG, cacheDir, { timeout_ms: 100 }).load();
    expect(info.metering).toBeDefined();
    const meteredDir = (await readdir(info.cache_entry)).find((f) => f.startsWith('metered-')) ?? '';
    expect(meteredDir).not.toBe('');
    const stripped: string[] = [];
    for (const name of await readdir(join(info.cache_entry, meteredDir))) {
      if (!name.endsWith('.wasm')) continue;
      // The transpiled module: the same code without the fuel checks.
      await writeFile(join(info.cache_entry, meteredDir, name), await readFile(join(info.cache_entry, name)));
      stripped.push(name);
    }
    expect(stripped.length).toBeGreaterThan(0);

    // Another memory cap, so this process compiles again rather than reusing what it compiled.
    const again = open(HANG, cacheDir, { timeout_ms: 100, memory_mb: 16 });
    const reloaded = await again.load();
    expect(reloaded.cache_hit).toBe(true);
    // Only invoke when the stripped modules were refused: an unmetered loop would hold this thread for ever.
    expect(reloaded.metering?.cache_hit).toBe(false);
    expect(await again.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    for (const name of stripped) {
      expect(await readFile(join(info.cache_entry, meteredDir, name))).not.toEqual(await readFile(join(info.cache_entry, name)));
    }
  });
});

describe('the cache directory must be private, usable, and never hang', () => {
  it('a directory its group or others can write is refused: memory, exactly one warning naming BASIS_HOOKS_CACHE_DIR', async () => {
    const cacheDir = await freshDir();
    await mkdir(cacheDir, { mode: 0o700 });
    await chmod(cacheDir, 0o775);
    const warnings = await warningsDuring(async () => {
      for (const memory_mb of [16, 32, 48]) {
        const t = open(DENY, cacheDir, { memory_mb });
        const info = await t.load();
        expect(info.cache_entry.startsWith('memory:')).toBe(true);
        expect(await t.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { decision: 'deny' } });
      }
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('BASIS_HOOKS_CACHE_DIR');
    expect(warnings[0]).toContain('writable by its group');
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it.skipIf(!isRoot)('a directory owned by another user is refused (as root)', async () => {
    const cacheDir = await freshDir();
    await mkdir(cacheDir, { mode: 0o700 });
    await chown(cacheDir, 4242, 4242);
    const warnings = await warningsDuring(async () => {
      expect((await open(DENY, cacheDir).load()).cache_entry.startsWith('memory:')).toBe(true);
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('owned by uid 4242');
  });

  it('a path that cannot be a directory (under a file) falls back to memory with one warning', async () => {
    const base = await freshDir();
    await mkdir(base, { recursive: true });
    await writeFile(join(base, 'file'), 'x');
    const warnings = await warningsDuring(async () => {
      const t = open(DENY, join(base, 'file', 'cache'));
      expect((await t.load()).cache_entry.startsWith('memory:')).toBe(true);
    });
    expect(warnings).toHaveLength(1);
  });
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

function runNode(args: readonly string[], options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), ms: performance.now() - started });
    });
  });
}

describe('through the CLI', () => {
  let config: string;
  beforeAll(async () => {
    const dir = await freshDir();
    await mkdir(dir, { recursive: true });
    await chmod(join(dir, '..'), 0o755); // readable by an unprivileged user too
    config = join(dir, 'hooks.json');
    await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'g', event: 'pre_tool_use', component: DENY }] }));
    await chmod(dir, 0o755);
    await chmod(config, 0o644);
  });

  it('BASIS_HOOKS_CACHE_DIR=/proc/x: check does not hang; it passes, with one warning', async () => {
    const result = await runNode([join(ROOT, 'dist/cli/main.js'), 'check', '--config', config], { env: { BASIS_HOOKS_CACHE_DIR: '/proc/x' }, timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok\s+g/);
    expect(result.stderr.match(/BASIS_HOOKS_CACHE_DIR/g)).toHaveLength(1);
    expect(result.stderr).toContain('/proc/x');
  });

  it('an unwritable cache directory: run works from memory with one warning', async (ctx) => {
    // As root the CLI runs as nobody, who must be able to reach the package: a clone inside a 0700
    // directory (mktemp -d) is out of its reach, which says nothing about the cache.
    if (isRoot) {
      const probe = await runNode(['-e', `require('fs').accessSync(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))}, require('fs').constants.R_OK)`], { uid: 65534, gid: 65534, timeoutMs: 30_000 });
      if (probe.code !== 0) ctx.skip(`the unprivileged user cannot read ${ROOT} (a parent directory is not searchable by others)`);
    }
    const cacheDir = await freshDir();
    await mkdir(cacheDir, { mode: 0o755 });
    await chmod(join(cacheDir, '..'), 0o755);
    // As root every directory is writable: run the CLI as nobody instead, on a root-owned directory.
    const asNobody = isRoot ? { uid: 65534, gid: 65534 } : {};
    if (!isRoot) await chmod(cacheDir, 0o500);
    const calls = join(config, '..', 'calls.jsonl');
    await writeFile(calls, '{"event":"pre_tool_use","workspace":"/","agent_id":"a","tool_call_id":"c1","tool_name":"shell","input":{}}\n');
    await chmod(calls, 0o644);
    const result = await runNode([join(ROOT, 'dist/cli/main.js'), 'run', '--config', config, '--calls', calls], {
      env: { BASIS_HOOKS_CACHE_DIR: cacheDir, HOME: '/nonexistent' },
      timeoutMs: 60_000,
      ...asNobody,
    });
    expect(result.stderr.match(/BASIS_HOOKS_CACHE_DIR/g), result.stderr).toHaveLength(1);
    expect(result.stderr).toContain('not writable');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"decision":"deny"');
  });
});
