/**
 * The layers of test/layers.ts hold every test file exactly once, and a `unit` file does not, on its
 * face, start a process, a worker or a built guest.
 *
 * The unit check here is static and cheap: a unit file's own text must not import `child_process` or
 * `worker_threads`, ask for worker isolation, read the built `dist/`, name node's binary
 * (`process.execPath`, how a test gives a subprocess hook its command), or call a test helper that
 * spawns (the CLI, an MCP server or gateway, an agent client) or builds or loads guests. It reads the file, not what it imports: the
 * helpers those names come from also export plain constants that unit files use (`ROOT`), and host/
 * imports child_process for every user of the subprocess transport. What text cannot show (a hook
 * config whose `command` the runner spawns, a library call that starts a worker) the unit project's
 * setup file catches when the file runs: there those calls throw and fail the file
 * (test/setup/unit-guard.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYERS, UNIT } from './layers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEST = join(ROOT, 'test');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

/** What a unit file must not do, as its text shows it. */
const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/from\s*['"](node:)?child_process['"]|import\(\s*['"](node:)?child_process['"]/, 'imports child_process'],
  [/from\s*['"](node:)?worker_threads['"]|import\(\s*['"](node:)?worker_threads['"]/, 'imports worker_threads'],
  [/isolation:\s*['"]worker['"]/, 'asks for worker isolation'],
  [/join\([^)]*['"]dist['"/]|['"](\.\.\/)+dist\//, 'reads the built dist/ (the unit layer does not rebuild it first)'],
  [/process\.execPath/, 'gives a command node’s binary (process.execPath)'],
  [/\b(runCli|runWith|ProcessTransport|startProcess|httpGateway|everythingHttp|modernHttp|gatewayArgv|connectDirect)\b/, 'calls a helper that starts a process (the CLI, an MCP server or gateway, an agent client)'],
  [/\b(kit|hookArgv|shHook)\(/, 'calls a helper that starts a process (the kit\'s CLI, a hook script)'],
  [/\b(ensureGuestsBuilt|ensureWatGuestsBuilt|watGuest|guestBuildDir|WAT_CONFORMANCE_DIR|TEST_CACHE_DIR|buildCGuest|watFixtureComponent|componentFixture|hostileGuest|everythingComponent|jsGuestSuite|runJsConformance|ensureOpsGuests|ensurePolicyGuests|watBehaviour)\b/, 'builds or loads guests'],
];

const SELF = relative(ROOT, fileURLToPath(import.meta.url));

describe('test layers (test/layers.ts)', () => {
  it('holds every test file in exactly one layer, and names no file that does not exist', () => {
    const files = testFiles(TEST).sort();
    const where = new Map<string, string[]>();
    for (const [layer, list] of Object.entries(LAYERS)) for (const file of list) where.set(file, [...(where.get(file) ?? []), layer]);
    const unlisted = files.filter((f) => !where.has(f));
    const twice = [...where].filter(([, layers]) => layers.length > 1).map(([f, layers]) => `${f} (${layers.join(', ')})`);
    const missing = [...where.keys()].filter((f) => !files.includes(f));
    expect({ unlisted, twice, missing }, 'every test file goes in exactly one list of test/layers.ts (its header says which)').toStrictEqual({ unlisted: [], twice: [], missing: [] });
  });

  it('has no unit file that, on its face, starts a process, a worker or a built guest', () => {
    const offences = UNIT.filter((file) => file !== SELF).flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${file}: ${what}`);
    });
    expect(offences, 'a unit file starts nothing: list these under INTEGRATION or E2E in test/layers.ts').toStrictEqual([]);
  });
});
