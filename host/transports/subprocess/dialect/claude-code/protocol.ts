import * as z from 'zod';
import { JsonValue } from '../../../../contract/json.js';

/*
 * Claude Code's command/HTTP hook protocol for the tool events, as its documentation describes it.
 * Objects are loose on purpose: Claude Code adds fields over time and ignores those it does not
 * know, and so do we. Known fields are typed strictly — a `permissionDecision` of "maybe" is not an
 * answer, it is a malformed one.
 */

/** The tool events basis maps: before a tool runs, after it succeeded, after it failed. */
export const ClaudeCodeToolEvent = z.enum(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
export type ClaudeCodeToolEvent = z.infer<typeof ClaudeCodeToolEvent>;

const common = {
  session_id: z.string(),
  transcript_path: z.string().optional(),
  cwd: z.string(),
  permission_mode: z.string().optional(),
  tool_name: z.string().min(1),
  tool_input: JsonValue,
  tool_use_id: z.string().optional(),
};

/** What Claude Code writes on a PreToolUse hook's stdin (or POSTs to an HTTP hook). */
export const ClaudeCodePreToolUse = z.looseObject({ ...common, hook_event_name: z.literal('PreToolUse') });
export type ClaudeCodePreToolUse = z.infer<typeof ClaudeCodePreToolUse>;

/** After a tool succeeded: `tool_response` is the tool's structured result (Bash: `{stdout, stderr, interrupted, isImage}`). */
export const ClaudeCodePostToolUse = z.looseObject({
  ...common,
  hook_event_name: z.literal('PostToolUse'),
  tool_response: JsonValue,
  duration_ms: z.number().optional(),
});
export type ClaudeCodePostToolUse = z.infer<typeof ClaudeCodePostToolUse>;

/** After a tool failed: `error` says why (Claude Code sends it instead of PostToolUse). */
export const ClaudeCodePostToolUseFailure = z.looseObject({
  ...common,
  hook_event_name: z.literal('PostToolUseFailure'),
  error: JsonValue,
  is_interrupt: z.boolean().optional(),
});
export type ClaudeCodePostToolUseFailure = z.infer<typeof ClaudeCodePostToolUseFailure>;

/** One tool event from Claude Code. */
export const ClaudeCodeToolInput = z.discriminatedUnion('hook_event_name', [
  ClaudeCodePreToolUse,
  ClaudeCodePostToolUse,
  ClaudeCodePostToolUseFailure,
]);
export type ClaudeCodeToolInput = z.infer<typeof ClaudeCodeToolInput>;

/** PreToolUse: `allow` skips the permission prompt, `ask` prompts the user, `defer` pauses a headless session. */
export const PermissionDecision = z.enum(['allow', 'deny', 'ask', 'defer']);
export type PermissionDecision = z.infer<typeof PermissionDecision>;

/** The event-specific part of an answer. */
export const ClaudeCodeHookSpecificOutput = z.looseObject({
  hookEventName: z.string().optional(),
  permissionDecision: PermissionDecision.optional(),
  permissionDecisionReason: z.string().optional(),
  /** Replaces the whole tool input (an object, as Claude Code's tool inputs are). */
  updatedInput: z.record(z.string(), JsonValue).optional(),
  additionalContext: z.string().optional(),
  /** PostToolUse: replaces the output (for built-in tools it must match the tool's output shape). */
  updatedToolOutput: JsonValue.optional(),
  /** PostToolUse, MCP tools: replaces the output (not validated by Claude Code). */
  updatedMCPToolOutput: JsonValue.optional(),
});
export type ClaudeCodeHookSpecificOutput = z.infer<typeof ClaudeCodeHookSpecificOutput>;

/** What a Claude Code hook prints on stdout with exit 0 (or an HTTP hook answers with). */
export const ClaudeCodeOutput = z.looseObject({
  /** false stops Claude entirely (`stopReason` is shown to the user). */
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  /** Top-level decision: `block` (PostToolUse; deprecated "deny" at PreToolUse) or the deprecated `approve`. */
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: ClaudeCodeHookSpecificOutput.optional(),
});
export type ClaudeCodeOutput = z.infer<typeof ClaudeCodeOutput>;

/** Claude Code caps the strings it takes from a hook at this many characters. */
export const CLAUDE_CODE_MAX_TEXT = 10_000;

/** Cut `text` to Claude Code's cap, saying so, rather than let it be cut silently. */
export function capText(text: string, max = CLAUDE_CODE_MAX_TEXT): string {
  if (text.length <= max) return text;
  const marker = `… [${text.length - max} more characters cut]`;
  return `${text.slice(0, Math.max(0, max - marker.length))}${marker}`;
}
