/**
 * Builds the AssemblyScript guests (`guest-examples/assemblyscript/`) into components under
 * `guest-examples/assemblyscript/build/`: `npx tsx scripts/build-guests.ts assemblyscript`.
 *
 * Each guest is compiled in-process with the `assemblyscript` npm package (`asc -O3 --runtime
 * incremental --use abort=`: an abort traps instead of importing `env.abort`, so the core module imports
 * nothing), with the glue's asc transform (`glue/export-names.mjs`) giving the exports their
 * component-model names; then the `basis:hook` world is embedded and `jco new` wraps it. The
 * conformance guests are one source compiled once per behaviour with `--use BEHAVIOUR=<index>`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, WIT_PATH, embedWorld, newComponent } from './jco.js';
import { inputsHash, isFresh, writeStamp } from './stamp.js';
import type { GuestBuildContext, GuestBuilder } from './types.js';
import { COMPILED_GUEST_BEHAVIOURS } from '../../test/conformance/behaviours.js';

/** Conformance behaviours with an AssemblyScript guest, in the order of the constants in src/conformance.ts. */
export const AS_CONFORMANCE_BEHAVIOURS = COMPILED_GUEST_BEHAVIOURS;

/** asc flags of every guest (besides the entry file, the transform and `--use BEHAVIOUR`). */
export const ASC_FLAGS = ['-O3', '--runtime', 'incremental', '--use', 'abort='] as const;

export const AS_DIR = join(ROOT, 'guest-examples/assemblyscript');
export const AS_BUILD_DIR = join(AS_DIR, 'build');
const GLUE = ['glue/hook.ts', 'glue/export-names.mjs'];
const TRANSFORM = join(AS_DIR, 'glue/export-names.mjs');

interface AsGuest {
  /** Output path without `.wasm`, relative to `build/`. */
  readonly out: string;
  /** Entry file, relative to `guest-examples/assemblyscript/`. */
  readonly source: string;
  /** Extra asc arguments. */
  readonly args: readonly string[];
}

const GUESTS: readonly AsGuest[] = [
  { out: 'guard', source: 'src/guard.ts', args: [] },
  { out: 'redact', source: 'src/redact.ts', args: [] },
  ...AS_CONFORMANCE_BEHAVIOURS.map((b, index) => ({ out: `conformance/${b}`, source: 'src/conformance.ts', args: ['--use', `BEHAVIOUR=${index}`] })),
];

/** The subset of `assemblyscript/asc` this builder uses. */
interface Asc {
  main(
    argv: string[],
    options: { writeFile(name: string, contents: Uint8Array | string, baseDir: string): void; stdout: Sink; stderr: Sink },
  ): Promise<{ error: Error | null }>;
  createMemoryStream(): Sink;
}
interface Sink {
  write(chunk: Uint8Array | string): void;
  toString(): string;
}

async function loadAsc(): Promise<Asc> {
  try {
    return ((await import('assemblyscript/asc')) as unknown as { default: Asc }).default;
  } catch (error) {
    throw new Error('AssemblyScript guests need the npm package `assemblyscript` (a devDependency): run `npm install`', { cause: error });
  }
}

/** asc → core module bytes (nothing is written to disk). */
async function compile(asc: Asc, guest: AsGuest): Promise<Uint8Array> {
  let binary: Uint8Array | undefined;
  const stdout = asc.createMemoryStream();
  const stderr = asc.createMemoryStream();
  const { error } = await asc.main(
    [join(AS_DIR, guest.source), ...ASC_FLAGS, ...guest.args, '--transform', TRANSFORM, '--outFile', 'out.wasm'],
    {
      stdout,
      stderr,
      writeFile(name, contents) {
        if (name.endsWith('.wasm') && typeof contents !== 'string') binary = contents;
      },
    },
  );
  if (error !== null || binary === undefined) {
    throw new Error(`asc failed for ${guest.out}: ${error?.message ?? 'no binary emitted'}\n${stderr.toString()}`, { cause: error });
  }
  return binary;
}

async function buildOne(asc: () => Promise<Asc>, guest: AsGuest, context: GuestBuildContext, versions: readonly string[]): Promise<void> {
  const output = join(AS_BUILD_DIR, `${guest.out}.wasm`);
  const inputs = [join(AS_DIR, guest.source), ...GLUE.map((g) => join(AS_DIR, g)), WIT_PATH, fileURLToPath(import.meta.url)];
  const hash = await inputsHash(inputs, [ASC_FLAGS.join(' '), guest.args.join(' '), ...versions]);
  if (!context.force && (await isFresh(output, hash))) return;
  const core = await compile(await asc(), guest);
  const component = await newComponent(await embedWorld(core));
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, component);
  await writeStamp(output, hash);
  context.log(`built ${guest.out}.wasm (${component.length} bytes)`);
}

/** An installed package's version, or `missing` (then the build fails with loadAsc's message). */
async function packageVersion(root: string, name: string): Promise<string> {
  try {
    return (JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'missing';
  }
}

const builder: GuestBuilder = {
  name: 'assemblyscript',
  async build(context) {
    const versions = await Promise.all(['assemblyscript', '@bytecodealliance/jco'].map((name) => packageVersion(context.root, name)));
    // Loading asc (and its binaryen) takes seconds: only when something is out of date.
    let asc: Promise<Asc> | undefined;
    const lazyAsc = (): Promise<Asc> => (asc ??= loadAsc());
    for (const guest of GUESTS) await buildOne(lazyAsc, guest, context, versions);
  },
};

export default builder;
