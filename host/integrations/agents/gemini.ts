import { isJsonObject } from '../shared/object-input.js';
import { readShaped } from './shaped.js';
import { asText, reply, rewriters, type AgentDialect } from './types.js';

/**
 * Gemini CLI (checked against 0.61.0 run here, and `docs/hooks/reference.md`, `packages/core/src/hooks/`).
 * Events `BeforeTool`/`AfterTool`; decisions `{"decision":"deny","reason"}`; a rewrite is
 * `hookSpecificOutput.tool_input`, which Gemini **merges over** the original arguments — so a rewrite
 * that drops an argument cannot be expressed, and is blocked with a reason instead. After the call
 * a deny's reason **replaces the result as an error** (`{error: reason}`): that is also how a
 * replacement reaches the model. Timeouts are in **milliseconds**.
 */
export const geminiAgent: AgentDialect = {
  name: 'gemini',
  title: 'Gemini CLI',
  checked: 'Gemini CLI 0.61.0 (npm @google/gemini-cli, run here end to end)',
  capabilities: { modify: 'apply', replace: 'as_error', postDeny: 'as_error', post: true, timeoutUnit: 'ms', silentAllow: true },
  read: (value) => readShaped(value, { agent: 'gemini', pre: ['BeforeTool'], post: { AfterTool: { output: 'tool_response' } } }),
  answer(event, outcome) {
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') return reply.json({ decision: 'deny', reason: outcome.reason });
      if (!outcome.modified) return reply.none();
      if (!isJsonObject(outcome.input)) return reply.json({ decision: 'deny', reason: 'basis-hooks rewrote this call into something that is not an argument object: blocked' });
      const dropped = isJsonObject(event.input) ? Object.keys(event.input).filter((key) => !(key in (outcome.input as object))) : [];
      if (dropped.length > 0) {
        return reply.json({ decision: 'deny', reason: `basis-hooks rewrote this call (${rewriters(outcome)}) dropping ${dropped.join(', ')}, and Gemini CLI merges a rewrite over the original arguments: blocked instead` });
      }
      return reply.json({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: outcome.input } });
    }
    if (outcome.decision === 'deny' || outcome.replaced) return reply.json({ decision: 'deny', reason: asText(outcome.output) });
    return reply.none();
  },
  block: (reason) => reply.json({ decision: 'deny', reason: `basis-hooks: ${reason}` }),
};
