import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { HookEvent } from '../contract/event.js';
import { KitError } from './errors/kit-error.js';
import { DEFAULT_JS_ENGINE, DEFAULT_RUST_FLAVOUR, type JsEngine, type Language, type RustFlavour } from './languages.js';
import { HookName, type HookManifest } from './manifest.js';
import { starterFiles, starterManifest } from './templates/index.js';
import { policyStarterFiles, type PolicyLanguage } from './templates/policies.js';

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
  const { target, name } = await starterTarget(dir, options.name, options.force);
  const starter = {
    lang: options.lang,
    event: options.event ?? 'pre_tool_use',
    name,
    engine: options.engine ?? DEFAULT_JS_ENGINE,
    flavour: options.flavour ?? DEFAULT_RUST_FLAVOUR,
  };
  const files = await starterFiles(starter);
  await writeStarter(target, files);
  return { dir: target, manifest: starterManifest(starter), files: Object.keys(files).sort() };
}

/** Where a starter goes and what it is called; refuses a name that cannot name a hook and a directory in use. */
async function starterTarget(dir: string, given: string | undefined, force: boolean | undefined): Promise<{ target: string; name: string }> {
  const target = resolve(dir);
  const name = given ?? basename(target);
  const checked = HookName.safeParse(name);
  if (!checked.success) {
    const what = given === undefined ? `the directory name ${JSON.stringify(name)} cannot name a hook; pass --name` : `invalid name ${JSON.stringify(name)}`;
    throw new KitError('init_refused', `${what} (${checked.error.issues[0]?.message ?? 'invalid'})`);
  }
  if (existsSync(target)) {
    if (!(await stat(target)).isDirectory()) throw new KitError('init_refused', `${target} exists and is not a directory`);
    const entries = await readdir(target);
    if (entries.length > 0 && force !== true) {
      throw new KitError('init_refused', `${target} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); choose an empty directory or pass --force to write the starter files into it`);
    }
  }
  return { target, name };
}

async function writeStarter(target: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    const path = join(target, relative);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

/** What {@link initPolicyHook} makes. */
export interface InitPolicyOptions {
  readonly lang: PolicyLanguage;
  readonly event?: HookEvent;
  readonly name?: string;
  readonly force?: boolean;
}

/** What {@link initPolicyHook} wrote. */
export interface InitPolicyResult {
  readonly dir: string;
  readonly name: string;
  readonly lang: PolicyLanguage;
  readonly event: HookEvent;
  /** Paths relative to `dir`, sorted. */
  readonly files: readonly string[];
}

/**
 * Create a working policy hook in `dir`: `hooks.json` with one Cedar or CEL hook (before the call it
 * denies `rm -rf /`; after it, it withholds an output holding a private key), its policy files
 * (Cedar: the policies, a schema, entities), `cases.jsonl` (passing) and a README. Nothing to build:
 * `basis-hooks test <dir>` runs the cases. Refuses a directory that is not empty unless `force`.
 *
 * @example
 * await initPolicyHook('policies/guard', { lang: 'cedar' });
 * // then: basis-hooks test policies/guard
 */
export async function initPolicyHook(dir: string, options: InitPolicyOptions): Promise<InitPolicyResult> {
  const { target, name } = await starterTarget(dir, options.name, options.force);
  const event = options.event ?? 'pre_tool_use';
  const files = policyStarterFiles(options.lang, event, name);
  await writeStarter(target, files);
  return { dir: target, name, lang: options.lang, event, files: Object.keys(files).sort() };
}
