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
 * Two chains run side by side: the compilers of C and Rust are child processes with absolute paths,
 * while the other groups build in this process — SpiderMonkey even changes the working directory —
 * so each chain is sequential and only the two chains overlap, which keeps both cores busy.
 */
const OUT_OF_PROCESS: readonly GuestGroup[] = ['rust', 'c'];

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

const started = Date.now();
await Promise.all([chain(wanted.filter((g) => !OUT_OF_PROCESS.includes(g))), chain(wanted.filter((g) => OUT_OF_PROCESS.includes(g)))]);
if (wanted.length > 1) process.stderr.write(`build-guests: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
