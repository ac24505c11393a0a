import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { HookEvent } from '../contract/event.js';
import { describeIssues } from '../contract/issues.js';
import { KitError } from './errors/kit-error.js';
import { JsEngine, RustFlavour } from './languages.js';

/** The file in a hook directory that says how to build it. */
export const MANIFEST_FILE = 'hook.json';

/** A hook name: it names the component file and the hook in a config, so keep it to a plain word. */
export const HookName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'a hook name is 1–64 letters, digits, "-" or "_", starting with a letter or digit');

/** A path relative to the hook directory (never absolute: the directory must stay movable). */
const RelativePath = z.string().min(1).refine((p) => !p.startsWith('/'), { message: 'must be relative to the hook directory' });

/** A C preprocessor definition: `NAME` or `NAME=value`, as after `-D`. */
const CDefine = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(=.*)?$/, 'a definition is NAME or NAME=value, as after -D');
/** A rustc `--cfg`: `name` or `name="value"`. */
const RustCfg = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(="[^"]*")?$/, 'a cfg is name or name="value", as after --cfg');
/** An asc `--use` alias: `NAME=value` (a global the source reads as a constant). */
const AscUse = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*=.+$/, 'an alias is NAME=value, as after asc --use');

const common = {
  /** Version of this manifest's shape. */
  manifest: z.literal(1),
  name: HookName,
  /** The event the hook is written for (informational: `test` runs each case at its own event). */
  event: HookEvent,
  /** Where `build` writes the component (default `build/<name>.wasm`). */
  out: RelativePath.optional(),
};

/**
 * `hook.json`: what `basis-hooks build <dir>` reads. One variant per language, each with the files
 * and options its toolchain needs; every path is relative to the directory.
 *
 * @example
 * { "manifest": 1, "name": "guard", "event": "pre_tool_use", "lang": "js", "source": "hook.js", "engine": "quickjs" }
 */
export const HookManifest = z.discriminatedUnion('lang', [
  z.strictObject({ ...common, lang: z.literal('js'), source: RelativePath, engine: JsEngine }),
  z.strictObject({ ...common, lang: z.literal('ts'), source: RelativePath, engine: JsEngine, tsconfig: RelativePath }),
  z.strictObject({
    ...common,
    lang: z.literal('c'),
    /** Every translation unit, the glue's `glue/basis_hook.c` included. */
    sources: z.array(RelativePath).min(1),
    /** `-I` directories. */
    include: z.array(RelativePath),
    /** `-D` definitions for every translation unit. */
    defines: z.array(CDefine).optional(),
  }),
  z.strictObject({
    ...common,
    lang: z.literal('rust'),
    source: RelativePath,
    flavour: RustFlavour,
    /** `--cfg` values besides the flavour's (`basis_no_std`). */
    cfg: z.array(RustCfg).optional(),
  }),
  z.strictObject({
    ...common,
    lang: z.literal('assemblyscript'),
    source: RelativePath,
    /** asc `--use` aliases. */
    use: z.array(AscUse).optional(),
  }),
  z.strictObject({
    ...common,
    lang: z.literal('wat'),
    /** The core module's text: its imports, `$handle`, data; see guest-examples/wat/README.md. */
    source: RelativePath,
    /** WAT fields assembled into the module first (the ABI helpers every guest shares). */
    prelude: RelativePath.optional(),
    /**
     * A world to embed instead of the hook world, for a guest that imports WASI itself: a WIT file and
     * the world's name in it (its `basis:hook` and WASI 0.2.12 dependencies are the package's).
     */
    world: z.strictObject({ wit: RelativePath, name: z.string().min(1) }).optional(),
  }),
]);
export type HookManifest = z.infer<typeof HookManifest>;

/** Where a manifest's component goes, relative to its directory. */
export function outputPath(manifest: HookManifest): string {
  return manifest.out ?? `build/${manifest.name}.wasm`;
}

/** Read and validate `<dir>/hook.json`. Throws a {@link KitError} (`manifest_invalid`) listing every problem. */
export async function readManifest(dir: string): Promise<HookManifest> {
  const file = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    // A policy hook (init --lang cedar|cel) has a hooks.json and nothing to build.
    const policy = missing && existsSync(join(dir, 'hooks.json'));
    const why = policy
      ? `not found: this directory holds a policy hook (its hooks.json), which is data — there is nothing to build; "basis-hooks test ${dir}" runs its cases`
      : missing
        ? 'not found (is this a directory made by "basis-hooks init"?)'
        : String(error);
    throw new KitError('manifest_invalid', `${file}: ${why}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new KitError('manifest_invalid', `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const parsed = HookManifest.safeParse(value);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error, value).map((i) => (i.path === '' ? `  ${i.message}` : `  ${i.path}: ${i.message}`));
    throw new KitError('manifest_invalid', `${file}: invalid manifest\n${issues.join('\n')}`, { cause: parsed.error });
  }
  return parsed.data;
}
