export { TestCase, Expectation, DecisionExpectation, FailureExpectation } from '../../cases/schema.js';
export { parseCases, type ParsedCases, type LocatedCase } from '../../cases/parse.js';
export { openTarget, isHookDir, type TestTarget, type OpenedTarget, type HookUnderTest, type CasePick } from './target.js';
export { runCases, type CaseResult, type TestReport, type RunCasesOptions } from './run.js';
export { canonicalJson, diffLines, type DiffLine } from '../../cases/diff.js';
export type { Actual } from '../../cases/actual.js';
