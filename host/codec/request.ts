import { HOOK_SCHEMA_VERSION } from '../contract/version.js';
import type { JsonValue } from '../contract/json.js';
import type { HookCall } from '../contract/call.js';
import type { HookRequest } from '../contract/request.js';

/** Where a call stands in the chain: the input as rewritten so far, and (after the call) the result. */
export type ChainState =
  | { readonly event: 'pre_tool_use'; readonly input: JsonValue }
  | { readonly event: 'post_tool_use'; readonly input: JsonValue; readonly output: JsonValue; readonly is_error: boolean };

/**
 * Build the request a hook receives from the call and the chain's current state. `hook_schema` is
 * always set; `output`/`is_error` exist only after the call — absent, never null, before it.
 */
export function toRequest(call: HookCall, state: ChainState): HookRequest {
  const base = {
    hook_schema: HOOK_SCHEMA_VERSION,
    workspace: call.workspace,
    agent_id: call.agent_id,
    tool_call_id: call.tool_call_id,
    tool_name: call.tool_name,
  };
  return state.event === 'pre_tool_use'
    ? { ...base, event: 'pre_tool_use', input: state.input }
    : { ...base, event: 'post_tool_use', input: state.input, output: state.output, is_error: state.is_error };
}
