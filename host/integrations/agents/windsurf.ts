import * as z from 'zod';
import { describeIssues, formatIssues } from '../../contract/issues.js';
import { JsonValue } from '../../contract/json.js';
import type { JsonValue as Json } from '../../contract/json.js';
import { reply, rewriters, syntheticId, type AgentDialect, type ReadAgentEvent } from './types.js';

const WindsurfEvent = z.looseObject({
  agent_action_name: z.string(),
  trajectory_id: z.string().optional(),
  execution_id: z.string().optional(),
  tool_info: z.record(z.string(), JsonValue).optional(),
});

/**
 * Windsurf Cascade hooks (checked against docs.windsurf.com/windsurf/cascade/hooks; it does not run
 * here). stdin `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`; a pre-hook
 * **blocks with exit 2** (stderr shown); no rewrite, no result replacement, no ask; post hooks cannot
 * block. MCP calls name the server in `mcp_server_name`.
 */
export const windsurfAgent: AgentDialect = {
  name: 'windsurf',
  title: 'Windsurf (Cascade)',
  checked: 'Windsurf Cascade hooks docs (docs.windsurf.com/windsurf/cascade/hooks); not run here',
  capabilities: { modify: 'block', replace: 'none', postDeny: 'none', post: true, timeoutUnit: 's', silentAllow: true },
  read(value): ReadAgentEvent {
    const parsed = WindsurfEvent.safeParse(value);
    if (!parsed.success) return { ok: false, problem: `invalid Windsurf hook event: ${formatIssues(describeIssues(parsed.error, value))}` };
    const e = parsed.data;
    const info = e.tool_info ?? {};
    const str = (key: string): string => (typeof info[key] === 'string' ? (info[key] as string) : '');
    const name = e.agent_action_name;
    const match = /^(pre|post)_(run_command|read_code|write_code|mcp_tool_use)$/.exec(name);
    if (match === null) return { ok: false, problem: `unsupported Windsurf hook event ${JSON.stringify(name)} (basis-hooks handles pre/post_run_command, _read_code, _write_code, _mcp_tool_use)`, event: name };
    const [, when, what] = match;
    let tool: string;
    let input: Json;
    switch (what) {
      case 'run_command':
        tool = 'run_command';
        input = { command: str('command_line'), ...(str('cwd') === '' ? {} : { cwd: str('cwd') }) };
        break;
      case 'read_code':
        tool = 'read_code';
        input = { file_path: str('file_path') };
        break;
      case 'write_code':
        tool = 'write_code';
        input = { file_path: str('file_path'), edits: info['edits'] ?? [] };
        break;
      default:
        tool = `mcp:${str('mcp_server_name')}/${str('mcp_tool_name')}`;
        input = info['mcp_tool_arguments'] ?? {};
    }
    const base = { workspace: str('cwd'), agent_id: e.trajectory_id ?? '', tool_call_id: e.execution_id ?? syntheticId('windsurf'), tool_name: tool, input };
    const mcp = what === 'mcp_tool_use' ? { mcp: { server: str('mcp_server_name'), tool: str('mcp_tool_name') } } : {};
    if (when === 'pre') return { ok: true, event: { call: { ...base, event: 'pre_tool_use' }, event: name, tool, input, ...mcp } };
    return { ok: true, event: { call: { ...base, event: 'post_tool_use', output: info['mcp_result'] ?? info['output'] ?? null, is_error: false }, event: name, tool, input, ...mcp } };
  },
  answer(_event, outcome) {
    if (outcome.event === 'post_tool_use') return reply.none();
    if (outcome.decision === 'deny') return reply.exit2(outcome.reason);
    if (outcome.modified) return reply.exit2(`basis-hooks rewrote this call (${rewriters(outcome)}), and Windsurf cannot apply a rewrite: blocked`);
    return reply.none();
  },
  block: (reason) => reply.exit2(`basis-hooks: ${reason}`),
};
