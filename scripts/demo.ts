/**
 * The demo: `npm run demo` runs a short agent session — examples/demo/calls.jsonl —
 * through the hooks of examples/demo/hooks.json with the real `basis-hooks` CLI, and shows every
 * kind of decision: allow, deny, modify, replace, a deny after the call, and a failing hook under
 * each failure policy. `npm run demo -- --json` prints the outcome JSON lines only (for machines).
 *
 * Hooks are plain entries of the config: adding one (a subprocess in any language, or a WebAssembly
 * component) needs no change here, only a hook entry and the calls that exercise it.
 *
 * A first run builds only what the demo uses: the library (dist/, when a source is newer than it —
 * `npm install` already built it) and the components the config names (by the guest catalog, with the
 * authoring kit; skipped when their stamps are fresh). Build progress goes to stderr.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { libraryIsFresh } from './build.mjs';
import { buildGuests } from './guests/build.js';
import { GUEST_GROUPS, GUESTS, type Guest } from './guests/catalog.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = 'dist/cli/main.js';
const CONFIG = 'examples/demo/hooks.json';
const CALLS = 'examples/demo/calls.jsonl';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const json = values.json === true;

function buildLibrary(): Promise<number> {
  return new Promise((done, reject) => {
    // Its output is progress: stderr, so `--json` keeps stdout for the outcome lines.
    const child = spawn(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: ['ignore', process.stderr, 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => done(code ?? 1));
  });
}

/** Build the library unless it was built from the sources as they are (`npm install` leaves it fresh). */
async function ensureLibrary(): Promise<void> {
  if (libraryIsFresh()) return;
  process.stderr.write('demo: building the library (npm run build)\n');
  const code = await buildLibrary();
  if (code !== 0) process.exit(code);
}

/** Build the components the demo's config uses, and nothing else. */
async function ensureComponents(): Promise<void> {
  const config = JSON.parse(readFileSync(join(ROOT, CONFIG), 'utf8')) as { hooks: Array<{ component?: string }> };
  const wanted = config.hooks.flatMap((h) => (h.component === undefined ? [] : [resolve(ROOT, dirname(CONFIG), h.component)]));
  const all = GUEST_GROUPS.flatMap((g) => GUESTS[g]);
  const guests: Guest[] = [];
  for (const path of wanted) {
    const guest = all.find((g) => g.out === path);
    if (guest === undefined) {
      process.stderr.write(`demo: ${relative(ROOT, path)} is not a guest the repository builds (scripts/guests/catalog.ts)\n`);
      process.exit(2);
    }
    guests.push(guest);
  }
  for (const group of GUEST_GROUPS) {
    const mine = guests.filter((g) => g.group === group);
    await buildGuests(group, mine, { force: false, log: (message) => process.stderr.write(`demo: [${group}] ${message}\n`) });
  }
}

await ensureLibrary();
await ensureComponents();

/** Run the CLI from the repository root, its output straight to ours; resolve to its exit code. */
function cli(args: readonly string[]): Promise<number> {
  if (!json) process.stdout.write(`\n$ basis-hooks ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

if (json) {
  process.exitCode = await cli(['run', '--config', CONFIG, '--calls', CALLS]);
} else {
  process.stdout.write(
    'basis-hooks demo: an agent session run through WebAssembly component hooks (JavaScript, sandboxed)\n' +
      'and subprocess hooks written in sh, Node and Python, in one chain.\n' +
      `Config: ${CONFIG}; calls: ${CALLS}.\n`,
  );
  const checked = await cli(['check', '--config', CONFIG]);
  const ran = await cli(['run', '--config', CONFIG, '--calls', CALLS, '--table']);
  process.stdout.write(
    '\nmodify/replace reasons reach the audit trail only; a deny reason is what the model reads.\n' +
      'deploy-gate crashes and fails closed (on_failure deny); audit-log times out and fails open (on_failure allow).\n',
  );
  process.exitCode = checked !== 0 ? checked : ran;
}
