export { HookRunner } from './runner.js';
export type { RunOptions, RunnerOptions } from './options.js';
export { type AuditSink, type AuditSinkFailure, type AuditOptions } from './audit.js';
export type { ChainBudgets } from './budget.js';
export type { HookDefinition } from './hook.js';
export type { Transport, InvokeResult, InvokeContext, HookLogs } from './transport.js';
export { compileToolMatcher, toolPatternProblem, type ToolPattern, type CallFilter } from './matcher.js';
export { checkDecisionForEvent } from './check-decision.js';
