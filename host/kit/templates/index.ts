import type { HookEvent } from '../../contract/event.js';
import type { Language, JsEngine, RustFlavour } from '../languages.js';
import type { HookManifest } from '../manifest.js';
import { JS_TYPES, readPackageFile } from '../package-files.js';
import { assemblyScriptSource } from './assemblyscript.js';
import { cSource } from './c.js';
import { starterCasesText } from './cases.js';
import { jsSource, tsconfigText } from './js.js';
import { readmeText } from './readme.js';
import { rustSource } from './rust.js';

/** What a starter is made of. */
export interface StarterOptions {
  readonly lang: Language;
  readonly event: HookEvent;
  readonly name: string;
  readonly engine: JsEngine;
  readonly flavour: RustFlavour;
}

/**
 * What each language's starter gets from the package, copied: starter path → package path. For JS and
 * TS that is the contract's shapes as declarations; the JS glue itself is bundled by `build`.
 */
const GLUE: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  js: { 'types/hook.d.ts': JS_TYPES },
  ts: { 'types/hook.d.ts': JS_TYPES },
  c: { 'glue/basis_hook.h': 'guest-examples/c/glue/basis_hook.h', 'glue/basis_hook.c': 'guest-examples/c/glue/basis_hook.c' },
  rust: { 'glue/basis_hook.rs': 'guest-examples/rust/glue/basis_hook.rs' },
  assemblyscript: { 'glue/hook.ts': 'guest-examples/assemblyscript/glue/hook.ts', 'glue/export-names.mjs': 'guest-examples/assemblyscript/glue/export-names.mjs' },
};

/** The manifest `init` writes for a starter. */
export function starterManifest(options: StarterOptions): Exclude<HookManifest, { lang: 'wat' }> {
  const common = { manifest: 1, name: options.name, event: options.event } as const;
  switch (options.lang) {
    case 'js':
      return { ...common, lang: 'js', source: 'hook.js', engine: options.engine };
    case 'ts':
      return { ...common, lang: 'ts', source: 'hook.ts', engine: options.engine, tsconfig: 'tsconfig.json' };
    case 'c':
      return { ...common, lang: 'c', sources: ['hook.c', 'glue/basis_hook.c'], include: ['glue'] };
    case 'rust':
      return { ...common, lang: 'rust', source: 'hook.rs', flavour: options.flavour };
    case 'assemblyscript':
      return { ...common, lang: 'assemblyscript', source: 'hook.ts' };
  }
}

function sourceFiles(options: StarterOptions): Record<string, string> {
  const { event, name } = options;
  switch (options.lang) {
    case 'js':
      return { 'hook.js': jsSource(event, name, false) };
    case 'ts':
      return { 'hook.ts': jsSource(event, name, true), 'tsconfig.json': tsconfigText() };
    case 'c':
      return { 'hook.c': cSource(event, name) };
    case 'rust':
      return { 'hook.rs': rustSource(event, name) };
    case 'assemblyscript':
      return { 'hook.ts': assemblyScriptSource(event, name) };
  }
}

/**
 * Every file of a starter hook, by path relative to its directory: the source (a tiny policy for the
 * event), the language's glue (copied from this package), `hook.json`, `cases.jsonl` (which passes for
 * the starter), a README and a `.gitignore` for the build output.
 */
export async function starterFiles(options: StarterOptions): Promise<Record<string, string>> {
  const manifest = starterManifest(options);
  const glue: Record<string, string> = {};
  for (const [to, from] of Object.entries(GLUE[options.lang])) glue[to] = await readPackageFile(from);
  return {
    ...sourceFiles(options),
    ...glue,
    'hook.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'cases.jsonl': starterCasesText(options.event),
    'README.md': readmeText(manifest, options.event),
    '.gitignore': 'build/\n',
  };
}
