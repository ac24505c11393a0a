import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir, ROOT } from '../../helpers/guests.js';
import { CLI } from '../../helpers/mcp.js';
import { runWith } from '../../helpers/run.js';

/*
 * `basis-hooks claude-code` as Claude Code runs it: a process per event, the event on stdin, the
 * answer on stdout and in the exit status.
 */

const FIXTURES = path.join(ROOT, 'test/fixtures/claude-code');
const GUARD = path.join(guestBuildDir('c'), 'guard.wasm');
const REDACT = path.join(guestBuildDir('c'), 'redact.wasm');
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-cc-'));
  await ensureGuestsBuilt('c', [GUARD, REDACT]);
  config = await writeConfig('hooks.json', [
    { name: 'no-rm-rf', event: 'pre_tool_use', tools: ['Bash'], dialect: 'claude-code', command: ['python3', path.join(FIXTURES, 'block_rm_rf.py')] },
    { name: 'force-push', event: 'pre_tool_use', tools: ['Bash', 'mcp__github__*'], component: GUARD },
    { name: 'redact', event: 'post_tool_use', component: REDACT },
  ]);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function writeConfig(name: string, hooks: readonly Record<string, unknown>[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify({ hook_schema: 1, hooks }));
  return file;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The bundled entry `--print-settings` points Claude Code at (the build makes it from the same sources). */
const FAST_ENTRY = path.join(ROOT, 'dist', 'cli', 'claude-code', 'main.js');

/** Run the CLI with `stdin`, as Claude Code does. */
function cli(args: readonly string[], stdin: string): Promise<Run> {
  return run([CLI, ...args], stdin);
}

function run(argv: readonly string[], stdin: string): Promise<Run> {
  return runWith(process.execPath, argv, stdin);
}

const session = { session_id: 'sess-1', transcript_path: '/home/u/.claude/projects/x/sess-1.jsonl', cwd: '/tmp', permission_mode: 'default' };

function preEvent(tool: string, input: Record<string, unknown>): string {
  return JSON.stringify({ ...session, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'toolu_01' });
}

function postEvent(tool: string, input: Record<string, unknown>, response: unknown): string {
  return JSON.stringify({ ...session, hook_event_name: 'PostToolUse', tool_name: tool, tool_input: input, tool_response: response, tool_use_id: 'toolu_01' });
}

const bash = (stdout: string) => ({ stdout, stderr: '', interrupted: false, isImage: false });

describe('claude-code: the chain as a Claude Code command hook', () => {
  it('pre allow: exit 0 and nothing on stdout (Claude Code\'s own permission flow decides)', async () => {
    const run = await cli(['claude-code', '--config', config], preEvent('Bash', { command: 'ls -la' }));
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('pre deny: permissionDecision "deny" with the reason (a C component; a Claude Code script in the chain)', async () => {
    const guard = await cli(['claude-code', '--config', config], preEvent('Bash', { command: 'git push --force origin main' }));
    expect(guard.code).toBe(0);
    expect(JSON.parse(guard.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'force-push to a protected branch (main/master) is not allowed' },
    });
    const rm = await cli(['claude-code', '--config', config], preEvent('Bash', { command: 'rm -rf ~/' }));
    expect(JSON.parse(rm.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^Blocked: `rm -rf ~\/` runs rm -rf/) } });
  });

  it('pre modify: updatedInput with permissionDecision "ask", or "allow" with --approve-rewrites', async () => {
    const event = preEvent('Bash', { command: 'git push --force origin feature', description: 'push' });
    const asked = await cli(['claude-code', '--config', config], event);
    expect(JSON.parse(asked.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'basis-hooks rewrote this call (force-push)',
        updatedInput: { command: 'git push --force-with-lease origin feature', description: 'push' },
      },
    });
    const approved = await cli(['claude-code', '--config', config, '--approve-rewrites'], event);
    expect(JSON.parse(approved.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'git push --force-with-lease origin feature' } } });
  });

  it('post replace: updatedToolOutput in the tool\'s shape (and updatedMCPToolOutput for mcp__ tools)', async () => {
    const run = await cli(['claude-code', '--config', config], postEvent('Bash', { command: 'env' }, bash(`KEY=${AWS_KEY}\n`)));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: bash('KEY=[REDACTED]\n') } });
    const mcp = await cli(['claude-code', '--config', config], postEvent('mcp__aws__whoami', {}, [{ type: 'text', text: AWS_KEY }]));
    expect(JSON.parse(mcp.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: [{ type: 'text', text: '[REDACTED]' }], updatedMCPToolOutput: [{ type: 'text', text: '[REDACTED]' }] },
    });
    expect(await cli(['claude-code', '--config', config], postEvent('Bash', { command: 'ls' }, bash('a\n')))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('PostToolUseFailure: the error is the output (is_error), and a replace answers for that event', async () => {
    const event = JSON.stringify({ ...session, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'aws sts' }, tool_use_id: 'toolu_9', error: `denied for ${AWS_KEY}` });
    const run = await cli(['claude-code', '--config', config], event);
    expect(JSON.parse(run.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', updatedToolOutput: 'denied for [REDACTED]' } });
  });

  it('post deny: decision "block" with the reason, and the output replaced by the reason where the shape is known', async () => {
    const blocker = await writeConfig('post-deny.json', [
      { name: 'no-keys', event: 'post_tool_use', dialect: 'claude-code', command: ['python3', path.join(FIXTURES, 'block_private_keys.py')] },
    ]);
    const key = '-----BEGIN RSA PRIVATE KEY-----';
    const reason = 'The output contains a private key; it was withheld.';
    const onBash = JSON.parse((await cli(['claude-code', '--config', blocker], postEvent('Bash', { command: 'cat id_rsa' }, bash(key)))).stdout) as unknown;
    expect(onBash).toEqual({ decision: 'block', reason, hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: '', stderr: reason, interrupted: false, isImage: false } } });
    const onMcp = JSON.parse((await cli(['claude-code', '--config', blocker], postEvent('mcp__fs__read', {}, { content: [{ type: 'text', text: key }] }))).stdout) as unknown;
    expect(onMcp).toEqual({
      decision: 'block',
      reason,
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { content: [{ type: 'text', text: reason }] }, updatedMCPToolOutput: { content: [{ type: 'text', text: reason }] } },
    });
    // Another built-in tool: the reason as a string (Claude Code may keep the original beside the block reason).
    const onRead = JSON.parse((await cli(['claude-code', '--config', blocker], postEvent('Read', { file_path: '/k' }, { type: 'text', file: { content: key } }))).stdout) as unknown;
    expect(onRead).toEqual({ decision: 'block', reason, hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: reason } });
  });

  it('a hook that fails closed denies, naming the hook; a modify to a non-object is such a failure', async () => {
    const failing = await writeConfig('failing.json', [
      { name: 'stringify', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"decision":"modify","input":"ls"}'` },
    ]);
    const run = await cli(['claude-code', '--config', failing], preEvent('Bash', { command: 'ls' }));
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/^hook "stringify" failed \(malformed_response: [^)]*\);/);
  });
});

describe('claude-code: it never fails open', () => {
  const blocked = (run: Run): void => {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^basis-hooks claude-code: /);
  };

  it('a config that does not exist, or is invalid: exit 2 with one line', async () => {
    const missing = await cli(['claude-code', '--config', path.join(dir, 'nope.json')], preEvent('Bash', { command: 'ls' }));
    blocked(missing);
    expect(missing.stderr).toContain('file not found');
    const invalid = await writeConfig('invalid.json', [{ name: 'a', event: 'pre_tool', command: 'true', colour: 'red' }]);
    const run = await cli(['claude-code', '--config', invalid], preEvent('Bash', { command: 'ls' }));
    blocked(run);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('hooks[0].event');
    expect(run.stderr).toContain('hooks[0].colour');
  });

  it('a component that cannot load: exit 2', async () => {
    const bad = await writeConfig('bad-component.json', [{ name: 'ghost', event: 'pre_tool_use', component: path.join(dir, 'ghost.wasm') }]);
    const run = await cli(['claude-code', '--config', bad], preEvent('Bash', { command: 'ls' }));
    blocked(run);
    expect(run.stderr).toMatch(/load_failed: hook "ghost"/);
  });

  it('an event it cannot read: not JSON, another event, a missing field — exit 2', async () => {
    for (const input of ['', 'not json', JSON.stringify({ ...session, hook_event_name: 'UserPromptSubmit', prompt: 'hi' }), JSON.stringify({ ...session, hook_event_name: 'PreToolUse', tool_input: {} })]) {
      const run = await cli(['claude-code', '--config', config], input);
      blocked(run);
    }
  });
});

describe('claude-code: the bundled entry (dist/cli/claude-code/main.js)', () => {
  it('answers as the CLI does: allow, a metered component\'s deny, a worker-isolated one\'s, a Claude Code script\'s', async () => {
    expect(await run([FAST_ENTRY, '--config', config], preEvent('Bash', { command: 'ls' }))).toEqual({ code: 0, stdout: '', stderr: '' });
    const event = preEvent('Bash', { command: 'git push --force origin main' });
    const metered = await run([FAST_ENTRY, '--config', config], event);
    expect(metered.stdout).toBe((await cli(['claude-code', '--config', config], event)).stdout);
    expect(JSON.parse(metered.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const worker = await writeConfig('worker.json', [{ name: 'force-push', event: 'pre_tool_use', component: GUARD, isolation: 'worker' }]);
    expect(JSON.parse((await run([FAST_ENTRY, '--config', worker], event)).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.parse((await run([FAST_ENTRY, '--config', config], preEvent('Bash', { command: 'rm -rf /' }))).stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^Blocked/) },
    });
  });

  it('blocks with exit 2 when it cannot run the chain', async () => {
    const missing = await run([FAST_ENTRY, '--config', path.join(dir, 'nope.json')], preEvent('Bash', { command: 'ls' }));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^basis-hooks claude-code: .*file not found\n$/);
    expect((await run([FAST_ENTRY, '--config', config], 'garbage')).code).toBe(2);
  });
});

describe('claude-code --print-settings', () => {
  it('prints the hooks block whose command, run as Claude Code runs it, answers like the bridge', async () => {
    const run = await cli(['claude-code', '--config', config, '--print-settings'], '');
    expect(run.code).toBe(0);
    const settings = JSON.parse(run.stdout) as { hooks: Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]> };
    expect(Object.keys(settings.hooks)).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    expect(settings.hooks['PreToolUse']?.[0]?.matcher).toBe('^(Bash|mcp__github__.*)$');
    expect(settings.hooks['PostToolUse']?.[0]?.matcher).toBe('*');
    const handler = settings.hooks['PreToolUse']?.[0]?.hooks[0];
    expect(handler).toMatchObject({ type: 'command', timeout: expect.any(Number) });
    // Claude Code runs the command through a shell with the event on stdin.
    const viaShell = await new Promise<Run>((resolve) => {
      const child = spawn('sh', ['-c', handler?.command ?? 'false'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(preEvent('Bash', { command: 'git push -f origin master' }));
    });
    expect(viaShell.code).toBe(0);
    expect(JSON.parse(viaShell.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('http hooks with --http, a custom command prefix with --command', async () => {
    const http = JSON.parse((await cli(['claude-code', '--config', config, '--print-settings', '--http', '--port', '8787'], '')).stdout) as { hooks: { PreToolUse: { hooks: unknown[] }[] } };
    expect(http.hooks.PreToolUse[0]?.hooks[0]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:8787/' });
    const custom = JSON.parse((await cli(['claude-code', '--config', config, '--print-settings', '--command', 'npx basis-hooks'], '')).stdout) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    expect(custom.hooks.PreToolUse[0]?.hooks[0]?.command).toBe(`npx basis-hooks claude-code --config ${config}`);
    // By default: this node and the bundled entry, by absolute path.
    const plain = JSON.parse((await cli(['claude-code', '--config', config, '--print-settings'], '')).stdout) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    expect(plain.hooks.PreToolUse[0]?.hooks[0]?.command).toBe(`${process.execPath} ${FAST_ENTRY} --config ${config}`);
  });
});

describe('claude-code --audit', () => {
  const events = async (file: string): Promise<Array<{ type: string; tool_call_id?: string; hook?: string; decision?: string }>> =>
    (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type: string });

  it('appends each event\'s audit stream (the same tool_call_id throughout), also from the printed settings\' command', async () => {
    const file = path.join(dir, 'cc-audit.jsonl');
    const run = await cli(['claude-code', '--config', config, '--audit', file], preEvent('Bash', { command: 'git push --force origin main' }));
    expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const first = await events(file);
    expect(first.map((e) => e.type)).toEqual(['chain_started', 'hook_decided', 'hook_decided', 'chain_decided']);
    expect(new Set(first.map((e) => e.tool_call_id))).toStrictEqual(new Set(['toolu_01']));
    expect(first.at(-1)).toMatchObject({ type: 'chain_decided', decision: 'deny' });

    const printed = JSON.parse((await cli(['claude-code', '--config', config, '--print-settings', '--audit', file], '')).stdout) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    const command = printed.hooks.PreToolUse[0]?.hooks[0]?.command ?? '';
    expect(command).toBe(`${process.execPath} ${FAST_ENTRY} --config ${config} --audit ${file}`);
    const viaShell = await new Promise<Run>((resolve) => {
      const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
      child.stdin.end(preEvent('Bash', { command: 'ls' }));
    });
    expect(viaShell.code).toBe(0);
    expect((await events(file)).slice(first.length).map((e) => e.type)).toEqual(['chain_started', 'hook_decided', 'hook_decided', 'chain_decided']);
  });

  it('an audit file that cannot be opened blocks the call (exit 2, one line): never a silent loss', async () => {
    const run = await cli(['claude-code', '--config', config, '--audit', path.join(dir, 'missing', 'dir', 'a.jsonl')], preEvent('Bash', { command: 'ls' }));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^basis-hooks claude-code: cannot open --audit .* for appending \(ENOENT\)\n$/);
  });

  it('the chain is the config\'s whole chain: a shadow hook is recorded, never enforced (regression: the bridge once rebuilt the runner without its options and modes)', async () => {
    const file = path.join(dir, 'cc-shadow.jsonl');
    const shadowed = await writeConfig('shadow.json', [
      { name: 'would-deny', event: 'pre_tool_use', mode: 'shadow', command: ['sh', '-c', 'echo \'{"decision":"deny","reason":"observed only"}\''] },
      { name: 'force-push', event: 'pre_tool_use', tools: ['Bash'], component: GUARD },
    ]);
    const run = await cli(['claude-code', '--config', shadowed, '--audit', file], preEvent('Bash', { command: 'ls' }));
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    const decided = (await events(file)).filter((e) => e.type === 'hook_decided') as Array<{ hook: string; decision: string; shadow?: boolean }>;
    expect(decided).toEqual(expect.arrayContaining([expect.objectContaining({ hook: 'would-deny', decision: 'deny', shadow: true }), expect.objectContaining({ hook: 'force-push', decision: 'allow' })]));
  });
});
