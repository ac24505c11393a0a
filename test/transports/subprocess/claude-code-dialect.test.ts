import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunner, parseConfig } from '../../../host/config/index.js';
import type { JsonValue } from '../../../host/contract/json.js';
import type { PostToolUseOutcome, PreToolUseOutcome } from '../../../host/contract/outcome.js';
import type { HookRunner } from '../../../host/runner/runner.js';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { tempDir } from '../../helpers/temp.js';
import { codeOf, preRequest } from './helpers.js';

/*
 * Claude Code hook scripts written the way popular public ones are (Python with shlex that exits 2,
 * JSON answers, updatedInput rewrites, a PostToolUse blocker, a buggy one that exits 1), run
 * unchanged inside a basis chain through `dialect: "claude-code"`.
 */

const FIXTURES = fileURLToPath(new URL('../../fixtures/claude-code/', import.meta.url));
const script = (name: string): string => path.join(FIXTURES, name);

const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

/** A runner from a hooks.json value whose command hooks all speak the claude-code dialect unless they say otherwise. */
async function chain(hooks: Record<string, unknown>[]): Promise<HookRunner> {
  const config = parseConfig({ hook_schema: 1, hooks: hooks.map((h) => ({ dialect: 'claude-code', ...h })) }, path.join(FIXTURES, 'hooks.json'));
  const runner = await createRunner(config);
  runners.push(runner);
  return runner;
}

const base = { workspace: '/nonexistent-ws', agent_id: 'session-1', tool_call_id: 'toolu_01' };

function pre(runner: HookRunner, tool: string, input: Record<string, JsonValue>): Promise<PreToolUseOutcome> {
  return runner.pre({ ...base, tool_name: tool, input });
}

function post(runner: HookRunner, tool: string, input: Record<string, JsonValue>, output: JsonValue, isError = false): Promise<PostToolUseOutcome> {
  return runner.post({ ...base, tool_name: tool, input, output, is_error: isError });
}

describe('dialect "claude-code": exit 2 blocks with stderr as the reason', () => {
  it('a Python rm -rf guard using shlex denies with its stderr message, and allows the rest', async () => {
    const runner = await chain([{ name: 'no-rm-rf', event: 'pre_tool_use', command: ['python3', script('block_rm_rf.py')] }]);
    const denied = await pre(runner, 'Bash', { command: 'rm -rf build/ && make' });
    expect(denied).toMatchObject({ decision: 'deny', reason: 'Blocked: `rm -rf build/ && make` runs rm -rf. Delete specific files instead.' });
    expect(denied.trail).toMatchObject([{ hook: 'no-rm-rf', decision: 'deny' }]);
    expect(await pre(runner, 'Bash', { command: "rm -r -f 'my dir'" })).toMatchObject({ decision: 'deny' });
    expect(await pre(runner, 'Bash', { command: 'rm build/a.o' })).toMatchObject({ decision: 'allow', modified: false });
    expect(await pre(runner, 'Bash', { command: "echo 'rm -rf /'" })).toMatchObject({ decision: 'allow' }); // shlex: a quoted string, not a command
    expect(await pre(runner, 'Read', { file_path: '/repo/rm' })).toMatchObject({ decision: 'allow' });
  });

  it('a .env blocker covers Read, Edit, Write and Bash', async () => {
    const runner = await chain([{ name: 'env-files', event: 'pre_tool_use', tools: ['Read', 'Edit', 'Write', 'Bash'], command: ['python3', script('protect_env_files.py')] }]);
    const reason = 'Access to .env files is blocked: they hold secrets.';
    expect(await pre(runner, 'Read', { file_path: '/repo/.env' })).toEqual(expect.objectContaining({ decision: 'deny', reason }));
    expect(await pre(runner, 'Edit', { file_path: '/repo/.env.local', old_string: 'a', new_string: 'b' })).toMatchObject({ decision: 'deny', reason });
    expect(await pre(runner, 'Write', { file_path: '/repo/config/.env.production', content: 'X=1' })).toMatchObject({ decision: 'deny', reason });
    expect(await pre(runner, 'Bash', { command: 'cat .env | grep KEY' })).toMatchObject({ decision: 'deny', reason });
    expect(await pre(runner, 'Read', { file_path: '/repo/.env.example' })).toMatchObject({ decision: 'allow' });
    expect(await pre(runner, 'Read', { file_path: '/repo/README.md' })).toMatchObject({ decision: 'allow' });
    expect(await pre(runner, 'Bash', { command: 'cp .env.example .env.example.bak' })).toMatchObject({ decision: 'allow' });
  });

  it('exit 2 with nothing on stderr still denies, with a reason naming the hook', async () => {
    const runner = await chain([{ name: 'silent-block', event: 'pre_tool_use', command: 'cat >/dev/null; echo "{\\"hookSpecificOutput\\":{}}"; exit 2' }]);
    const outcome = await pre(runner, 'Bash', { command: 'ls' });
    expect(outcome.decision).toBe('deny');
    if (outcome.decision === 'deny') expect(outcome.reason).toMatch(/exit 2, nothing on stderr/);
  });

  it('the stderr reason is trimmed and capped at 10,000 characters', async () => {
    const runner = await chain([{ name: 'verbose', event: 'pre_tool_use', command: `cat >/dev/null; printf '\\n  %s  \\n' "$(head -c 30000 /dev/zero | tr '\\0' x)" >&2; exit 2` }]);
    const outcome = await pre(runner, 'Bash', { command: 'ls' });
    expect(outcome.decision).toBe('deny');
    if (outcome.decision !== 'deny') return;
    expect(outcome.reason.length).toBe(10_000);
    expect(outcome.reason.startsWith('xxx')).toBe(true);
    expect(outcome.reason).toMatch(/more characters cut\]$/);
  });
});

describe('dialect "claude-code": JSON answers', () => {
  it('permissionDecision "deny" denies with permissionDecisionReason', async () => {
    const runner = await chain([{ name: 'no-prod', event: 'pre_tool_use', tools: ['Bash'], command: ['python3', script('deny_production.py')] }]);
    expect(await pre(runner, 'Bash', { command: 'kubectl --context=production delete pod x' })).toMatchObject({
      decision: 'deny',
      reason: 'Production is off limits to the agent; ask a human to run this.',
    });
    expect(await pre(runner, 'Bash', { command: 'kubectl --context=staging get pods' })).toMatchObject({ decision: 'allow', modified: false });
  });

  it('updatedInput rewrites the input (modify); its reason stays in the trail', async () => {
    const runner = await chain([{ name: 'ripgrep', event: 'pre_tool_use', command: ['sh', script('prefer_ripgrep.sh')] }]);
    const outcome = await pre(runner, 'Bash', { command: 'grep -r TODO src', description: 'find todos' });
    expect(outcome).toMatchObject({ decision: 'allow', modified: true, input: { command: 'rg TODO src', description: 'find todos' } });
    expect(outcome.trail).toMatchObject([{ hook: 'ripgrep', decision: 'modify', reason: 'grep -r is slow here; using ripgrep' }]);
    expect(await pre(runner, 'Bash', { command: 'ls' })).toMatchObject({ decision: 'allow', modified: false });
  });

  it('a PostToolUse decision "block" denies: the model sees the reason instead of the output', async () => {
    const runner = await chain([{ name: 'no-keys', event: 'post_tool_use', command: ['python3', script('block_private_keys.py')] }]);
    const leaked = { stdout: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn...', stderr: '', interrupted: false, isImage: false };
    expect(await post(runner, 'Bash', { command: 'cat ~/.ssh/id_ed25519' }, leaked)).toMatchObject({
      decision: 'deny',
      output: 'The output contains a private key; it was withheld.',
      is_error: true,
    });
    const fine = { stdout: 'hello', stderr: '', interrupted: false, isImage: false };
    expect(await post(runner, 'Bash', { command: 'echo hello' }, fine)).toMatchObject({ decision: 'allow', output: fine, replaced: false });
  });

  it('updatedToolOutput replaces the output, keeping the tool\'s error claim', async () => {
    const runner = await chain([{ name: 'redact', event: 'post_tool_use', command: ['python3', script('redact_tokens.py')] }]);
    const token = `ghp_${'a'.repeat(36)}`;
    const outcome = await post(runner, 'Bash', { command: 'env' }, { stdout: `GITHUB_TOKEN=${token}\n`, stderr: '', interrupted: false, isImage: false });
    expect(outcome).toMatchObject({ decision: 'allow', replaced: true, is_error: false, output: { stdout: 'GITHUB_TOKEN=[REDACTED]\n', stderr: '' } });
  });

  it('"ask" and "defer" need a person, and a chain has none: the call is denied (fail closed)', async () => {
    const runner = await chain([{ name: 'ask', event: 'pre_tool_use', command: ['sh', script('ask_user.sh')] }]);
    const outcome = await pre(runner, 'Bash', { command: 'deploy' });
    expect(outcome.decision).toBe('deny');
    if (outcome.decision === 'deny') expect(outcome.reason).toMatch(/answered "ask".*denied: deploys need a human/);
    const defer = await chain([{ name: 'defer', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"defer"}}'` }]);
    expect(await pre(defer, 'Bash', { command: 'deploy' })).toMatchObject({ decision: 'deny' });
  });

  it('continue: false denies with its stopReason; the deprecated decision forms map to deny/allow', async () => {
    const stop = await chain([{ name: 'stop', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"continue":false,"stopReason":"budget exhausted"}'` }]);
    expect(await pre(stop, 'Bash', { command: 'ls' })).toMatchObject({ decision: 'deny', reason: 'budget exhausted' });
    const block = await chain([{ name: 'old-block', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"decision":"block","reason":"old style"}'` }]);
    expect(await pre(block, 'Bash', { command: 'ls' })).toMatchObject({ decision: 'deny', reason: 'old style' });
    const approve = await chain([{ name: 'old-approve', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"decision":"approve"}'` }]);
    expect(await pre(approve, 'Bash', { command: 'ls' })).toMatchObject({ decision: 'allow', modified: false });
  });

  it('exit 0 with nothing, or with plain text, allows (that protocol\'s "no decision")', async () => {
    const runner = await chain([
      { name: 'quiet', event: 'pre_tool_use', command: 'cat >/dev/null' },
      { name: 'chatty', event: 'pre_tool_use', command: 'cat >/dev/null; echo "checked: looks fine"' },
    ]);
    const outcome = await pre(runner, 'Bash', { command: 'ls' });
    expect(outcome).toMatchObject({ decision: 'allow', modified: false });
    expect(outcome.trail.map((t) => [t.hook, t.decision])).toEqual([['quiet', 'allow'], ['chatty', 'allow']]);
  });
});

describe('dialect "claude-code": failures go through on_failure', () => {
  it('a script that exits 1 (Claude Code would proceed) fails with exit_nonzero: denied by default', async () => {
    const runner = await chain([{ name: 'buggy', event: 'pre_tool_use', command: ['python3', script('crashes.py')] }]);
    const outcome = await pre(runner, 'Bash', { command: 'ls' });
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail).toMatchObject([{ hook: 'buggy', decision: 'deny', policy: 'deny', failure: { code: 'exit_nonzero' } }]);
    expect(outcome.trail[0]?.stderr).toMatch(/KeyError: 'no_such_key'/);
  });

  it('... and skipped when its on_failure is allow', async () => {
    const runner = await chain([{ name: 'buggy', event: 'pre_tool_use', on_failure: 'allow', command: ['python3', script('crashes.py')] }]);
    const outcome = await pre(runner, 'Bash', { command: 'ls' });
    expect(outcome).toMatchObject({ decision: 'allow', modified: false });
    expect(outcome.trail).toMatchObject([{ hook: 'buggy', decision: 'allow', policy: 'allow', failure: { code: 'exit_nonzero' } }]);
  });

  it('JSON that does not parse, or a field of the wrong type, is malformed_response', async () => {
    const broken = await chain([{ name: 'broken', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"hookSpecificOutput": {'` }]);
    expect((await pre(broken, 'Bash', { command: 'ls' })).trail[0]?.failure?.code).toBe('malformed_response');
    const maybe = await chain([{ name: 'maybe', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'` }]);
    expect((await pre(maybe, 'Bash', { command: 'ls' })).trail[0]?.failure?.code).toBe('malformed_response');
    const notObject = await chain([{ name: 'array-input', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"hookSpecificOutput":{"updatedInput":[1]}}'` }]);
    expect((await pre(notObject, 'Bash', { command: 'ls' })).trail[0]?.failure?.code).toBe('malformed_response');
  });

  it('a rewrite for the wrong event is the runner\'s wrong_decision_for_event, as for every hook', async () => {
    const runner = await chain([{ name: 'late-rewrite', event: 'post_tool_use', command: `cat >/dev/null; echo '{"hookSpecificOutput":{"updatedInput":{"command":"ls"}}}'` }]);
    const outcome = await post(runner, 'Bash', { command: 'ls' }, { stdout: '' });
    expect(outcome).toMatchObject({ decision: 'deny', is_error: true });
    expect(outcome.trail[0]?.failure?.code).toBe('wrong_decision_for_event');
  });

  it('our deadline applies: a hung script is killed and fails as timeout', async () => {
    const runner = await chain([{ name: 'hangs', event: 'pre_tool_use', timeout_ms: 300, command: 'cat >/dev/null; sleep 30' }]);
    const outcome = await pre(runner, 'Bash', { command: 'ls' });
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail[0]?.failure?.code).toBe('timeout');
  });
});

describe('dialect "claude-code": what the script is given', () => {
  async function recorded(run: (runner: HookRunner, workspace: string) => Promise<unknown>, event: 'pre_tool_use' | 'post_tool_use'): Promise<{ stdin: unknown; projectDir: string; cwd: string }> {
    const dir = await realpath(await tempDir());
    const file = path.join(dir, 'record.txt');
    const runner = await chain([{ name: 'record', event, command: ['sh', script('record_event.sh')], env: { RECORD_FILE: file } }]);
    await run(runner, dir);
    const [stdin = '', projectDir = '', cwd = ''] = (await readFile(file, 'utf8')).split('\n');
    return { stdin: JSON.parse(stdin) as unknown, projectDir, cwd };
  }

  it('PreToolUse: Claude Code\'s stdin JSON, CLAUDE_PROJECT_DIR and the cwd set to the workspace', async () => {
    const seen = await recorded((runner, ws) => runner.pre({ workspace: ws, agent_id: 'session-9', tool_call_id: 'toolu_9', tool_name: 'Bash', input: { command: 'ls' } }), 'pre_tool_use');
    expect(seen.stdin).toEqual({
      session_id: 'session-9',
      cwd: seen.cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_9',
    });
    expect(seen.projectDir).toBe(seen.cwd);
  });

  it('PostToolUse carries tool_response; an error result is PostToolUseFailure with the error as text', async () => {
    const ok = await recorded((runner, ws) => runner.post({ workspace: ws, agent_id: 's', tool_call_id: 't', tool_name: 'Bash', input: { command: 'ls' }, output: { stdout: 'a\n' }, is_error: false }), 'post_tool_use');
    expect(ok.stdin).toMatchObject({ hook_event_name: 'PostToolUse', tool_input: { command: 'ls' }, tool_response: { stdout: 'a\n' } });
    expect(ok.stdin).not.toHaveProperty('error');
    const failed = await recorded((runner, ws) => runner.post({ workspace: ws, agent_id: 's', tool_call_id: 't', tool_name: 'Bash', input: { command: 'ls' }, output: { code: 127 }, is_error: true }), 'post_tool_use');
    expect(failed.stdin).toMatchObject({ hook_event_name: 'PostToolUseFailure', error: '{"code":127}', is_interrupt: false });
    expect(failed.stdin).not.toHaveProperty('tool_response');
  });
});

describe('dialect "claude-code": inside a serial basis chain', () => {
  it('a Claude Code guard sees the rewrite of a basis hook before it, and can still refuse it', async () => {
    const runner = await chain([
      // A basis-dialect hook that "helpfully" widens a cleanup to rm -rf.
      { name: 'widen', event: 'pre_tool_use', dialect: 'basis', command: `cat >/dev/null; echo '{"decision":"modify","input":{"command":"rm -rf /tmp/cache"}}'` },
      { name: 'no-rm-rf', event: 'pre_tool_use', command: ['python3', script('block_rm_rf.py')] },
    ]);
    const outcome = await pre(runner, 'Bash', { command: 'rm /tmp/cache/a' });
    expect(outcome).toMatchObject({ decision: 'deny', reason: expect.stringContaining('rm -rf /tmp/cache') });
    expect(outcome.trail.map((t) => [t.hook, t.decision])).toEqual([['widen', 'modify'], ['no-rm-rf', 'deny']]);
  });

  it('the transport option works without a config too', async () => {
    const transport = subprocessTransport({ command: ['python3', script('block_rm_rf.py')], dialect: 'claude-code' });
    const result = await transport.invoke(preRequest({ tool_name: 'Bash', input: { command: 'rm -fr /' } }), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'deny' } });
    expect(codeOf(await transport.invoke(preRequest({ tool_name: 'Bash', input: { command: 'ls' } }), { hook: 'h' }))).toBe('ok');
    expect(() => subprocessTransport({ command: ['true'], dialect: 'nope' as never })).toThrow(/dialect must be one of basis, claude-code/);
  });

  it('an unknown dialect in hooks.json is a config error naming the key and the value', () => {
    let thrown: unknown;
    try {
      parseConfig({ hook_schema: 1, hooks: [{ name: 'h', event: 'pre_tool_use', command: 'true', dialect: 'claude_code' }] }, '/x/hooks.json');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'ConfigError', code: 'config_invalid' });
    expect(String((thrown as Error).message)).toContain('hooks[0].dialect');
    expect(String((thrown as Error).message)).toContain('"claude_code"');
  });
});
