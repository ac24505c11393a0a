import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { HookEvent } from '../contract/event.js';
import { KitError } from './errors/kit-error.js';
import { DEFAULT_JS_ENGINE, DEFAULT_RUST_FLAVOUR, type JsEngine, type Language, type RustFlavour } from './languages.js';
import { HookName, type HookManifest } from './manifest.js';
import { starterFiles, starterManifest } from './templates/index.js';

/** What {@link initHook} makes. */
export interface InitOptions {
  readonly lang: Language;
  /** The event the starter policy is for (default `pre_tool_use`). */
  readonly event?: HookEvent;
  /** The hook's name (default: the directory's name). */
  readonly name?: string;
  /** JavaScript/TypeScript engine (default QuickJS). */
  readonly engine?: JsEngine;
  /** Rust flavour (default std). */
  readonly flavour?: RustFlavour;
  /** Write into a directory that is not empty (starter files are overwritten, others left alone). */
  readonly force?: boolean;
}

/** What {@link initHook} wrote. */
export interface InitResult {
  readonly dir: string;
  readonly manifest: HookManifest;
  /** Paths relative to `dir`, sorted. */
  readonly files: readonly string[];
}

/**
 * Create a working starter hook in `dir` for one event: its source (a tiny policy: at `pre_tool_use` it
 * denies `rm -rf /`, at `post_tool_use` it redacts GitHub tokens), the language's glue, `hook.json`, `cases.jsonl`
 * (passing for the starter) and a README. Refuses (`KitError('init_refused')`) a directory that is not
 * empty unless `force`, and a name that cannot name a hook.
 *
 * @example
 * await initHook('hooks/no-rm', { lang: 'c', event: 'pre_tool_use' });
 * // then: await buildHookDir('hooks/no-rm'); basis-hooks test hooks/no-rm
 */
export async function initHook(dir: string, options: InitOptions): Promise<InitResult> {
  const target = resolve(dir);
  const name = options.name ?? basename(target);
  const checked = HookName.safeParse(name);
  if (!checked.success) {
    const what = options.name === undefined ? `the directory name ${JSON.stringify(name)} cannot name a hook; pass --name` : `invalid name ${JSON.stringify(name)}`;
    throw new KitError('init_refused', `${what} (${checked.error.issues[0]?.message ?? 'invalid'})`);
  }
  if (existsSync(target)) {
    if (!(await stat(target)).isDirectory()) throw new KitError('init_refused', `${target} exists and is not a directory`);
    const entries = await readdir(target);
    if (entries.length > 0 && options.force !== true) {
      throw new KitError('init_refused', `${target} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); choose an empty directory or pass --force to write the starter files into it`);
    }
  }
  const starter = {
    lang: options.lang,
    event: options.event ?? 'pre_tool_use',
    name,
    engine: options.engine ?? DEFAULT_JS_ENGINE,
    flavour: options.flavour ?? DEFAULT_RUST_FLAVOUR,
  };
  const files = await starterFiles(starter);
  for (const [relative, text] of Object.entries(files)) {
    const path = join(target, relative);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
  return { dir: target, manifest: starterManifest(starter), files: Object.keys(files).sort() };
}
