import { parseJsonText } from '../../codec/json-text.js';
import type { HookCall } from '../../contract/call.js';
import { JSON_LIMITS } from '../../contract/limits.js';
import { describeIssues, formatIssues } from '../../contract/issues.js';
import { ClaudeCodeToolEvent, ClaudeCodeToolInput } from '../../transports/subprocess/dialect/claude-code/protocol.js';

/** One Claude Code tool event, read and mapped onto a basis call. */
export type ReadEvent =
  | { readonly ok: true; readonly input: ClaudeCodeToolInput; readonly call: HookCall }
  | { readonly ok: false; readonly problem: string };

/**
 * Read what Claude Code sent a hook (stdin of a command hook, body of an HTTP hook) and map it onto
 * a basis call: `cwd` → workspace, `session_id` → agent_id, `tool_use_id` → tool_call_id,
 * `tool_name`/`tool_input` as they are (the text within `maxLength` characters and the JSON limits' depth); after the call `tool_response` is the output (`is_error`
 * false) or, from PostToolUseFailure, `error` as a string output with `is_error` true. Anything else
 * — not JSON, another event, a missing field — is a problem that names what is wrong.
 */
export function readEvent(text: string, maxLength: number = JSON_LIMITS.max_length): ReadEvent {
  // The parse has a budget: the text's length (the HTTP front caps the body first) and its nesting,
  // checked in one linear pass before anything is built.
  const parsed0 = parseJsonText(text, { maxDepth: JSON_LIMITS.max_depth + 1, maxLength });
  if (!parsed0.ok) {
    return { ok: false, problem: parsed0.problem === 'syntax' ? `the hook input is not JSON (${parsed0.message})` : `the hook input ${parsed0.message}` };
  }
  const value = parsed0.value;
  const event = (value as { hook_event_name?: unknown } | null)?.hook_event_name;
  if (typeof event !== 'string' || !ClaudeCodeToolEvent.safeParse(event).success) {
    return { ok: false, problem: `unsupported hook event ${JSON.stringify(event)} (basis-hooks handles ${ClaudeCodeToolEvent.options.join(', ')})` };
  }
  const parsed = ClaudeCodeToolInput.safeParse(value);
  if (!parsed.success) return { ok: false, problem: `invalid ${event} input: ${formatIssues(describeIssues(parsed.error, value))}` };
  const input = parsed.data;
  const common = {
    workspace: input.cwd,
    agent_id: input.session_id,
    tool_call_id: input.tool_use_id !== undefined && input.tool_use_id !== '' ? input.tool_use_id : `claude-code-${process.pid}-${Date.now()}`,
    tool_name: input.tool_name,
    input: input.tool_input,
  };
  switch (input.hook_event_name) {
    case 'PreToolUse':
      return { ok: true, input, call: { ...common, event: 'pre_tool_use' } };
    case 'PostToolUse':
      return { ok: true, input, call: { ...common, event: 'post_tool_use', output: input.tool_response, is_error: false } };
    case 'PostToolUseFailure': {
      const error = typeof input.error === 'string' ? input.error : JSON.stringify(input.error);
      return { ok: true, input, call: { ...common, event: 'post_tool_use', output: error, is_error: true } };
    }
  }
}
