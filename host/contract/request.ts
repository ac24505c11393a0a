import * as z from 'zod';
import { HookEvent } from './event.js';
import { JsonValue } from './json.js';
import { HOOK_SCHEMA_VERSION } from './version.js';

const common = {
  hook_schema: z.literal(HOOK_SCHEMA_VERSION),
  workspace: z.string(),
  agent_id: z.string(),
  tool_call_id: z.string(),
  tool_name: z.string(),
  /** The parsed tool input when the model's raw text was valid JSON, else that raw text. */
  input: JsonValue,
};

/**
 * The request a hook receives before the call. `output` and `is_error` are absent — not null —
 * because a call that has not run has no output to be null about (strict: their presence is an error).
 */
export const PreToolUseRequest = z.strictObject({
  ...common,
  event: z.literal(HookEvent.enum.pre_tool_use),
});
export type PreToolUseRequest = z.infer<typeof PreToolUseRequest>;

/**
 * The request a hook receives after the call: the same envelope with the result on it. `input` is the
 * input the tool actually ran with (after any modify); `output` is the result as the runtime typed it.
 */
export const PostToolUseRequest = z.strictObject({
  ...common,
  event: z.literal(HookEvent.enum.post_tool_use),
  output: JsonValue,
  is_error: z.boolean(),
});
export type PostToolUseRequest = z.infer<typeof PostToolUseRequest>;

/** What basis sends a hook: one JSON object, discriminated by `event`. */
export const HookRequest = z.discriminatedUnion('event', [PreToolUseRequest, PostToolUseRequest]);
export type HookRequest = z.infer<typeof HookRequest>;
