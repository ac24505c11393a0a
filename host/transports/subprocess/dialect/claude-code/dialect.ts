import type { Decoded } from '../../../../codec/wire.js';
import type { HookFailure } from '../../../../contract/failure.js';
import type { JsonValue } from '../../../../contract/json.js';
import type { HookRequest } from '../../../../contract/request.js';
import type { HookResponse } from '../../../../contract/response.js';
import { describeIssues, formatIssues } from '../../../../contract/issues.js';
import { describeExit, stderrExcerpt } from '../basis.js';
import type { Dialect, Finished } from '../index.js';
import { capText, ClaudeCodeOutput, type ClaudeCodeToolInput } from './protocol.js';

/** Claude Code's "block" exit code: the call is refused and stderr is the reason. */
export const CLAUDE_CODE_BLOCK_EXIT = 2;

/** What Claude Code sets in a command hook's environment: the project root (here, the call's workspace). */
export const CLAUDE_PROJECT_DIR_ENV = 'CLAUDE_PROJECT_DIR';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The request as Claude Code would have sent it: `session_id` ← agent_id, `cwd` ← workspace,
 * `tool_use_id` ← tool_call_id, `permission_mode` "default", no `transcript_path`. After the call a
 * result marked as an error becomes `PostToolUseFailure` with `error` (the output as text), as Claude
 * Code sends it; any other result is `PostToolUse` with `tool_response`.
 */
export function toClaudeCodeInput(request: HookRequest): ClaudeCodeToolInput {
  const common = {
    session_id: request.agent_id,
    cwd: request.workspace,
    permission_mode: 'default',
    tool_name: request.tool_name,
    tool_input: request.input,
    tool_use_id: request.tool_call_id,
  };
  if (request.event === 'pre_tool_use') return { ...common, hook_event_name: 'PreToolUse' };
  if (request.is_error) {
    return { ...common, hook_event_name: 'PostToolUseFailure', error: asText(request.output), is_interrupt: false };
  }
  return { ...common, hook_event_name: 'PostToolUse', tool_response: request.output };
}

function asText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Claude Code's command-hook protocol, so existing Claude Code hook scripts run unchanged inside a
 * basis chain (with its deadlines, caps, process-group kill and serial order). The rules:
 *
 * - exit 2 → `deny`, the reason being stderr (trimmed, capped at 10,000 characters), whatever stdout says;
 * - any other non-zero exit, or a signal → `exit_nonzero`, under the hook's `on_failure` (where Claude
 *   Code itself would let the call proceed);
 * - exit 0 with empty stdout, or with text that is not a JSON object → `allow` (that protocol's
 *   "success, no decision"); stdout that starts with `{` must be a valid answer, else `malformed_response`;
 * - exit 0 with JSON: `continue: false` → deny; `permissionDecision: "deny"` or `decision: "block"` →
 *   deny; `"ask"`/`"defer"` → deny (they need a person, and a chain has none to ask: fail closed);
 *   `updatedInput` → `modify`; `updatedToolOutput`/`updatedMCPToolOutput` → `replace`; otherwise allow
 *   (including `permissionDecision: "allow"`, the deprecated `decision: "approve"`).
 *
 * Whether a modify or replace fits the event is the runner's rule, as for every hook.
 */
export const claudeCodeDialect: Dialect = {
  name: 'claude-code',
  encode: (request) => `${JSON.stringify(toClaudeCodeInput(request))}\n`,
  env: (request) => ({ [CLAUDE_PROJECT_DIR_ENV]: request.workspace }),
  decide(finished) {
    const { exit, display } = finished;
    if (exit.code === CLAUDE_CODE_BLOCK_EXIT) {
      const said = finished.stderr.trim();
      const reason = said === '' ? `blocked by Claude Code hook ${display} (exit 2, nothing on stderr)` : capText(said);
      return ok({ decision: 'deny', reason });
    }
    if (exit.code !== 0) {
      return fail('exit_nonzero', `hook ${display} ${describeExit(exit)} (Claude Code would let the call proceed; basis applies on_failure)${stderrExcerpt(finished.stderr)}`);
    }
    let text: string;
    try {
      text = utf8.decode(finished.stdout);
    } catch {
      return fail('malformed_response', `hook ${display} printed invalid UTF-8`);
    }
    const trimmed = text.trim();
    // Claude Code reads stdout as an answer only when it is JSON; anything else is informational.
    if (!trimmed.startsWith('{')) return ok({ decision: 'allow' });
    return decideJson(trimmed, display);
  },
};

function decideJson(text: string, display: string): Decoded<HookResponse> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fail('malformed_response', `hook ${display} printed something that looks like JSON but is not (${detail})`);
  }
  const parsed = ClaudeCodeOutput.safeParse(value);
  if (!parsed.success) {
    return fail('malformed_response', `hook ${display} answered with an invalid Claude Code answer: ${formatIssues(describeIssues(parsed.error, value))}`);
  }
  const out = parsed.data;
  const specific = out.hookSpecificOutput;
  const said = (...texts: Array<string | undefined>): string | undefined => texts.find((t) => t !== undefined && t.trim() !== '');

  if (out.continue === false) {
    return ok({ decision: 'deny', reason: capText(said(out.stopReason, out.reason) ?? `Claude Code hook ${display} stopped processing (continue: false)`) });
  }
  const permission = specific?.permissionDecision;
  if (permission === 'deny' || out.decision === 'block') {
    const reason = said(specific?.permissionDecisionReason, out.reason) ?? `blocked by Claude Code hook ${display}`;
    return ok({ decision: 'deny', reason: capText(reason) });
  }
  if (permission === 'ask' || permission === 'defer') {
    const why = said(specific?.permissionDecisionReason, out.reason);
    const reason = `Claude Code hook ${display} answered "${permission}", which needs a person to decide; a basis chain has none, so the call is denied${why === undefined ? '' : `: ${why}`}`;
    return ok({ decision: 'deny', reason: capText(reason) });
  }
  const hasInput = specific?.updatedInput !== undefined;
  const output = specific?.updatedMCPToolOutput !== undefined ? specific.updatedMCPToolOutput : specific?.updatedToolOutput;
  if (hasInput && output !== undefined) {
    return fail('malformed_response', `hook ${display} answered both updatedInput and an updated output; one answer cannot rewrite both`);
  }
  const note = said(specific?.permissionDecisionReason, out.reason);
  if (specific?.updatedInput !== undefined) {
    return ok(note === undefined ? { decision: 'modify', input: specific.updatedInput } : { decision: 'modify', input: specific.updatedInput, reason: note });
  }
  if (output !== undefined) {
    return ok(note === undefined ? { decision: 'replace', output } : { decision: 'replace', output, reason: note });
  }
  return ok({ decision: 'allow' });
}

function ok(response: HookResponse): Decoded<HookResponse> {
  return { ok: true, value: response };
}

function fail(code: HookFailure['code'], message: string): Decoded<HookResponse> {
  return { ok: false, failure: { code, message } };
}
