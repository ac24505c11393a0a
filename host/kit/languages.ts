import { z } from 'zod';
import { ASSEMBLYSCRIPT_TOOLCHAIN, C_TOOLCHAIN, QUICKJS_TOOLCHAIN, RUST_TOOLCHAIN, TYPESCRIPT_TOOLCHAIN } from './toolchains.js';

/** The languages `basis-hooks init` and `build` know, in the order the help lists them. */
export const Language = z.enum(['js', 'ts', 'c', 'rust', 'assemblyscript']);
export type Language = z.infer<typeof Language>;

/** Every language, for help texts and error messages. */
export const LANGUAGES: readonly Language[] = Language.options;

/** The engine a JavaScript or TypeScript hook is compiled into. */
export const JsEngine = z.enum(['quickjs', 'spidermonkey']);
export type JsEngine = z.infer<typeof JsEngine>;

/** How a Rust hook is built: with the standard library (wasm32-wasi) or `no_std` (wasm32-unknown-unknown). */
export const RustFlavour = z.enum(['std', 'nostd']);
export type RustFlavour = z.infer<typeof RustFlavour>;

/**
 * The default language of `init`: JavaScript, on QuickJS. It needs one npm package and no compiler
 * (`npm install --save-dev componentize-qjs`; `build` names it when it is missing), and on QuickJS
 * (measured in guest-examples/js/README.md) its components are ~1.6 MB instead of ~11.6 MB on
 * SpiderMonkey, load faster (127 vs 194 ms first call from a warm cache) and answer about twice as
 * fast (~28 vs ~53 µs per raw call). The one cost, V8's extended-const flag on Node 20, the host sets
 * itself.
 */
export const DEFAULT_LANGUAGE: Language = 'js';
export const DEFAULT_JS_ENGINE: JsEngine = 'quickjs';
export const DEFAULT_RUST_FLAVOUR: RustFlavour = 'std';

/** One line per language for help texts: what it needs to build. */
export const LANGUAGE_NOTES: Readonly<Record<Language, string>> = {
  js: `JavaScript (QuickJS by default, or SpiderMonkey); ${QUICKJS_TOOLCHAIN.command}`,
  ts: `TypeScript 5 or later (5 and 7 tested), type-checked, then as js; ${TYPESCRIPT_TOOLCHAIN.command} componentize-qjs`,
  c: `C with clang for wasm32-wasi; ${C_TOOLCHAIN.command}`,
  rust: `Rust with /usr/bin/rustc (std or no_std); ${RUST_TOOLCHAIN.command}`,
  assemblyscript: `AssemblyScript; ${ASSEMBLYSCRIPT_TOOLCHAIN.command}`,
};
