/**
 * Builds the hand-written WAT guests (`guest-examples/wat/`) into components under
 * `guest-examples/wat/build/`: `npx tsx scripts/build-guests.ts wat`.
 *
 * A guest source holds only what is particular to it — its imports, its `$handle` function and its
 * strings. This builder assembles each into one core module:
 *   (module <the guest's imports> <static strings> <prelude.wat> <the guest's other fields>
 *           (export "basis:hook/handler@1.0.0#handle" (func $handle)) (export "cabi_post_…" …))
 * then embeds a WIT world and makes a component with jco's wasm-tools (scripts/guests/jco.ts).
 *
 * `(string $name "text")` at the top level of a source is this builder's one macro: the text is placed
 * in a data segment and the guest gets `(global $name i32)` (its address) and `(global $name.len i32)`.
 * Outputs are skipped when their stamp says the inputs (sources, WIT, this file, jco's version) have
 * not changed.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WIT_PATH, embedWorld, enableBuildFilesystem, newComponent, parseWat } from './jco.js';
import { inputsHash, isFresh, writeStamp } from './stamp.js';
import type { GuestBuildContext, GuestBuilder } from './types.js';
import { COMPONENT_BEHAVIOURS } from '../../test/conformance/behaviours.js';

/** WASI version of the WIT the WASI-using guests are embedded against (jco 1.35 bundles 0.2.12). */
const WASI_WIT_VERSION = '0.2.12';
const WASI_PACKAGES = ['wasi-cli', 'wasi-clocks', 'wasi-filesystem', 'wasi-io', 'wasi-random', 'wasi-sockets', 'wasi-http'];

/** How one output is made. */
interface WatGuest {
  /** Output path under `guest-examples/wat/build/`, without `.wasm`. */
  readonly out: string;
  /** Source under `guest-examples/wat/`. */
  readonly source: string;
  /** World in `guest-examples/wat/wit/guests.wit` to embed (default: `hook` from wit/hook.wit). */
  readonly world?: string;
  /** Version of `basis:hook` the guest is built against (default 1.0.0). */
  readonly hookVersion?: string;
  /** `core`: leave the core module as it is (a module that is not a component). */
  readonly kind?: 'component' | 'core';
  /** Initial linear memory in 64 KiB pages (default 1). */
  readonly initialPages?: number;
}

/** Conformance behaviours with a WAT guest (`silent` is not expressible: a component always returns). */
export const WAT_CONFORMANCE_BEHAVIOURS = COMPONENT_BEHAVIOURS;

/** The example policies (guest-examples/POLICIES.md) → `build/<policy>.wasm`. */
export const WAT_POLICIES = ['guard', 'redact'] as const;

const GUESTS: readonly WatGuest[] = [
  ...WAT_CONFORMANCE_BEHAVIOURS.map((b) => ({ out: `conformance/${b}`, source: `conformance/${b}.wat` })),
  { out: 'memory-bomb', source: 'misbehaviour/memory-bomb.wat' },
  { out: 'deep-recursion', source: 'misbehaviour/deep-recursion.wat' },
  { out: 'err', source: 'misbehaviour/err.wat' },
  { out: 'wrong-event', source: 'misbehaviour/wrong-event.wat' },
  { out: 'counter', source: 'misbehaviour/counter.wat' },
  { out: 'wasi-probe', source: 'misbehaviour/wasi-probe.wat', world: 'wasi-probe' },
  { out: 'stdio', source: 'misbehaviour/stdio.wat', world: 'stdio' },
  { out: 'sockets-import', source: 'misbehaviour/sockets-import.wat', world: 'sockets' },
  { out: 'http-import', source: 'misbehaviour/http-import.wat', world: 'http' },
  { out: 'handler-v2', source: 'conformance/allow.wat', hookVersion: '2.0.0' },
  { out: 'core-module', source: 'conformance/allow.wat', kind: 'core' },
  { out: 'big-initial-memory', source: 'conformance/allow.wat', initialPages: 1024 },
  ...WAT_POLICIES.map((p) => ({ out: p, source: `policies/${p}.wat` })),
];

/** Bytes that are not WebAssembly at all, for the garbage-bytes test. */
const GARBAGE = new TextEncoder().encode('this is not a WebAssembly component, just some text\n');

const STATIC_BASE = 1024;

/** Split WAT text into its top-level forms, skipping comments and whitespace between them. */
export function topLevelForms(text: string): string[] {
  const forms: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ';' && text[i + 1] === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '(' && text[i + 1] === ';') {
      let nest = 1;
      i += 2;
      while (i < text.length && nest > 0) {
        if (text[i] === '(' && text[i + 1] === ';') { nest++; i += 2; } else if (text[i] === ';' && text[i + 1] === ')') { nest--; i += 2; } else i++;
      }
      i--;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '(') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth < 0) throw new Error('unbalanced ")" in WAT');
      if (depth === 0) forms.push(text.slice(start, i + 1));
    }
  }
  if (depth !== 0) throw new Error('unbalanced "(" in WAT');
  return forms;
}

/** The bytes a WAT string literal's body (between the quotes) denotes. */
export function watStringBytes(body: string): Uint8Array {
  const out: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c !== '\\') {
      const cp = body.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      out.push(...utf8.encode(ch));
      i += ch.length - 1;
      continue;
    }
    const e = body[++i] ?? '';
    const simple: Record<string, number> = { t: 9, n: 10, r: 13, '"': 34, "'": 39, '\\': 92 };
    if (e in simple) out.push(simple[e] ?? 0);
    else if (e === 'u') {
      const close = body.indexOf('}', i);
      out.push(...utf8.encode(String.fromCodePoint(Number.parseInt(body.slice(i + 2, close), 16))));
      i = close;
    } else {
      out.push(Number.parseInt(body.slice(i, i + 2), 16));
      i++;
    }
  }
  return new Uint8Array(out);
}

/** Assemble a guest source and the prelude into one core module's WAT. */
export function assembleWat(prelude: string, source: string, options: { hookVersion: string; initialPages: number }): string {
  const imports: string[] = [];
  const fields: string[] = [];
  const statics: string[] = [];
  let offset = STATIC_BASE;
  for (const form of [...topLevelForms(prelude), ...topLevelForms(source)]) {
    if (/^\(import\b/.test(form)) {
      imports.push(form);
      continue;
    }
    const str = /^\(string\s+(\$[\w.]+)\s+"((?:[^"\\]|\\.)*)"\s*\)$/s.exec(form);
    if (str) {
      const [, name, body] = str;
      const length = watStringBytes(body ?? '').length;
      statics.push(`(data (i32.const ${offset}) "${body}")`, `(global ${name} i32 (i32.const ${offset}))`, `(global ${name}.len i32 (i32.const ${length}))`);
      offset += length;
      continue;
    }
    if (/^\(memory\b/.test(form)) {
      fields.push(`(memory (export "memory") ${options.initialPages})`);
      continue;
    }
    fields.push(form);
  }
  const staticEnd = (offset + 7) & ~7;
  const handle = `basis:hook/handler@${options.hookVersion}#handle`;
  return [
    '(module',
    ...imports,
    ...statics,
    `(global $__static_end i32 (i32.const ${staticEnd}))`,
    ...fields,
    `(export "${handle}" (func $handle))`,
    `(export "cabi_post_${handle}" (func $post_return))`,
    ')',
  ].join('\n');
}

/** A WIT directory holding the WAT guests' extra worlds, with basis:hook and WASI as dependencies. */
async function prepareWitDir(root: string, buildDir: string): Promise<string> {
  const jco = await import('@bytecodealliance/jco');
  const wasiWit = join(dirname(fileURLToPath(jco.preview1AdapterReactorPath())), 'wit/builtin', WASI_WIT_VERSION);
  const dir = join(buildDir, 'wit');
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'deps/basis-hook'), { recursive: true });
  await cp(join(root, 'guest-examples/wat/wit/guests.wit'), join(dir, 'guests.wit'));
  await writeFile(join(dir, 'deps/basis-hook/hook.wit'), await readFile(WIT_PATH, 'utf8'));
  for (const pkg of WASI_PACKAGES) await cp(join(wasiWit, pkg), join(dir, 'deps', pkg), { recursive: true });
  return dir;
}

async function buildOne(guest: WatGuest, context: GuestBuildContext, srcDir: string, buildDir: string, witDir: () => Promise<string>): Promise<void> {
  const output = join(buildDir, `${guest.out}.wasm`);
  const source = join(srcDir, guest.source);
  const prelude = join(srcDir, 'prelude.wat');
  const jcoVersion = JSON.parse(await readFile(join(context.root, 'node_modules/@bytecodealliance/jco/package.json'), 'utf8')) as { version: string };
  const inputs = [source, prelude, fileURLToPath(import.meta.url), WIT_PATH, join(srcDir, 'wit/guests.wit')];
  const hash = await inputsHash(inputs, [JSON.stringify(guest), jcoVersion.version]);
  if (!context.force && (await isFresh(output, hash))) return;

  const hookVersion = guest.hookVersion ?? '1.0.0';
  const wat = assembleWat(await readFile(prelude, 'utf8'), await readFile(source, 'utf8'), { hookVersion, initialPages: guest.initialPages ?? 1 });
  let core: Uint8Array;
  try {
    core = await parseWat(wat);
  } catch (error) {
    throw new Error(`${guest.source}: ${String(error)}`, { cause: error });
  }
  let bytes: Uint8Array;
  if (guest.kind === 'core') {
    bytes = core;
  } else if (guest.world !== undefined) {
    const jco = await import('@bytecodealliance/jco');
    const embedded = await jco.componentEmbed({ binary: core, witPath: await witDir(), world: guest.world, stringEncoding: 'utf8' });
    bytes = await newComponent(embedded);
  } else if (hookVersion !== '1.0.0') {
    const wit = (await readFile(WIT_PATH, 'utf8')).replaceAll('@1.0.0', `@${hookVersion}`);
    bytes = await newComponent(await embedWorld(core, wit));
  } else {
    bytes = await newComponent(await embedWorld(core));
  }
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, bytes);
  await writeStamp(output, hash);
  context.log(`built ${guest.out}.wasm (${bytes.length} bytes)`);
}

const builder: GuestBuilder = {
  name: 'wat',
  async build(context) {
    const srcDir = join(context.root, 'guest-examples/wat');
    const buildDir = join(srcDir, 'build');
    await mkdir(buildDir, { recursive: true });
    let wit: Promise<string> | undefined;
    const witDir = (): Promise<string> => {
      wit ??= enableBuildFilesystem().then(() => prepareWitDir(context.root, buildDir));
      return wit;
    };
    for (const guest of GUESTS) await buildOne(guest, context, srcDir, buildDir, witDir);
    await writeFile(join(buildDir, 'garbage.wasm'), GARBAGE);
  },
};

export default builder;
