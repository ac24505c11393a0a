import * as z from 'zod';
import { describeIssues, formatIssues } from '../../contract/issues.js';
import { JsonValue } from '../../contract/json.js';
import type { AgentName } from './names.js';
import { syntheticId, type ReadAgentEvent } from './types.js';

/**
 * The stdin shape most agents share with Claude Code: `hook_event_name`, `session_id`, `cwd`,
 * `tool_name`, `tool_input`, `tool_use_id`, and after the call a response field (each agent names it).
 * Loose: agents add fields over time and ignore those they do not know, and so do we.
 */
export const ClaudeShapedEvent = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().optional(),
  cwd: z.string().optional(),
  tool_name: z.string().min(1),
  tool_input: JsonValue.optional(),
  tool_use_id: z.string().optional(),
});
export type ClaudeShapedEvent = z.infer<typeof ClaudeShapedEvent>;

/** How one agent's Claude-shaped events map onto basis calls. */
export interface ShapedRules {
  readonly agent: AgentName;
  /** Its pre-call event name(s), and post-call ones with the field that holds the result. */
  readonly pre: readonly string[];
  readonly post: Readonly<Record<string, { readonly output: string; readonly isError?: boolean }>>;
}

/** Read a Claude-shaped event (already parsed JSON) into a basis call. */
export function readShaped(value: unknown, rules: ShapedRules): ReadAgentEvent {
  const name = (value as { hook_event_name?: unknown } | null)?.hook_event_name;
  if (typeof name !== 'string') return { ok: false, problem: 'the event has no hook_event_name' };
  const post = rules.post[name];
  if (!rules.pre.includes(name) && post === undefined) {
    return { ok: false, problem: `unsupported hook event ${JSON.stringify(name)} (basis-hooks handles ${[...rules.pre, ...Object.keys(rules.post)].join(', ')})`, event: name };
  }
  const parsed = ClaudeShapedEvent.safeParse(value);
  if (!parsed.success) return { ok: false, problem: `invalid ${name} event: ${formatIssues(describeIssues(parsed.error, value))}`, event: name };
  const e = parsed.data;
  const input = e.tool_input ?? {};
  const common = {
    workspace: e.cwd ?? '',
    agent_id: e.session_id ?? '',
    tool_call_id: e.tool_use_id !== undefined && e.tool_use_id !== '' ? e.tool_use_id : syntheticId(rules.agent),
    tool_name: e.tool_name,
    input,
  };
  const mcp = McpContext.safeParse((e as Record<string, unknown>)['mcp_context']);
  const named = mcp.success ? { mcp: { server: mcp.data.server_name, tool: mcp.data.tool_name } } : {};
  if (post === undefined) return { ok: true, event: { call: { ...common, event: 'pre_tool_use' }, event: name, tool: e.tool_name, input, ...named } };
  const raw = (e as Record<string, unknown>)[post.output];
  const checked = JsonValue.safeParse(raw ?? null);
  if (!checked.success) return { ok: false, problem: `invalid ${name} event: ${post.output} is not JSON`, event: name };
  return {
    ok: true,
    event: { call: { ...common, event: 'post_tool_use', output: checked.data, is_error: post.isError === true }, event: name, tool: e.tool_name, input, ...named },
  };
}

/**
 * Gemini CLI's `mcp_context` beside an MCP tool's name (BeforeTool/AfterTool, 0.61.0:
 * `packages/core/src/core/coreToolHookTriggers.ts` `extractMcpContext`): the server's and the tool's
 * own names, unsanitised — the name `mcp_<server>_<tool>` alone cannot say where the server ends.
 */
const McpContext = z.looseObject({ server_name: z.string().min(1), tool_name: z.string().min(1) });
