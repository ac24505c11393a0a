import { readShaped } from './shaped.js';
import { reply, rewriters, type AgentDialect } from './types.js';

/**
 * Kiro CLI (checked against kiro.dev/docs/cli/hooks and aws/amazon-q-developer-cli `docs/hooks.md`;
 * it does not run here). stdin `{hook_event_name: "preToolUse"|"postToolUse", cwd, tool_name,
 * tool_input, tool_response}`; **exit 2 blocks preToolUse with stderr shown to the model**, any other
 * status is a warning and the call proceeds; no rewrite, no result replacement; `timeout_ms` in ms.
 * MCP tools are `@server/tool`.
 */
export const kiroAgent: AgentDialect = {
  name: 'kiro',
  title: 'Kiro CLI',
  checked: 'Kiro CLI docs (kiro.dev/docs/cli/hooks for 2.x, kiro.dev/docs/cli/v3/hooks for 3.x) and amazon-q-developer-cli docs/hooks.md; not run here',
  capabilities: { modify: 'block', replace: 'none', postDeny: 'none', post: true, timeoutUnit: 'ms', silentAllow: true },
  // 2.x names the events in camelCase; the standalone hook files of 3.x in PascalCase: both are read.
  read: (value) => readShaped(value, { agent: 'kiro', pre: ['preToolUse', 'PreToolUse'], post: { postToolUse: { output: 'tool_response' }, PostToolUse: { output: 'tool_response' } } }),
  answer(_event, outcome) {
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') return reply.exit2(outcome.reason);
      if (outcome.modified) return reply.exit2(`basis-hooks rewrote this call (${rewriters(outcome)}), and Kiro cannot apply a rewrite: blocked`);
      return reply.none();
    }
    // After the call Kiro takes no decision: its output reaches the model whatever we say (check reports it).
    return reply.none();
  },
  block: (reason) => reply.exit2(`basis-hooks: ${reason}`),
};
