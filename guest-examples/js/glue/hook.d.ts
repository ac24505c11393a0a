/**
 * The shapes a basis-hooks JavaScript or TypeScript hook reads and answers: the basis hook wire
 * contract's request and response, field for field. `basis-hooks build` bundles the glue
 * (`hook.js` beside this file) that turns them into the `basis:hook@1.0.0` WIT and back.
 *
 * A hook module exports one function:
 *
 *     import type { HookContext, HookRequest, HookResponse } from './types/hook.js';
 *     export function handle(request: HookRequest, context: HookContext): HookResponse { ... }
 */

/** A JSON value: what `input` and `output` hold. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface RequestFields {
  /** The wire contract's version. */
  readonly hook_schema: 1;
  readonly workspace: string;
  readonly agent_id: string;
  readonly tool_call_id: string;
  readonly tool_name: string;
  /**
   * The tool's input: the parsed JSON value when the model's raw text was valid JSON, else that raw
   * text as a string. After the call, the input the tool actually ran with.
   */
  readonly input: JsonValue;
}

/** Before the tool runs: `output` and `is_error` are absent. */
export interface PreToolUseRequest extends RequestFields {
  readonly event: 'pre_tool_use';
  readonly output?: never;
  readonly is_error?: never;
}

/** After the tool ran. */
export interface PostToolUseRequest extends RequestFields {
  readonly event: 'post_tool_use';
  /** The tool's output: structured results as themselves, text as a string. */
  readonly output: JsonValue;
  readonly is_error: boolean;
}

export type HookRequest = PreToolUseRequest | PostToolUseRequest;

/** Let the call (or its result) through unchanged. */
export interface Allow {
  readonly decision: 'allow';
}

/** Refuse: before the call it does not run; after it, the model sees `reason` instead of the output. */
export interface Deny {
  readonly decision: 'deny';
  /** What the model is told; must not be empty. */
  readonly reason: string;
}

/** Before the call only: run the tool with this input instead. */
export interface Modify {
  readonly decision: 'modify';
  readonly input: JsonValue;
  /** For the audit trail; never shown to the model. */
  readonly reason?: string | undefined;
}

/** After the call only: the model sees this output instead. */
export interface Replace {
  readonly decision: 'replace';
  readonly output: JsonValue;
  /** Whether the replaced result is an error; absent: the tool's own claim stands. */
  readonly is_error?: boolean | undefined;
  /** For the audit trail; never shown to the model. */
  readonly reason?: string | undefined;
}

export type HookResponse = Allow | Deny | Modify | Replace;

/** What a hook knows besides the request. */
export interface HookContext {
  /** Environment variables granted to the hook (`grants.env`, `grants.env_allow`); empty by default. */
  readonly env: Readonly<Record<string, string>>;
}

/** The function a hook module exports as `handle`. It runs synchronously: no `await`. */
export type Handle = (request: HookRequest, context: HookContext) => HookResponse;
