import type { HookRequest } from '../../../../contract/request.js';
import { claudeCodeDialect, toClaudeCodeInput } from '../claude-code/dialect.js';
import type { Dialect, Finished } from '../index.js';
import { deny, exitFailure, fail, objectAt, ok, stdoutObject, text } from './shared.js';

/*
 * The reverse of the agent dialects: an existing hook script written for one of these agents runs
 * unchanged inside a basis chain. Each encodes the request as that agent writes it on a hook's stdin
 * and reads the script's answer as that agent would — except that whatever the agent would treat as
 * "the hook failed, let the call proceed" is a failure here, under the hook's `on_failure` (fail
 * closed by default), and a "needs a person" answer (ask) is a deny: a chain has no one to ask.
 */

const PRE_POST = (request: HookRequest, pre: string, post: string): string => (request.event === 'pre_tool_use' ? pre : post);
const output = (request: HookRequest): unknown => (request.event === 'post_tool_use' ? request.output : undefined);
const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** Codex: Claude's shape plus `turn_id`/`model`; exit 2 needs stderr; `allow` needs `updatedInput`. */
export const codexDialect: Dialect = {
  name: 'codex',
  encode: (request) =>
    json({
      session_id: request.agent_id,
      turn_id: request.tool_call_id,
      cwd: request.workspace,
      hook_event_name: PRE_POST(request, 'PreToolUse', 'PostToolUse'),
      model: 'basis-hooks',
      permission_mode: 'default',
      tool_name: request.tool_name,
      tool_input: request.input,
      tool_use_id: request.tool_call_id,
      ...(request.event === 'post_tool_use' ? { tool_response: request.output } : {}),
    }),
  decide(finished) {
    if (finished.exit.code === 2) {
      return finished.stderr.trim() === '' ? fail('exit_nonzero', `hook ${finished.display} exited 2 with nothing on stderr (Codex treats that as a failed hook)`) : deny('', finished.stderr);
    }
    if (finished.exit.code !== 0) return exitFailure(finished, 'Codex');
    const read = stdoutObject(finished);
    if ('failure' in read) return read.failure;
    const out = read.value;
    if (out === undefined) return ok({ decision: 'allow' });
    const specific = objectAt(out, 'hookSpecificOutput');
    const permission = specific?.['permissionDecision'];
    if (permission === 'deny' || out['decision'] === 'block') return deny(`blocked by Codex hook ${finished.display}`, specific?.['permissionDecisionReason'], out['reason']);
    const updated = objectAt(specific, 'updatedInput');
    if (permission === 'allow' && updated !== undefined) return ok({ decision: 'modify', input: updated });
    if (specific?.['updatedMCPToolOutput'] !== undefined) return ok({ decision: 'replace', output: specific['updatedMCPToolOutput'] });
    if (permission !== undefined || out['decision'] !== undefined) {
      return fail('malformed_response', `hook ${finished.display} answered ${JSON.stringify(permission ?? out['decision'])}, which Codex treats as unsupported (the hook fails)`);
    }
    return ok({ decision: 'allow' });
  },
};

/** Qwen Code: Claude's protocol (its variables too). */
export const qwenDialect: Dialect = {
  ...claudeCodeDialect,
  name: 'qwen',
  env: (request) => ({ QWEN_PROJECT_DIR: request.workspace, GEMINI_PROJECT_DIR: request.workspace, CLAUDE_PROJECT_DIR: request.workspace }),
  encode: (request) => json({ ...toClaudeCodeInput(request), timestamp: new Date().toISOString() }),
};

/** Gemini CLI: `BeforeTool`/`AfterTool`; `decision: deny|block`; a rewrite merges `tool_input` over the arguments. */
export const geminiDialect: Dialect = {
  name: 'gemini',
  env: (request) => ({ GEMINI_PROJECT_DIR: request.workspace, CLAUDE_PROJECT_DIR: request.workspace }),
  encode: (request) =>
    json({
      session_id: request.agent_id,
      cwd: request.workspace,
      hook_event_name: PRE_POST(request, 'BeforeTool', 'AfterTool'),
      timestamp: new Date().toISOString(),
      tool_name: request.tool_name,
      tool_input: request.input,
      ...(request.event === 'post_tool_use' ? { tool_response: { llmContent: text(request.output), returnDisplay: text(request.output), ...(request.is_error ? { error: text(request.output) } : {}) } } : {}),
    }),
  decide(finished) {
    if (finished.exit.code === 2) return deny(`blocked by Gemini CLI hook ${finished.display}`, finished.stderr);
    if (finished.exit.code !== 0) return exitFailure(finished, 'Gemini CLI');
    const read = stdoutObject(finished);
    if ('failure' in read) return read.failure;
    const out = read.value;
    if (out === undefined) return ok({ decision: 'allow' });
    const decision = out['decision'];
    if (decision === 'deny' || decision === 'block') return deny(`blocked by Gemini CLI hook ${finished.display}`, out['reason']);
    if (decision === 'ask') return deny(`Gemini CLI hook ${finished.display} answered "ask", which needs a person: denied`, out['reason']);
    if (out['continue'] === false) return deny(`Gemini CLI hook ${finished.display} stopped processing`, out['stopReason'], out['reason']);
    const rewrite = objectAt(objectAt(out, 'hookSpecificOutput'), 'tool_input');
    if (rewrite !== undefined) {
      const base = finished.request.input;
      const merged = typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...base, ...rewrite } : rewrite;
      return ok({ decision: 'modify', input: merged });
    }
    return ok({ decision: 'allow' });
  },
};

/** Copilot CLI, camelCase: `permissionDecision`, `modifiedArgs`, `modifiedResult`; exit 2 denies. */
export const copilotDialect: Dialect = {
  name: 'copilot',
  encode: (request) =>
    json({
      sessionId: request.agent_id,
      timestamp: Date.now(),
      cwd: request.workspace,
      toolName: request.tool_name,
      toolArgs: request.input,
      ...(request.event === 'post_tool_use' ? { toolResult: { resultType: request.is_error ? 'failure' : 'success', textResultForLlm: text(request.output) } } : {}),
    }),
  decide(finished) {
    if (finished.exit.code === 2) return deny(`denied by Copilot hook ${finished.display} (exit 2)`, finished.stderr);
    if (finished.exit.code !== 0) return exitFailure(finished, 'Copilot CLI');
    const read = stdoutObject(finished);
    if ('failure' in read) return read.failure;
    const out = read.value;
    if (out === undefined) return ok({ decision: 'allow' });
    const specific = objectAt(out, 'hookSpecificOutput');
    const permission = out['permissionDecision'] ?? specific?.['permissionDecision'];
    if (permission === 'deny') return deny(`denied by Copilot hook ${finished.display}`, out['permissionDecisionReason'], specific?.['permissionDecisionReason']);
    if (permission === 'ask') return deny(`Copilot hook ${finished.display} answered "ask", which needs a person: denied`, out['permissionDecisionReason']);
    const args = objectAt(out, 'modifiedArgs') ?? objectAt(specific, 'updatedInput');
    if (args !== undefined) return ok({ decision: 'modify', input: args });
    const result = objectAt(out, 'modifiedResult');
    if (result !== undefined) return ok({ decision: 'replace', output: typeof result['textResultForLlm'] === 'string' ? result['textResultForLlm'] : result });
    return ok({ decision: 'allow' });
  },
};

/** Cline: `{cancel, errorMessage, overrideInput}`; exit 2 means nothing to Cline, so any non-zero exit is a failure. */
export const clineDialect: Dialect = {
  name: 'cline',
  encode: (request) => {
    const params = (v: unknown): Record<string, string> =>
      typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)])) : {};
    const call = { id: request.tool_call_id, name: request.tool_name, input: request.input };
    return json({
      clineVersion: '',
      timestamp: new Date().toISOString(),
      taskId: request.agent_id,
      workspaceRoots: [request.workspace],
      ...(request.event === 'pre_tool_use'
        ? { hookName: 'tool_call', tool_call: call, preToolUse: { toolName: request.tool_name, parameters: params(request.input) } }
        : { hookName: 'tool_result', tool_result: { ...call, output: request.output }, postToolUse: { toolName: request.tool_name, parameters: params(request.input), result: text(request.output), success: !request.is_error } }),
    });
  },
  decide(finished) {
    if (finished.exit.code !== 0) return exitFailure(finished, 'Cline');
    const read = stdoutObject(finished);
    if ('failure' in read) return read.failure;
    const out = read.value;
    // Nothing printed: no objection (verified: Cline runs the call); JSON that does not parse failed above.
    if (out === undefined) return ok({ decision: 'allow' });
    if (out['cancel'] === true || out['shouldContinue'] === false) return deny(`cancelled by Cline hook ${finished.display}`, out['errorMessage']);
    const override = objectAt(out, 'overrideInput');
    if (override !== undefined) return ok({ decision: 'modify', input: override });
    return ok({ decision: 'allow' });
  },
};

/** Cursor: `beforeShellExecution` for a command, else `preToolUse`; `{"permission": …}`, `updated_input`; exit 2 blocks. */
export const cursorDialect: Dialect = {
  name: 'cursor',
  encode: (request) => {
    const command = typeof (request.input as { command?: unknown } | null)?.command === 'string' ? (request.input as { command: string }).command : undefined;
    const common = { conversation_id: request.agent_id, generation_id: request.tool_call_id, workspace_roots: [request.workspace] };
    if (request.event === 'post_tool_use') return json({ ...common, hook_event_name: 'postToolUse', tool_name: request.tool_name, tool_input: request.input, tool_output: output(request) });
    if (command !== undefined) return json({ ...common, hook_event_name: 'beforeShellExecution', command, cwd: request.workspace });
    return json({ ...common, hook_event_name: 'preToolUse', tool_name: request.tool_name, tool_input: request.input });
  },
  decide(finished) {
    if (finished.exit.code === 2) return deny(`blocked by Cursor hook ${finished.display}`, finished.stderr);
    if (finished.exit.code !== 0) return exitFailure(finished, 'Cursor');
    const read = stdoutObject(finished);
    if ('failure' in read) return read.failure;
    const out = read.value;
    if (out === undefined) return ok({ decision: 'allow' });
    if (out['permission'] === 'deny' || out['continue'] === false) return deny(`denied by Cursor hook ${finished.display}`, out['agent_message'], out['user_message']);
    if (out['permission'] === 'ask') return deny(`Cursor hook ${finished.display} answered "ask", which needs a person: denied`, out['agent_message'], out['user_message']);
    const updated = objectAt(out, 'updated_input');
    if (updated !== undefined) return ok({ decision: 'modify', input: updated });
    return ok({ decision: 'allow' });
  },
};

/** Windsurf: `pre_run_command` for a command, else `pre_mcp_tool_use`; exit 2 blocks; nothing else decides. */
export const windsurfDialect: Dialect = {
  name: 'windsurf',
  encode: (request) => {
    const command = typeof (request.input as { command?: unknown } | null)?.command === 'string' ? (request.input as { command: string }).command : undefined;
    const when = request.event === 'pre_tool_use' ? 'pre' : 'post';
    const tool_info =
      command !== undefined
        ? { command_line: command, cwd: request.workspace, ...(when === 'post' ? { output: output(request) } : {}) }
        : { mcp_server_name: '', mcp_tool_name: request.tool_name, mcp_tool_arguments: request.input, ...(when === 'post' ? { mcp_result: output(request) } : {}) };
    return json({ agent_action_name: `${when}_${command !== undefined ? 'run_command' : 'mcp_tool_use'}`, trajectory_id: request.agent_id, execution_id: request.tool_call_id, timestamp: new Date().toISOString(), tool_info });
  },
  decide: (finished: Finished) => (finished.exit.code === 2 ? deny(`blocked by Windsurf hook ${finished.display}`, finished.stderr) : finished.exit.code === 0 ? ok({ decision: 'allow' }) : exitFailure(finished, 'Windsurf')),
};

/** Kiro CLI: exit 2 blocks `preToolUse` (stderr to the model); after the call it cannot block. */
export const kiroDialect: Dialect = {
  name: 'kiro',
  encode: (request) =>
    json({
      hook_event_name: PRE_POST(request, 'preToolUse', 'postToolUse'),
      cwd: request.workspace,
      tool_name: request.tool_name,
      tool_input: request.input,
      ...(request.event === 'post_tool_use' ? { tool_response: request.output } : {}),
    }),
  decide(finished) {
    if (finished.exit.code === 2) return finished.request.event === 'pre_tool_use' ? deny(`blocked by Kiro hook ${finished.display}`, finished.stderr) : ok({ decision: 'allow' });
    return finished.exit.code === 0 ? ok({ decision: 'allow' }) : exitFailure(finished, 'Kiro');
  },
};
