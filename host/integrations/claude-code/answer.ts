import type { JsonValue } from '../../contract/json.js';
import type { Outcome } from '../../contract/outcome.js';
import { capText, type ClaudeCodeOutput, type ClaudeCodeToolInput } from '../../transports/subprocess/dialect/claude-code/protocol.js';
import { isJsonObject } from '../shared/object-input.js';

/** How the bridge answers Claude Code for one event. */
export interface AnswerOptions {
  /**
   * A rewritten call goes back with `permissionDecision: "ask"` by default (the user confirms the
   * rewrite); `true` sends `"allow"` instead, which auto-approves rewritten calls.
   */
  readonly approveRewrites?: boolean;
}

/** MCP tools in Claude Code are named `mcp__<server>__<tool>`. */
export function isMcpTool(toolName: string): boolean {
  return toolName.startsWith('mcp__');
}

/**
 * Claude Code's answer for a chain outcome (`undefined` = print nothing and exit 0):
 *
 * | outcome | answer |
 * | --- | --- |
 * | pre allow | nothing: Claude Code's own permission flow decides (a basis allow is "no objection", never an approval) |
 * | pre deny | `permissionDecision: "deny"` with the reason |
 * | pre modify | `updatedInput` with `permissionDecision: "ask"` (or `"allow"` with `approveRewrites`) |
 * | post replace | `updatedToolOutput` (and `updatedMCPToolOutput` for `mcp__*` tools) |
 * | post deny | `decision: "block"` with the reason, and the output replaced by the reason in the tool's shape where it is known |
 */
export function answerFor(input: ClaudeCodeToolInput, outcome: Outcome, options: AnswerOptions = {}): ClaudeCodeOutput | undefined {
  if (outcome.event === 'pre_tool_use') {
    if (outcome.decision === 'deny') {
      return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: capText(outcome.reason) } };
    }
    if (!outcome.modified || !isJsonObject(outcome.input)) return undefined;
    const by = outcome.trail.filter((t) => t.decision === 'modify').map((t) => t.hook);
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: options.approveRewrites === true ? 'allow' : 'ask',
        permissionDecisionReason: capText(`basis-hooks rewrote this call (${by.join(', ')})`),
        updatedInput: outcome.input,
      },
    };
  }
  const eventName = input.hook_event_name === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse';
  const mcp = isMcpTool(input.tool_name);
  if (outcome.decision === 'deny') {
    const reason = typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output);
    const original = input.hook_event_name === 'PostToolUse' ? input.tool_response : undefined;
    const shaped = withheld(input.tool_name, original, capText(reason));
    return {
      decision: 'block',
      reason: capText(reason),
      hookSpecificOutput: mcp
        ? { hookEventName: eventName, updatedToolOutput: shaped, updatedMCPToolOutput: shaped }
        : { hookEventName: eventName, updatedToolOutput: shaped },
    };
  }
  if (!outcome.replaced) return undefined;
  return {
    hookSpecificOutput: mcp
      ? { hookEventName: eventName, updatedToolOutput: outcome.output, updatedMCPToolOutput: outcome.output }
      : { hookEventName: eventName, updatedToolOutput: outcome.output },
  };
}

/**
 * The reason in place of a withheld output, in the tool's own shape where it is known — Claude Code
 * ignores an `updatedToolOutput` that does not match a built-in tool's shape and shows the original:
 *
 * - Bash (`{stdout, stderr, interrupted, isImage}`): stdout emptied, the reason as stderr;
 * - MCP tools: the reason as one text content block (an array stays an array; `{content}` keeps it);
 * - anything else: the reason as a string. For a built-in tool whose output is not a string Claude
 *   Code may reject it, and the model then sees the original output with the block reason beside it.
 */
export function withheld(toolName: string, original: JsonValue | undefined, reason: string): JsonValue {
  if (isJsonObject(original) && typeof original['stdout'] === 'string' && typeof original['stderr'] === 'string') {
    return { ...original, stdout: '', stderr: reason, interrupted: false };
  }
  if (isMcpTool(toolName)) {
    const block = { type: 'text', text: reason };
    if (isJsonObject(original) && Array.isArray(original['content'])) return { content: [block] };
    return typeof original === 'string' ? reason : [block];
  }
  return reason;
}
