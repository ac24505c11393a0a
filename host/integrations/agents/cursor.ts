import * as z from 'zod';
import { describeIssues, formatIssues } from '../../contract/issues.js';
import { JsonValue } from '../../contract/json.js';
import type { JsonValue as Json } from '../../contract/json.js';
import { reply, rewriters, syntheticId, type AgentDialect, type ReadAgentEvent } from './types.js';

const CursorEvent = z.looseObject({
  hook_event_name: z.string(),
  conversation_id: z.string().optional(),
  generation_id: z.string().optional(),
  workspace_roots: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  command: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: JsonValue.optional(),
  file_path: z.string().optional(),
  content: z.string().optional(),
  url: z.string().optional(),
  output: JsonValue.optional(),
  tool_output: JsonValue.optional(),
  result_json: JsonValue.optional(),
});

/** Cursor's events that ask permission (`{"permission": …}`), and what each is as a tool call. */
const PERMISSION_EVENTS = ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'preToolUse'] as const;
/** Events after the fact: Cursor does not wait for a decision on them (fire and forget). */
const AFTER_EVENTS = ['afterShellExecution', 'afterMCPExecution', 'postToolUse', 'afterFileEdit'] as const;

/**
 * Cursor (checked against cursor.com/docs/agent/hooks as quoted by the Cupcake, hookshot and
 * agent-hooks-bridge references; it does not run here). Permission events answer
 * `{"permission": "allow"|"deny", "user_message", "agent_message"}` — an explicit allow is part of
 * the protocol; `"ask"` is broken since Cursor 2.4.21, so it is never sent; only `preToolUse` takes
 * `updated_input`. After-the-fact events cannot block or replace. Hooks fail open unless installed
 * with `failClosed: true`, which install writes. A `tool_input` may arrive as a JSON *string*.
 */
export const cursorAgent: AgentDialect = {
  name: 'cursor',
  title: 'Cursor',
  checked: 'Cursor hooks docs (cursor.com/docs/agent/hooks, via eqtylab/cupcake and CorridorSecurity/hookshot references); not run here',
  capabilities: { modify: 'apply', replace: 'none', postDeny: 'none', post: true, timeoutUnit: 's', silentAllow: false },
  read(value): ReadAgentEvent {
    const parsed = CursorEvent.safeParse(value);
    if (!parsed.success) return { ok: false, problem: `invalid Cursor hook event: ${formatIssues(describeIssues(parsed.error, value))}` };
    const e = parsed.data;
    const name = e.hook_event_name;
    const workspace = e.cwd ?? e.workspace_roots?.[0] ?? '';
    const base = { workspace, agent_id: e.conversation_id ?? '', tool_call_id: e.generation_id ?? syntheticId('cursor') };
    const toolInput = parseMaybeString(e.tool_input);
    let tool: string;
    let input: Json;
    switch (name) {
      case 'beforeShellExecution':
      case 'afterShellExecution':
        tool = 'Shell';
        input = { command: e.command ?? '', ...(e.cwd === undefined ? {} : { cwd: e.cwd }) };
        break;
      case 'beforeReadFile':
        tool = 'Read';
        input = { file_path: e.file_path ?? '' };
        break;
      case 'afterFileEdit':
        tool = 'Edit';
        input = { file_path: e.file_path ?? '' };
        break;
      case 'beforeMCPExecution':
      case 'afterMCPExecution':
      case 'preToolUse':
      case 'postToolUse':
        if (e.tool_name === undefined) return { ok: false, problem: `invalid ${name} event: no tool_name`, event: name };
        tool = e.tool_name;
        input = toolInput ?? {};
        break;
      default:
        return { ok: false, problem: `unsupported Cursor hook event ${JSON.stringify(name)} (basis-hooks handles ${[...PERMISSION_EVENTS, ...AFTER_EVENTS].join(', ')})`, event: name };
    }
    if ((PERMISSION_EVENTS as readonly string[]).includes(name)) return { ok: true, event: { call: { ...base, event: 'pre_tool_use', tool_name: tool, input }, event: name, tool, input } };
    const output = e.output ?? e.tool_output ?? e.result_json ?? null;
    return { ok: true, event: { call: { ...base, event: 'post_tool_use', tool_name: tool, input, output, is_error: false }, event: name, tool, input } };
  },
  answer(event, outcome) {
    if (outcome.event === 'post_tool_use') return reply.json({});
    if (outcome.decision === 'deny') return deny(outcome.reason);
    if (!outcome.modified) return reply.json({ permission: 'allow' });
    if (event.event !== 'preToolUse') return deny(`basis-hooks rewrote this call (${rewriters(outcome)}), and Cursor applies a rewrite only at preToolUse: blocked`);
    return reply.json({ permission: 'allow', updated_input: outcome.input });
  },
  block: (reason) => deny(`basis-hooks: ${reason}`),
};

function deny(reason: string): ReturnType<typeof reply.json> {
  return reply.json({ permission: 'deny', user_message: reason, agent_message: reason });
}

function parseMaybeString(value: Json | undefined): Json | undefined {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as Json;
  } catch {
    return value;
  }
}
