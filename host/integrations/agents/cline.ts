import * as z from 'zod';
import { describeIssues, formatIssues } from '../../contract/issues.js';
import { JsonValue } from '../../contract/json.js';
import { asText, reply, syntheticId, type AgentDialect, type ReadAgentEvent } from './types.js';

const ToolCall = z.looseObject({ id: z.string().optional(), name: z.string().min(1), input: JsonValue.optional(), output: JsonValue.optional() });

/** What Cline writes on a hook's stdin (3.0.65): `hookName` `tool_call` / `tool_result`. */
const ClineEvent = z.looseObject({
  hookName: z.string(),
  taskId: z.string().optional(),
  workspaceRoots: z.array(z.string()).optional(),
  tool_call: ToolCall.optional(),
  tool_result: ToolCall.optional(),
  postToolUse: z.looseObject({ success: z.boolean().optional() }).optional(),
});

/**
 * Cline (checked against 3.0.65 run here, and cline/cline `docs/features/hooks/hook-reference.mdx`).
 * Hooks are executables named after the event (`.clinerules/hooks/PreToolUse`); the answer is JSON
 * `{cancel, errorMessage, contextModification, overrideInput}`. **Cline ignores exit 2 entirely**: only
 * `{"cancel": true}` blocks — and it cancels the whole task (the model gets no tool result).
 * `overrideInput` rewrites; nothing replaces a result, so a post deny/replace cancels the task.
 */
export const clineAgent: AgentDialect = {
  name: 'cline',
  title: 'Cline',
  checked: 'Cline 3.0.65 (npm cline, run here end to end)',
  capabilities: { modify: 'apply', replace: 'block', postDeny: 'block', post: true, timeoutUnit: 's', silentAllow: false },
  read(value): ReadAgentEvent {
    const parsed = ClineEvent.safeParse(value);
    if (!parsed.success) return { ok: false, problem: `invalid Cline hook event: ${formatIssues(describeIssues(parsed.error, value))}` };
    const e = parsed.data;
    const call = e.hookName === 'tool_call' ? e.tool_call : e.hookName === 'tool_result' ? e.tool_result : undefined;
    if (call === undefined) return { ok: false, problem: `unsupported Cline hook ${JSON.stringify(e.hookName)} (basis-hooks handles PreToolUse and PostToolUse)`, event: e.hookName };
    const input = call.input ?? {};
    const common = { workspace: e.workspaceRoots?.[0] ?? '', agent_id: e.taskId ?? '', tool_call_id: call.id ?? syntheticId('cline'), tool_name: call.name, input };
    if (e.hookName === 'tool_call') return { ok: true, event: { call: { ...common, event: 'pre_tool_use' }, event: 'PreToolUse', tool: call.name, input } };
    return {
      ok: true,
      event: { call: { ...common, event: 'post_tool_use', output: call.output ?? null, is_error: e.postToolUse?.success === false }, event: 'PostToolUse', tool: call.name, input },
    };
  },
  answer(_event, outcome) {
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') return reply.json({ cancel: true, errorMessage: outcome.reason });
      if (!outcome.modified) return reply.json({ cancel: false });
      return reply.json({ cancel: false, overrideInput: outcome.input });
    }
    if (outcome.decision === 'deny' || outcome.replaced) {
      return reply.json({ cancel: true, errorMessage: `basis-hooks withheld this tool's result: ${asText(outcome.output)}` });
    }
    return reply.json({ cancel: false });
  },
  block: (reason) => reply.json({ cancel: true, errorMessage: `basis-hooks: ${reason}` }),
};
