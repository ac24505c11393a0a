import type { ClaudeCodeToolInput } from '../../transports/subprocess/dialect/claude-code/protocol.js';
import { capText } from '../../transports/subprocess/dialect/claude-code/protocol.js';
import { answerFor } from '../claude-code/answer.js';
import { readShaped } from './shaped.js';
import { reply, type AgentDialect } from './types.js';

/**
 * Claude Code (checked against 2.1.332 run here, and its hooks reference). "No objection" is *no
 * output*: a `permissionDecision: "allow"` would skip the user's own permission prompt. A block is
 * the JSON deny, never exit 2 — Claude Code shows the model an exit-2 hook's whole command line.
 * A rewrite goes back as `updatedInput` with `permissionDecision: "ask"` (in `-p` that is a deny).
 */
export const claudeCodeAgent: AgentDialect = {
  name: 'claude-code',
  title: 'Claude Code',
  checked: 'Claude Code 2.1.332 (npm @anthropic-ai/claude-code, run here end to end)',
  capabilities: { modify: 'apply', replace: 'apply', postDeny: 'apply', post: true, timeoutUnit: 's', silentAllow: true },
  read: (value) =>
    readShaped(value, {
      agent: 'claude-code',
      pre: ['PreToolUse'],
      post: { PostToolUse: { output: 'tool_response' }, PostToolUseFailure: { output: 'error', isError: true } },
    }),
  answer(event, outcome) {
    const original = event.call.event === 'post_tool_use' ? event.call.output : undefined;
    const input = {
      hook_event_name: event.event,
      session_id: event.call.agent_id,
      cwd: event.call.workspace,
      tool_name: event.tool,
      tool_input: event.input,
      ...(event.event === 'PostToolUse' ? { tool_response: original ?? null } : event.event === 'PostToolUseFailure' ? { error: original ?? null } : {}),
    } as ClaudeCodeToolInput;
    const out = answerFor(input, outcome);
    return out === undefined ? reply.none() : reply.json(out);
  },
  block(reason, event) {
    const text = capText(`basis-hooks: ${reason}`);
    if (event === 'PreToolUse' || event === undefined) {
      // Read at PreToolUse as a deny; `decision: "block"` beside it covers an event we could not read.
      return reply.json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text }, ...(event === undefined ? { decision: 'block', reason: text } : {}) });
    }
    return reply.json({ decision: 'block', reason: text });
  },
};
