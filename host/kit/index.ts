/**
 * The authoring kit: make a starter hook in any supported language (`initHook`), build it into a
 * verified component (`buildHookDir`), look at a component (`inspectHook`) and run table-driven cases
 * against a hook (`parseCases`, `openTarget`, `runCases`). The `basis-hooks init|build|inspect|test`
 * commands are thin shells over these; heavy toolchains (jco, componentize, typescript, asc) are
 * imported only when a build needs them.
 *
 * Not exported on purpose: the per-language toolchain drivers and the templates (their output is the
 * contract, not their shape).
 */
export { Language, LANGUAGES, LANGUAGE_NOTES, JsEngine, RustFlavour, DEFAULT_LANGUAGE, DEFAULT_JS_ENGINE, DEFAULT_RUST_FLAVOUR } from './languages.js';
export { HookManifest, HookName, MANIFEST_FILE, readManifest, outputPath } from './manifest.js';
export { initHook, type InitOptions, type InitResult } from './init.js';
export { buildHookDir, type BuildOptions, type BuildResult } from './build/index.js';
export type { BuildStep, BuildListener, StepTiming } from './build/progress.js';
export * from './toolchains.js';
export { inspectHook, importVerdict, type HookInspection, type ImportVerdict } from './inspect.js';
export * from './cases/index.js';
export * from './errors/index.js';
