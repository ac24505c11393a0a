import type { HookRequest, JsonValue } from '../../../host/index.js';

/** A pre_tool_use request as the runner would send it. */
export function preRequest(input: JsonValue = { command: 'ls' }, toolName = 'shell'): HookRequest {
  return { hook_schema: 1, event: 'pre_tool_use', workspace: '/ws', agent_id: 'agent-1', tool_call_id: 'call-1', tool_name: toolName, input };
}

/** A post_tool_use request. */
export function postRequest(output: JsonValue = 'out', isError = false, toolName = 'shell'): HookRequest {
  return {
    hook_schema: 1,
    event: 'post_tool_use',
    workspace: '/ws',
    agent_id: 'agent-1',
    tool_call_id: 'call-1',
    tool_name: toolName,
    input: { command: 'ls' },
    output,
    is_error: isError,
  };
}

export const CONTEXT = { hook: 'test-hook' } as const;
