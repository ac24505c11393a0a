/**
 * Load-failure fixtures made from the WAT allow guest with the kit's own steps (assemble, parse,
 * embed, `jco new`), each a variation no hook author would build on purpose:
 * - `handler-v2`: exports `basis:hook/handler@2.0.0` (a major version the host refuses);
 * - `core-module`: the core module, never made a component;
 * - `big-initial-memory`: 64 MiB of initial memory (over a small `memory_mb` cap);
 * - `garbage`: text, not WebAssembly at all.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { componentFromCore, parseWat } from '../../host/kit/build/wasm-tools.js';
import { assembleWat, type AssembleOptions } from '../../host/kit/build/wat.js';
import type { BuildContext } from './build.js';
import { GUEST_DIR, ROOT, buildDir } from './catalog.js';
import { isFresh, writeStamp } from './stamp.js';

/** The fixture names, for the tests: `guest-examples/wat/build/<name>.wasm`. */
export const WAT_FIXTURES = ['handler-v2', 'core-module', 'big-initial-memory', 'garbage'] as const;

const GARBAGE = new TextEncoder().encode('this is not a WebAssembly component, just some text\n');

interface Fixture {
  readonly name: (typeof WAT_FIXTURES)[number];
  readonly assemble?: AssembleOptions;
  readonly make: (core: Uint8Array, wit: string) => Promise<Uint8Array>;
}

const FIXTURES: readonly Fixture[] = [
  {
    name: 'handler-v2',
    assemble: { hookVersion: '2.0.0' },
    make: async (core, wit) => (await componentFromCore(core, { witSource: wit.replaceAll('@1.0.0', '@2.0.0') })).component,
  },
  { name: 'core-module', make: async (core) => core },
  { name: 'big-initial-memory', assemble: { initialPages: 1024 }, make: async (core, wit) => (await componentFromCore(core, { witSource: wit })).component },
  { name: 'garbage', make: async () => GARBAGE },
];

/** Build the fixtures whose inputs changed. */
export async function buildWatFixtures(context: BuildContext): Promise<void> {
  const dir = GUEST_DIR.wat;
  const prelude = await readFile(join(dir, 'prelude.wat'), 'utf8');
  const allow = await readFile(join(dir, 'conformance/allow.wat'), 'utf8');
  const wit = await readFile(join(ROOT, 'wit/hook.wit'), 'utf8');
  const kit = await Promise.all(['host/kit/build/wat.ts', 'host/kit/build/wasm-tools.ts', 'scripts/guests/fixtures.ts'].map((f) => readFile(join(ROOT, f))));
  for (const fixture of FIXTURES) {
    const out = join(buildDir('wat'), `${fixture.name}.wasm`);
    const hash = createHash('sha256');
    for (const part of [prelude, allow, wit, JSON.stringify(fixture.assemble ?? {}), fixture.name, ...kit]) hash.update(part);
    const digest = hash.digest('hex');
    if (!context.force && (await isFresh(out, digest))) continue;
    const core = await parseWat(assembleWat(prelude, allow, fixture.assemble));
    const bytes = await fixture.make(core, wit);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, bytes);
    await writeStamp(out, digest);
    context.log(`built ${fixture.name}.wasm (${bytes.byteLength} bytes)`);
  }
}
