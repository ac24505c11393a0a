import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsCommand } from '../../../host/integrations/agents/install/script.js';
import { CLI } from '../../helpers/mcp.js';
import { runWith, type Ran } from '../../helpers/run.js';

/* `basis-hooks serve`, `hook --agent` and `install --agent`, as processes. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-agents-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const CLAUDE_PRE = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /x' }, tool_use_id: 't' });
const answer = (decision: object): string => `cat >/dev/null; printf '%s\\n' '${JSON.stringify(decision)}'`;
const config = (decision: object): string => JSON.stringify({ hook_schema: 1, hooks: [{ name: 'h', event: 'pre_tool_use', command: ['sh', '-c', answer(decision)] }] });

function run(args: readonly string[], stdin = '', env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return runWith(process.execPath, [CLI, ...args], stdin, { env });
}

function sh(script: string, args: readonly string[], stdin: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return runWith('/bin/sh', [script, ...args], stdin, { env });
}

async function startServe(configFile: string, socket: string): Promise<{ child: ChildProcessByStdio<Writable, Readable, Readable>; log: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configFile, '--socket', socket], { stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => {
      log += c.toString();
      if (log.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${log}`)));
  });
  return { child, log: () => log };
}

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('serve and hook', () => {
  it('answers over a 0600 socket in a 0700 directory; reloads atomically (a bad config is refused, the old chain keeps serving); stops on SIGTERM, removing the socket', async () => {
    const file = path.join(dir, 'hooks.json');
    await writeFile(file, config({ decision: 'allow' }));
    const socket = path.join(dir, 'run', 'hooks.sock');
    const server = await startServe(file, socket);
    try {
      expect((await stat(socket)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(socket))).mode & 0o777).toBe(0o700);
      expect(await run(['hook', '--agent', 'claude-code', '--socket', socket], CLAUDE_PRE)).toEqual({ code: 0, stdout: '', stderr: '' });

      await writeFile(file, '{"hook_schema": 1, "hooks": [{"name": "broken"}]}');
      await until(() => server.log().includes('config reload refused'));
      expect((await run(['hook', '--agent', 'claude-code', '--socket', socket], CLAUDE_PRE)).stdout).toBe('');

      await writeFile(file, config({ decision: 'deny', reason: 'now denied' }));
      await until(() => server.log().includes('reloaded'));
      const denied = await run(['hook', '--agent', 'claude-code', '--socket', socket], CLAUDE_PRE);
      expect(JSON.parse(denied.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'now denied' } });
      // The same server answers another agent in its own dialect.
      const kiro = await run(['hook', '--agent', 'kiro', '--socket', socket], JSON.stringify({ hook_event_name: 'preToolUse', cwd: '/tmp', tool_name: 'execute_bash', tool_input: { command: 'x' } }));
      expect(kiro).toMatchObject({ code: 2, stderr: 'now denied\n' });
    } finally {
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    await expect(stat(socket)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('SIGTERM answers the events in flight first: an event whose hook is still running gets its decision, then serve exits 0', async () => {
    const file = path.join(dir, 'slow.json');
    const mark = path.join(dir, 'slow.started');
    const slow = `cat >/dev/null; : > '${mark}'; sleep 1; printf '%s\\n' '${JSON.stringify({ decision: 'deny', reason: 'answered while stopping' })}'`;
    await writeFile(file, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'slow', event: 'pre_tool_use', command: ['sh', '-c', slow] }] }));
    const socket = path.join(dir, 'run-slow', 'hooks.sock');
    const server = await startServe(file, socket);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    const inFlight = run(['hook', '--agent', 'claude-code', '--socket', socket], CLAUDE_PRE);
    await until(async () => (await stat(mark).catch(() => undefined)) !== undefined);
    server.child.kill('SIGTERM');
    const answered = await inFlight;
    expect(JSON.parse(answered.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'answered while stopping' } });
    expect(await exited).toBe(0);
    expect(server.log()).toContain('answering the events in flight');
  });

  it('refuses to take over a socket another server answers on', async () => {
    const file = path.join(dir, 'allow.json');
    await writeFile(file, config({ decision: 'allow' }));
    const socket = path.join(dir, 'run2', 'hooks.sock');
    const first = await startServe(file, socket);
    try {
      const second = await run(['serve', '--config', file, '--socket', socket]);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('already answers');
    } finally {
      first.child.kill('SIGTERM');
    }
  });

  it('no server: with --config the chain runs in-process; without, the agent\'s own block (never its fail-open path)', async () => {
    const file = path.join(dir, 'deny.json');
    await writeFile(file, config({ decision: 'deny', reason: 'in-process' }));
    const gone = path.join(dir, 'nobody', 'hooks.sock');
    const local = await run(['hook', '--agent', 'claude-code', '--socket', gone, '--config', file], CLAUDE_PRE);
    expect(JSON.parse(local.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecisionReason: 'in-process' } });
    const claude = await run(['hook', '--agent', 'claude-code', '--socket', gone], CLAUDE_PRE);
    expect(claude.code).toBe(0);
    expect(JSON.parse(claude.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no hook server') as unknown } });
    const cline = await run(['hook', '--agent', 'cline', '--socket', gone], '{}');
    expect(JSON.parse(cline.stdout)).toMatchObject({ cancel: true });
    const windsurf = await run(['hook', '--agent', 'windsurf', '--socket', gone], '{}');
    expect(windsurf.code).toBe(2);
  });
});

describe('the agents\' project-directory variables in --config (a committed setting, expanded by our CLI)', () => {
  it('hook and claude-code expand $CLAUDE_PROJECT_DIR / ${GEMINI_PROJECT_DIR} even where no shell does (single quotes, exec form); unset, the agent\'s block names it', async () => {
    const file = path.join(dir, 'proj-var', 'deny.json');
    await (await import('node:fs/promises')).mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, config({ decision: 'deny', reason: 'from the project' }));
    const env = { ...process.env, CLAUDE_PROJECT_DIR: path.dirname(file), GEMINI_PROJECT_DIR: path.dirname(file) };
    const viaHook = await run(['hook', '--agent', 'claude-code', '--config', '$CLAUDE_PROJECT_DIR/deny.json', '--no-server'], CLAUDE_PRE, env);
    expect(JSON.parse(viaHook.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecisionReason: 'from the project' } });
    const braced = await run(['hook', '--agent', 'gemini', '--config', '${GEMINI_PROJECT_DIR}/deny.json', '--no-server'], JSON.stringify({ hook_event_name: 'BeforeTool', cwd: '/tmp', tool_name: 'run_shell_command', tool_input: { command: 'x' } }), env);
    expect(JSON.parse(braced.stdout)).toEqual({ decision: 'deny', reason: 'from the project' });
    const viaBridge = await run(['claude-code', '--config', '$CLAUDE_PROJECT_DIR/deny.json'], CLAUDE_PRE, env);
    expect(JSON.parse(viaBridge.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecisionReason: 'from the project' } });
    const { CLAUDE_PROJECT_DIR: _unset, ...without } = env;
    const unset = await run(['hook', '--agent', 'cline', '--config', '$CLAUDE_PROJECT_DIR/deny.json', '--no-server'], '{}', without);
    expect(unset.code).toBe(0);
    expect(JSON.parse(unset.stdout)).toMatchObject({ cancel: true, errorMessage: expect.stringContaining('$CLAUDE_PROJECT_DIR, which is not set') as unknown });
    const unsetBridge = await run(['claude-code', '--config', '$CLAUDE_PROJECT_DIR/deny.json'], CLAUDE_PRE, without);
    expect(unsetBridge.code).toBe(2);
    expect(unsetBridge.stderr).toContain('CLAUDE_PROJECT_DIR, which is not set');
  });
});

describe('serve --listen (loopback TCP)', () => {
  it('needs a token; answers with it, blocks without it, refuses browser requests', async () => {
    const file = path.join(dir, 'tcp.json');
    await writeFile(file, config({ decision: 'deny', reason: 'tcp deny' }));
    expect((await run(['serve', '--config', file, '--socket', path.join(dir, 'tcp0', 's.sock'), '--listen', '127.0.0.1:0'])).code).toBe(2);
    const tokenFile = path.join(dir, 'tcp-token');
    const child = spawn(process.execPath, [CLI, 'serve', '--config', file, '--socket', path.join(dir, 'tcp1', 's.sock'), '--listen', '127.0.0.1:0', '--token-file', tokenFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        log += c.toString();
        const m = /and (http:\/\/\S+)/.exec(log);
        if (m?.[1] !== undefined) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${log}`)));
    });
    try {
      const token = (await readFile(tokenFile, 'utf8')).trim();
      const endpoint = `${url}v1/hook/claude-code`;
      const withToken = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: CLAUDE_PRE });
      expect(withToken.status).toBe(200);
      expect(await withToken.json()).toMatchObject({ hookSpecificOutput: { permissionDecisionReason: 'tcp deny' } });
      const without = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CLAUDE_PRE });
      expect(without.status).toBe(200);
      expect(await without.json()).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('bearer token') as unknown } });
      const browser = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, origin: 'http://evil.example' }, body: CLAUDE_PRE });
      expect(browser.status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('install', () => {
  it('merges into the agent\'s settings keeping everything else, is idempotent, and uninstall removes only ours', async () => {
    const project = path.join(dir, 'proj');
    const policy = path.join(dir, 'deny.json');
    const settingsFile = path.join(project, '.claude', 'settings.json');
    const theirs = { permissions: { allow: ['Bash(ls:*)'] }, hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'their-guard.sh' }] }] } };
    await run(['install', '--agent', 'claude-code', '--config', policy, '--project', project, '--dry-run']);
    await expect(stat(settingsFile)).rejects.toMatchObject({ code: 'ENOENT' });
    await (await import('node:fs/promises')).mkdir(path.dirname(settingsFile), { recursive: true });
    await writeFile(settingsFile, JSON.stringify(theirs));
    expect((await run(['install', '--agent', 'claude-code', '--config', policy, '--project', project])).code).toBe(0);
    const once = await readFile(settingsFile, 'utf8');
    expect((await run(['install', '--agent', 'claude-code', '--config', policy, '--project', project])).code).toBe(0);
    expect(await readFile(settingsFile, 'utf8')).toBe(once);
    const settings = JSON.parse(once) as typeof theirs & { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(settings.permissions).toEqual(theirs.permissions);
    expect(settings.hooks['PreToolUse']?.map((g) => g.hooks[0]?.command)).toEqual(['their-guard.sh', settingsCommand('claude-code', { kind: 'var', name: 'CLAUDE_PROJECT_DIR' })]);
    expect((await run(['uninstall', '--agent', 'claude-code', '--config', policy, '--project', project])).code).toBe(0);
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toEqual(theirs);
  });

  it('timeouts in each agent\'s own unit: Gemini, Qwen and Kiro in ms (a Claude-style 30 would kill the hook after 30 ms), the others in s', async () => {
    const policy = path.join(dir, 'deny.json');
    const shown = async (agent: string): Promise<string> => (await run(['install', '--agent', agent, '--config', policy, '--project', path.join(dir, 'p2'), '--print-settings'])).stdout;
    expect(JSON.parse(await shown('gemini')).hooks.BeforeTool[0].hooks[0].timeout).toBeGreaterThanOrEqual(30_000);
    expect(JSON.parse(await shown('qwen')).hooks.PreToolUse[0].hooks[0].timeout).toBeGreaterThanOrEqual(30_000);
    const kiro = JSON.parse(await shown('kiro'));
    expect(kiro.agent.hooks.preToolUse[0].timeout_ms).toBeGreaterThanOrEqual(30_000);
    // Kiro CLI 3.x's standalone hook files take seconds.
    expect(kiro.hooks_file.hooks[0]).toMatchObject({ trigger: 'PreToolUse', timeout: expect.any(Number) as unknown });
    expect(kiro.hooks_file.hooks[0].timeout).toBeLessThan(600);
    const claude = JSON.parse(await shown('claude-code')).hooks.PreToolUse[0].hooks[0].timeout as number;
    expect(claude).toBeGreaterThanOrEqual(30);
    expect(claude).toBeLessThan(600);
    expect(JSON.parse(await shown('copilot')).hooks.preToolUse[0].timeoutSec).toBeLessThan(600);
    expect(JSON.parse(await shown('cursor')).hooks.beforeShellExecution[0]).toMatchObject({ failClosed: true });
  });

  it('the installed client: server up → its answer; server down with a broken fallback → the agent\'s block, for every agent', async () => {
    const project = path.join(dir, 'p3');
    const file = path.join(dir, 'deny.json');
    const socket = path.join(dir, 'run3', 'hooks.sock');
    expect((await run(['install', '--agent', 'claude-code', '--config', file, '--project', project, '--socket', socket, '--command', 'false'])).code).toBe(0);
    const script = path.join(project, '.basis-hooks', 'hook.sh');
    const server = await startServe(file, socket);
    try {
      const up = await sh(script, ['claude-code'], CLAUDE_PRE, process.env);
      expect(JSON.parse(up.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecisionReason: 'in-process' } });
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
    const down = await sh(script, ['claude-code'], CLAUDE_PRE, process.env);
    expect(down.code).toBe(0);
    expect(JSON.parse(down.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('could not decide') as unknown } });
    expect(JSON.parse((await sh(script, ['cline'], '{}', process.env)).stdout)).toMatchObject({ cancel: true });
    expect((await sh(script, ['kiro'], '{}', process.env)).code).toBe(2);
    // No curl at all: still the block.
    const noCurl = await sh(script, ['gemini'], '{}', { PATH: '/usr/bin/nonexistent:/bin' });
    expect(JSON.parse(noCurl.stdout)).toMatchObject({ decision: 'deny' });
  });
});

describe('a post-call replacement the agent cannot apply is reported at install and check time', () => {
  it('install says so for every agent that cannot apply it; check --agent exits 1 exactly where it is not enforced', async () => {
    const file = path.join(dir, 'with-post.json');
    await writeFile(file, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'pre', event: 'pre_tool_use', command: ['sh', '-c', answer({ decision: 'allow' })] }, { name: 'post', event: 'post_tool_use', command: ['sh', '-c', answer({ decision: 'allow' })] }] }));
    const { AGENT_NAMES, agentDialect } = await import('../../../host/integrations/agents/index.js');
    for (const agent of AGENT_NAMES) {
      const caps = agentDialect(agent).capabilities;
      const dry = await run(['install', '--agent', agent, '--config', file, '--project', path.join(dir, 'notes', agent), '--dry-run', '--codex-bin', 'false']);
      expect(dry.code, agent).toBe(0);
      const notes = dry.stdout.split('\n').filter((l) => l.startsWith('note:')).join('\n');
      if (caps.replace !== 'apply' && caps.replace !== 'as_error') expect(notes, agent).toMatch(/result/);
      const checked = await run(['check', '--config', file, '--agent', agent]);
      const notEnforced = ['annotate', 'none'].includes(caps.replace) || ['annotate', 'none'].includes(caps.postDeny);
      expect(checked.code, agent).toBe(notEnforced ? 1 : 0);
    }
  }, 120_000);
});

describe('check --agent', () => {
  it('lists which of the chain\'s decisions the agent honours, and exits 1 when one is not enforced', async () => {
    const file = path.join(dir, 'both.json');
    await writeFile(file, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'pre', event: 'pre_tool_use', command: ['sh', '-c', answer({ decision: 'allow' })] }, { name: 'post', event: 'post_tool_use', command: ['sh', '-c', answer({ decision: 'allow' })] }] }));
    const claude = await run(['check', '--config', file, '--agent', 'claude-code']);
    expect(claude.code).toBe(0);
    expect(claude.stdout).toMatch(/post_tool_use replace\s+honoured/);
    const qwen = await run(['check', '--config', file, '--agent', 'qwen']);
    expect(qwen.code).toBe(1);
    expect(qwen.stdout).toMatch(/pre_tool_use modify\s+BLOCKED instead/);
    expect(qwen.stdout).toMatch(/post_tool_use replace\s+NOT enforced/);
    expect(qwen.stdout).toContain('milliseconds');
  });
});

