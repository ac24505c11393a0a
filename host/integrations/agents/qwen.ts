import { readShaped } from './shaped.js';
import { asText, reply, rewriters, type AgentDialect } from './types.js';

/**
 * Qwen Code (checked against 0.15.10 run here — the newest that runs on Node 20 — and its hooks
 * reference). Claude-shaped, but it **cannot apply a rewrite** (`updatedInput` is ignored at
 * PreToolUse: the original call runs) nor replace a result (`updatedToolOutput` ignored), and its
 * command-hook `timeout` is in **milliseconds**. A chain that rewrites therefore gets a deny with a
 * clear reason, never the unmodified call.
 */
export const qwenAgent: AgentDialect = {
  name: 'qwen',
  title: 'Qwen Code',
  checked: 'Qwen Code 0.15.10 (npm @qwen-code/qwen-code, run here end to end)',
  capabilities: { modify: 'block', replace: 'annotate', postDeny: 'annotate', post: true, timeoutUnit: 'ms', silentAllow: true },
  read: (value) => readShaped(value, { agent: 'qwen', pre: ['PreToolUse'], post: { PostToolUse: { output: 'tool_response' }, PostToolUseFailure: { output: 'error', isError: true } } }),
  answer(event, outcome) {
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') return deny(outcome.reason);
      if (!outcome.modified) return reply.none();
      return deny(`basis-hooks rewrote this call (${rewriters(outcome)}), and Qwen Code cannot apply a rewrite: blocked instead of running the original`);
    }
    if (outcome.decision === 'deny' || outcome.replaced) {
      // Qwen keeps the original output: the reason is shown beside it (reported by check/install).
      return reply.json({ decision: 'block', reason: asText(outcome.output), hookSpecificOutput: { hookEventName: event.event, additionalContext: asText(outcome.output) } });
    }
    return reply.none();
  },
  block: (reason, event) => (event === undefined || event === 'PreToolUse' ? deny(`basis-hooks: ${reason}`) : reply.json({ decision: 'block', reason: `basis-hooks: ${reason}` })),
};

function deny(reason: string): ReturnType<typeof reply.json> {
  return reply.json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
}
