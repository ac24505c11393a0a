import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KitError } from '../errors/kit-error.js';
import type { HookManifest } from '../manifest.js';
import type { Steps } from './progress.js';
import { parseWat } from './wasm-tools.js';

/*
 * WebAssembly text hooks. A source holds only what is particular to the guest — its imports, its
 * `$handle` function and its strings; the build assembles it with an optional prelude (the ABI
 * helpers guests share, e.g. guest-examples/wat/prelude.wat) into one core module:
 *   (module <imports> <static strings> <prelude and source fields>
 *           (export "basis:hook/handler@1.0.0#handle" (func $handle)) (export "cabi_post_…" (func $post_return)))
 * `(string $name "text")` at the top level is the one macro: the text goes into a data segment at
 * 1024 and up, and the guest gets `(global $name i32)` (its address) and `(global $name.len i32)`;
 * `$__static_end` is the first free byte after them. A `(memory ...)` field becomes the exported memory.
 */

type WatManifest = Extract<HookManifest, { lang: 'wat' }>;

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
        if (text[i] === '(' && text[i + 1] === ';') {
          nest++;
          i += 2;
        } else if (text[i] === ';' && text[i + 1] === ')') {
          nest--;
          i += 2;
        } else i++;
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

/** How {@link assembleWat} lays the module out. */
export interface AssembleOptions {
  /** The `basis:hook` version in the handler's export names (default 1.0.0). */
  readonly hookVersion?: string;
  /** Initial linear memory in 64 KiB pages (default 1). */
  readonly initialPages?: number;
}

/** Assemble a guest source and a prelude into one core module's WAT. */
export function assembleWat(prelude: string, source: string, options: AssembleOptions = {}): string {
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
      fields.push(`(memory (export "memory") ${options.initialPages ?? 1})`);
      continue;
    }
    fields.push(form);
  }
  const staticEnd = (offset + 7) & ~7;
  const handle = `basis:hook/handler@${options.hookVersion ?? '1.0.0'}#handle`;
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

/** Assemble and parse a WAT hook's core module. */
export async function buildWatCore(dir: string, manifest: WatManifest, steps: Steps, options: AssembleOptions = {}): Promise<Uint8Array> {
  return steps.run(`assemble ${manifest.prelude === undefined ? manifest.source : `${manifest.prelude} + ${manifest.source}`}`, async () => {
    const prelude = manifest.prelude === undefined ? '' : await readFile(join(dir, manifest.prelude), 'utf8');
    let text: string;
    try {
      text = assembleWat(prelude, await readFile(join(dir, manifest.source), 'utf8'), options);
      return await parseWat(text);
    } catch (error) {
      throw new KitError('build_failed', `${manifest.source}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  });
}
