export { HOOK_SCHEMA_VERSION } from './version.js';
export { JsonValue } from './json.js';
export { HookEvent, HOOK_EVENTS } from './event.js';
export { HookRequest, PreToolUseRequest, PostToolUseRequest } from './request.js';
export {
  HookResponse,
  HookDecision,
  AllowResponse,
  DenyResponse,
  ModifyResponse,
  ReplaceResponse,
} from './response.js';
export { HookCall, PreToolUseCall, PostToolUseCall } from './call.js';
export { Explanation, ExplanationItem } from './explanation.js';
export { FailureCode, HookFailure, FailurePolicy, FAILURE_DESCRIPTIONS } from './failure.js';
export { HookMode } from './mode.js';
export { JSON_LIMITS, type JsonLimits } from './limits.js';
export {
  Outcome,
  PreToolUseOutcome,
  PreToolUseAllowed,
  PreToolUseDenied,
  PostToolUseOutcome,
  TrailEntry,
  TrailBudget,
} from './outcome.js';
export { AUDIT_SCHEMA_VERSION, AuditEvent, ChainStarted, HookDecided, ChainDecided, GatewayAuditEvent, ToolDefinitionChanged, ToolCallRefused } from './audit.js';
