export { HookRunner, type RunOptions } from './runner.js';
export type { HookDefinition } from './hook.js';
export type { Transport, InvokeResult, InvokeContext, HookLogs } from './transport.js';
export { compileToolMatcher, toolPatternProblem, type ToolPattern } from './matcher.js';
export { checkDecisionForEvent } from './check-decision.js';
