/**
 * The case format: one JSON line per case — a call and what the chain (or one hook in it) must come
 * to. `basis-hooks test` (the kit) runs cases against one hook; the armed check (`check --cases`,
 * {@link armConfig}) runs them through a whole config before a deployment. It lives beside the
 * runtime, not in the kit, because a runtime arms its chain without any authoring toolchain.
 */
export { TestCase, Expectation, DecisionExpectation, FailureExpectation } from './schema.js';
export { parseCases, type ParsedCases, type LocatedCase } from './parse.js';
export { canonicalJson, diffLines, type DiffLine } from './diff.js';
export type { Actual } from './actual.js';
