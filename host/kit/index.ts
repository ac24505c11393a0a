/**
 * `basis-hooks/kit`, the authoring kit: make a starter hook in any supported language (`initHook`),
 * build it into a verified component (`buildHookDir`, or `buildHook` from a manifest in memory), look
 * at a component (`inspectHook`) and run table-driven cases against a hook (`parseCases`,
 * `openTarget`, `runCases`). The `basis-hooks init|build|inspect|test` commands are thin shells over
 * these.
 *
 * The toolchains are optional peer dependencies, imported only when a build needs them, and a missing
 * one is a `ToolchainMissingError` carrying the exact install command: `componentize-qjs` (JavaScript
 * and TypeScript on QuickJS, the default), `@bytecodealliance/componentize-js` (SpiderMonkey),
 * `typescript` (5.0 or later; 5 and 7 are tested), `assemblyscript`, and Debian's clang or rustc for C and Rust. The runtime
 * entry (`basis-hooks`) never imports this module.
 *
 * This is the entry's curated surface (docs/library.md; test/api/public-surface.json lists it). Not
 * exported on purpose: the per-language toolchain drivers, their install descriptions and compiler
 * environment names (a `ToolchainMissingError` carries what to install), the templates (their output
 * is the contract, not their shape), and the helpers of inspection and of case diffs.
 *
 * @packageDocumentation
 */
export { Language, LANGUAGES, JsEngine, RustFlavour, DEFAULT_LANGUAGE, DEFAULT_JS_ENGINE, DEFAULT_RUST_FLAVOUR } from './languages.js';
export { HookManifest, HookName, MANIFEST_FILE, readManifest } from './manifest.js';
export { initHook, initPolicyHook, type InitOptions, type InitResult, type InitPolicyOptions, type InitPolicyResult } from './init.js';
export { POLICY_LANGUAGES, type PolicyLanguage } from './templates/policies.js';
export { buildHook, buildHookDir, type BuildOptions, type BuildResult, type HookSpec } from './build/index.js';
export type { BuildStep, BuildListener, StepTiming } from './build/progress.js';
export type { ToolchainInstall } from './toolchains.js';
export { inspectHook, type HookInspection, type ImportVerdict } from './inspect.js';
export { TestCase, Expectation, DecisionExpectation, FailureExpectation, parseCases, openTarget, runCases } from './cases/index.js';
export type { ParsedCases, LocatedCase, TestTarget, OpenedTarget, HookUnderTest, CasePick, CaseResult, TestReport, RunCasesOptions, Actual } from './cases/index.js';
export * from './errors/index.js';
