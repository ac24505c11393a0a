import * as z from 'zod';
import { describeIssues, formatIssues } from '../../contract/issues.js';
import { JsonValue } from '../../contract/json.js';
import { readShaped } from './shaped.js';
import { asText, reply, syntheticId, type AgentDialect, type ReadAgentEvent } from './types.js';

/** Copilot's camelCase payload (hooks registered as `preToolUse`/`postToolUse`): no event name field. */
const CamelEvent = z.looseObject({
  sessionId: z.string().optional(),
  cwd: z.string().optional(),
  toolName: z.string().min(1),
  toolArgs: JsonValue.optional(),
  toolResult: JsonValue.optional(),
  hookName: z.string().optional(),
});

/**
 * GitHub Copilot CLI (checked against 1.0.102 run here, and github/docs `cli-hooks-reference.md`).
 * **The event name's casing picks the payload dialect**: hooks registered as `preToolUse` get
 * camelCase `{sessionId, cwd, toolName, toolArgs[, toolResult]}` and answer
 * `permissionDecision`/`modifiedArgs`/`modifiedResult` (a result replacement works here); hooks
 * registered as `PreToolUse` get Claude's snake_case (`tool_name: "Bash"`) and answer Claude's
 * `hookSpecificOutput` (`updatedToolOutput` is ignored there). Install uses camelCase. **Exit 2
 * drops the reason** ("hook exited with code 2"), so a block is always the JSON deny.
 */
export const copilotAgent: AgentDialect = {
  name: 'copilot',
  title: 'GitHub Copilot CLI',
  checked: 'Copilot CLI 1.0.102 (npm @github/copilot, run here end to end)',
  capabilities: { modify: 'apply', replace: 'apply', postDeny: 'apply', post: true, timeoutUnit: 's', silentAllow: true },
  read(value): ReadAgentEvent {
    if (typeof (value as { hook_event_name?: unknown } | null)?.hook_event_name === 'string') {
      const read = readShaped(value, { agent: 'copilot', pre: ['PreToolUse'], post: { PostToolUse: { output: 'tool_result' } } });
      return read.ok ? { ok: true, event: { ...read.event, extra: { payload: 'pascal' } } } : read;
    }
    const parsed = CamelEvent.safeParse(value);
    if (!parsed.success) return { ok: false, problem: `invalid Copilot hook event: ${formatIssues(describeIssues(parsed.error, value))}` };
    const e = parsed.data;
    if (e.hookName !== undefined && e.hookName !== 'preToolUse' && e.hookName !== 'postToolUse') {
      return { ok: false, problem: `unsupported hook event ${JSON.stringify(e.hookName)} (basis-hooks handles preToolUse, postToolUse)`, event: e.hookName };
    }
    const input = e.toolArgs ?? {};
    const common = { workspace: e.cwd ?? '', agent_id: e.sessionId ?? '', tool_call_id: syntheticId('copilot'), tool_name: e.toolName, input };
    if (e.toolResult === undefined) return { ok: true, event: { call: { ...common, event: 'pre_tool_use' }, event: 'preToolUse', tool: e.toolName, input, extra: { payload: 'camel' } } };
    const result = e.toolResult as { resultType?: unknown; textResultForLlm?: unknown } | null;
    const output = typeof result?.textResultForLlm === 'string' ? result.textResultForLlm : e.toolResult;
    const isError = result?.resultType !== undefined && result.resultType !== 'success';
    return { ok: true, event: { call: { ...common, event: 'post_tool_use', output, is_error: isError }, event: 'postToolUse', tool: e.toolName, input, extra: { payload: 'camel' } } };
  },
  answer(event, outcome) {
    const pascal = event.extra?.['payload'] === 'pascal';
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') return deny(outcome.reason, pascal);
      if (!outcome.modified) return reply.none();
      return pascal
        ? reply.json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: outcome.input } })
        : reply.json({ permissionDecision: 'allow', modifiedArgs: outcome.input });
    }
    if (outcome.decision !== 'deny' && !outcome.replaced) return reply.none();
    const text = asText(outcome.output);
    // Pascal payloads ignore updatedToolOutput: only the camelCase hooks that install writes can replace.
    return pascal ? reply.json({ decision: 'block', reason: text }) : reply.json({ modifiedResult: { resultType: 'success', textResultForLlm: text } });
  },
  block: (reason) =>
    reply.json({
      permissionDecision: 'deny',
      permissionDecisionReason: `basis-hooks: ${reason}`,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `basis-hooks: ${reason}` },
    }),
};

function deny(reason: string, pascal: boolean): ReturnType<typeof reply.json> {
  return pascal
    ? reply.json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })
    : reply.json({ permissionDecision: 'deny', permissionDecisionReason: reason });
}
