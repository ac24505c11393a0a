export { TestCase, Expectation, DecisionExpectation, FailureExpectation } from './schema.js';
export { parseCases, type ParsedCases, type LocatedCase } from './parse.js';
export { openTarget, isHookDir, type TestTarget, type OpenedTarget, type HookUnderTest, type CasePick } from './target.js';
export { runCases, type CaseResult, type TestReport, type RunCasesOptions } from './run.js';
export { canonicalJson, diffLines, type DiffLine } from './diff.js';
export type { Actual } from './actual.js';
