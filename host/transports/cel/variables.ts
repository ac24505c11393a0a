import type { HookRequest } from '../../contract/request.js';

/**
 * The variables a CEL expression sees for a request: its fields, by their wire names, as the values
 * themselves (never copied: an expression cannot change them). Before the call there is no `output`
 * nor `is_error`. Written as two literals (no spread): this runs once per call.
 */
export function variablesOf(request: HookRequest): Record<string, unknown> {
  return request.event === 'post_tool_use'
    ? { tool_name: request.tool_name, input: request.input, output: request.output, is_error: request.is_error, agent_id: request.agent_id, workspace: request.workspace, event: request.event }
    : { tool_name: request.tool_name, input: request.input, agent_id: request.agent_id, workspace: request.workspace, event: request.event };
}
