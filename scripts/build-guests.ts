/**
 * Build the repository's guests from source with the authoring kit (the code behind
 * `basis-hooks build`): `npm run build-guests [-- <group>...] [--force] [--update-prebuilt]`.
 *
 * Groups: wat, js, ts, rust, c, assemblyscript (default: all). Every guest is listed in
 * scripts/guests/catalog.ts; unchanged ones are skipped by content-hash stamps. Without clang or
 * Debian's rustc the C and Rust groups use their committed prebuilt copies (a test fails when those
 * drift from the sources) unless BASIS_HOOKS_REQUIRE_TOOLCHAINS=1, as in CI. `--update-prebuilt`
 * (with c and/or rust) rebuilds those groups and refreshes their prebuilt copies.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildGroup } from './guests/build.js';
import { GUEST_GROUPS, PREBUILT_DIR, type GuestGroup } from './guests/catalog.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false }, 'update-prebuilt': { type: 'boolean', default: false } },
});

const isGroup = (name: string): name is GuestGroup => (GUEST_GROUPS as readonly string[]).includes(name);
const unknown = positionals.filter((p) => !isGroup(p));
if (unknown.length > 0) {
  process.stderr.write(`build-guests: unknown group ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${GUEST_GROUPS.join(', ')})\n`);
  process.exit(2);
}
const updatePrebuilt = values['update-prebuilt'] === true;
const wanted = positionals.length > 0 ? positionals.filter(isGroup) : GUEST_GROUPS.filter((g) => !updatePrebuilt || PREBUILT_DIR[g] !== undefined);
const withoutPrebuilt = wanted.filter((g) => PREBUILT_DIR[g] === undefined);
if (updatePrebuilt && withoutPrebuilt.length > 0) {
  process.stderr.write(`build-guests: --update-prebuilt: ${withoutPrebuilt.join(', ')} ha${withoutPrebuilt.length === 1 ? 's' : 've'} no prebuilt copies (only ${Object.keys(PREBUILT_DIR).join(', ')})\n`);
  process.exit(2);
}

/**
 * Two chains run side by side, one per core. The first builds in this process (SpiderMonkey even
 * changes the working directory, so its groups go one after the other). The second — C and Rust,
 * whose compilers are child processes with absolute paths, then AssemblyScript, whose compiler runs
 * in-process — runs in a child process of its own: 37 s on one chain, ~25 s on two.
 */
const SECOND_CHAIN: readonly GuestGroup[] = ['rust', 'c', 'assemblyscript'];
/** Set for the child running the second chain: the total time is the parent's to print. */
const CHILD_ENV = 'BASIS_HOOKS_BUILD_GUESTS_CHILD';

async function chain(groups: readonly GuestGroup[]): Promise<void> {
  for (const group of groups) {
    const started = Date.now();
    const log = (message: string): void => {
      process.stderr.write(`[${group}] ${message}\n`);
    };
    await buildGroup(group, { force: values.force === true, updatePrebuilt, log });
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** This script again, for `groups`, with the same flags and loader (tsx's, in `execArgv`). */
function childChain(groups: readonly GuestGroup[]): Promise<void> {
  const flags = [...(values.force === true ? ['--force'] : []), ...(updatePrebuilt ? ['--update-prebuilt'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...groups, ...flags], { stdio: 'inherit', env: { ...process.env, [CHILD_ENV]: '1' } });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`building ${groups.join(', ')} failed (${code === null ? `signal ${signal}` : `exit ${code}`})`));
    });
  });
}

/** An error as `Name (code): message`: the kit's errors say which failure it is by name and code. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` (${code})` : ''}: ${error.message}`;
}

const started = Date.now();
const first = wanted.filter((g) => !SECOND_CHAIN.includes(g));
const second = wanted.filter((g) => SECOND_CHAIN.includes(g));
const results = await Promise.allSettled([chain(first), first.length > 0 && second.length > 0 ? childChain(second) : chain(second)]);
const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
if (failed.length > 0) {
  for (const error of failed) process.stderr.write(`build-guests: ${describe(error)}\n`);
  process.exit(1);
}
if (wanted.length > 1 && process.env[CHILD_ENV] === undefined) process.stderr.write(`build-guests: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
