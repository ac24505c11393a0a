import * as z from 'zod';
import { HookEvent } from './event.js';
import { JsonValue } from './json.js';

const common = {
  workspace: z.string(),
  agent_id: z.string(),
  tool_call_id: z.string().min(1),
  tool_name: z.string().min(1),
  /**
   * A string is the raw text the model produced and gets the parse rule (valid JSON → the parsed
   * value, else the string itself); any other JSON value is taken as already parsed.
   */
  input: JsonValue,
};

/** A tool call about to run, as the agent runtime hands it to {@link HookRunner}. */
export const PreToolUseCall = z.strictObject({
  ...common,
  event: z.literal(HookEvent.enum.pre_tool_use),
});
export type PreToolUseCall = z.infer<typeof PreToolUseCall>;

/** A tool call that has run: `input` is what it ran with, `output`/`is_error` what it returned. */
export const PostToolUseCall = z.strictObject({
  ...common,
  event: z.literal(HookEvent.enum.post_tool_use),
  output: JsonValue,
  is_error: z.boolean(),
});
export type PostToolUseCall = z.infer<typeof PostToolUseCall>;

/** One tool call at one event: what the runtime gives the runner (and what `basis-hooks run` reads). */
export const HookCall = z.discriminatedUnion('event', [PreToolUseCall, PostToolUseCall]);
export type HookCall = z.infer<typeof HookCall>;
