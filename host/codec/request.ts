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
 * (Whole literals, never a spread base: on Node 20 a spread gives every request its own hidden class
 * and costs ~1 µs.)
 */
export function toRequest(call: HookCall, state: ChainState): HookRequest {
  return state.event === 'pre_tool_use'
    ? {
        hook_schema: HOOK_SCHEMA_VERSION,
        event: 'pre_tool_use',
        workspace: call.workspace,
        agent_id: call.agent_id,
        tool_call_id: call.tool_call_id,
        tool_name: call.tool_name,
        input: state.input,
      }
    : {
        hook_schema: HOOK_SCHEMA_VERSION,
        event: 'post_tool_use',
        workspace: call.workspace,
        agent_id: call.agent_id,
        tool_call_id: call.tool_call_id,
        tool_name: call.tool_name,
        input: state.input,
        output: state.output,
        is_error: state.is_error,
      };
}

/**
 * A request's tool values as JSON text (`JSON.stringify`), for transports that send text (components
 * get `input`/`output` as JSON text). The runner makes one per chain state and hands it to every hook
 * that sees that state, so a chain of hooks stringifies the input once, not once per hook.
 */
export interface RequestText {
  /** The request this is the text of (a transport wrapped around another may hand on a different one). */
  readonly request: HookRequest;
  /** `JSON.stringify(request.input)`. */
  readonly input: string;
  /** `JSON.stringify(request.output)`; undefined before the call. */
  readonly output: string | undefined;
}

/** {@link RequestText} made on first use: a chain of interceptors never pays for it. */
class LazyRequestText implements RequestText {
  readonly request: HookRequest;
  #input: string | undefined;
  #output: string | undefined;

  constructor(request: HookRequest) {
    this.request = request;
  }

  get input(): string {
    this.#input ??= JSON.stringify(this.request.input);
    return this.#input;
  }

  get output(): string | undefined {
    const request = this.request;
    if (request.event !== 'post_tool_use') return undefined;
    this.#output ??= JSON.stringify(request.output);
    return this.#output;
  }
}

/** The JSON text of `request`'s tool values, each made at most once, when first read. */
export function requestText(request: HookRequest): RequestText {
  return new LazyRequestText(request);
}
