import { readShaped } from './shaped.js';
import { asText, reply, type AgentDialect } from './types.js';

/**
 * Codex CLI (checked against 0.171.0 run here, and its hooks docs and output schemas). Its output
 * schemas are `additionalProperties: false` and an unsupported answer marks the hook *failed* — and
 * the tool runs. So: "allow" is **empty stdout** (`permissionDecision: "allow"` without `updatedInput`
 * fails open); a deny is `permissionDecision: "deny"`; a rewrite is `allow` **with** `updatedInput`;
 * after the call `decision: "block"` + `reason` replaces the output the model reads with the reason
 * (verified), which is also how a replacement reaches the model (as text).
 */
export const codexAgent: AgentDialect = {
  name: 'codex',
  title: 'Codex CLI',
  checked: 'Codex CLI 0.171.0 (npm @openai/codex, run here end to end)',
  capabilities: { modify: 'apply', replace: 'apply', postDeny: 'apply', post: true, timeoutUnit: 's', silentAllow: true },
  read: (value) => readShaped(value, { agent: 'codex', pre: ['PreToolUse'], post: { PostToolUse: { output: 'tool_response' } } }),
  answer(event, outcome) {
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') return reply.json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: outcome.reason } });
      if (!outcome.modified) return reply.none();
      return reply.json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: outcome.input } });
    }
    if (outcome.decision === 'deny' || outcome.replaced) return reply.json({ decision: 'block', reason: asText(outcome.output) });
    void event;
    return reply.none();
  },
  // The legacy `decision: "block"` is read before the call (a deny) and after it (the output replaced).
  block: (reason) => reply.json({ decision: 'block', reason: `basis-hooks: ${reason}` }),
};
