import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, agentDialect, type AgentName } from '../../../host/integrations/agents/index.js';
import { planInstall } from '../../../host/integrations/agents/install/agents.js';
import { applyChanges } from '../../../host/integrations/agents/install/files.js';
import { CLIENT_SCRIPT } from '../../../host/integrations/agents/install/script.js';
import { loadConfig } from '../../../host/config/load.js';
import { asReply, blocksIn, preEvent, runWith } from '../../helpers/agents.js';
import { ROOT } from '../../helpers/guests.js';
import { CLI } from '../../helpers/mcp.js';

/*
 * The installed client (`.basis-hooks/hook.sh`) and the command each agent's settings run, as the
 * agents run them: `sh -c "<command>"` with the agent's event on stdin, in the project (or below it),
 * with the agent's project variable set where it has one. Every path that cannot decide must end in
 * the agent's own block — never an exit 2 that Cline ignores, never an empty answer where the agent
 * needs JSON, never the shell's "cannot open".
 */

const POLICY = path.join(ROOT, 'examples', 'one-policy', 'hooks.json');
const COMMAND_POLICY = path.join(ROOT, 'examples', 'one-policy', 'hooks.command.json');
const REASON = 'basis-hooks policy: recursive rm is not allowed';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-client-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The event each agent sends for a recursive rm (Cursor: its beforeShellExecution), and for `echo hello`. */
function rmEvent(agent: AgentName): string {
  if (agent === 'cursor') return readFileSync(path.join(ROOT, 'test', 'fixtures', 'agents', 'cursor-beforeShellExecution.json'), 'utf8');
  return preEvent(agent);
}
const echoEvent = (agent: AgentName): string => rmEvent(agent).replace(/rm -rf \.\/(victim|build)/g, 'echo hello');

/** The agent's own answer for "no objection". */
function allows(agent: AgentName, reply: { exit: number; stdout: string }): boolean {
  if (reply.exit !== 0) return false;
  if (agent === 'cline') return JSON.parse(reply.stdout).cancel === false;
  if (agent === 'cursor') return JSON.parse(reply.stdout).permission === 'allow';
  return reply.stdout === '';
}

/** Where each agent's settings keep the pre-call command `install` wrote. */
async function installedCommand(agent: AgentName, project: string): Promise<string> {
  const json = async (file: string): Promise<any> => JSON.parse(await readFile(path.join(project, file), 'utf8'));
  switch (agent) {
    case 'claude-code':
      return (await json('.claude/settings.json')).hooks.PreToolUse[0].hooks[0].command;
    case 'qwen':
      return (await json('.qwen/settings.json')).hooks.PreToolUse[0].hooks[0].command;
    case 'codex':
      return (await json('.codex/hooks.json')).hooks.PreToolUse[0].hooks[0].command;
    case 'gemini':
      return (await json('.gemini/settings.json')).hooks.BeforeTool[0].hooks[0].command;
    case 'copilot':
      return (await json('.github/hooks/basis-hooks.json')).hooks.preToolUse[0].bash;
    case 'cline':
      // Cline runs the executable named after the event.
      return `"${path.join(project, '.clinerules', 'hooks', 'PreToolUse')}"`;
    case 'cursor':
      return (await json('.cursor/hooks.json')).hooks.beforeShellExecution[0].command;
    case 'windsurf':
      return (await json('.windsurf/hooks.json')).hooks.pre_run_command[0].command;
    case 'kiro':
      return (await json('.kiro/agents/basis-hooks.json')).hooks.preToolUse[0].command;
  }
}

/** The variable each agent sets to the project for its hooks. */
const PROJECT_VAR: Partial<Record<AgentName, string>> = { 'claude-code': 'CLAUDE_PROJECT_DIR', gemini: 'GEMINI_PROJECT_DIR', qwen: 'QWEN_PROJECT_DIR' };

/** Install the policy for an agent, in process (Codex's trust step needs the codex binary: it is the real-agent suite's). */
async function install(agent: AgentName, project: string, policy: string, extra: { socket?: string; command?: string; scope?: 'user'; home?: string } = {}): Promise<void> {
  const plan = await planInstall({
    agent,
    scope: extra.scope ?? 'project',
    project,
    home: extra.home ?? path.join(dir, 'home'),
    config: await loadConfig(policy),
    configFile: policy,
    ...(extra.socket === undefined ? {} : { socket: extra.socket }),
    ...(extra.command === undefined ? {} : { command: extra.command }),
    env: {},
  });
  await applyChanges(plan.changes);
}

/** Run a settings command as the agent does: through sh, in `cwd`, with its project variable. */
function runCommand(agent: AgentName, command: string, event: string, cwd: string, project: string, env: NodeJS.ProcessEnv = process.env): ReturnType<typeof runWith> {
  const name = PROJECT_VAR[agent];
  return runWith('/bin/sh', ['-c', command], event, { cwd, env: { ...env, ...(name === undefined ? {} : { [name]: project }) } });
}

function serve(config: string, socket: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config, '--socket', socket], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      log += c.toString();
      if (log.includes('listening on')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${log}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** A stand-in server on a Unix socket that answers every request with one status and body. */
async function fakeServer(socket: string, status: number, body: string): Promise<Server> {
  await mkdir(path.dirname(socket), { recursive: true, mode: 0o700 });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return server;
}

describe('one policy in all nine agents: what install writes decides each agent\'s events', () => {
  it('the component policy of examples/one-policy, through the resident server and, with it stopped, in-process from the project\'s own install (no npx)', async () => {
    const socket = path.join(dir, 'nine-run', 'hooks.sock');
    for (const agent of AGENT_NAMES) {
      const project = path.join(dir, 'nine', agent);
      await mkdir(path.join(project, 'node_modules'), { recursive: true });
      // The project installed basis-hooks: the fallback must find it there.
      await symlink(ROOT, path.join(project, 'node_modules', 'basis-hooks'));
      await install(agent, project, POLICY, { socket });
    }
    const server = await serve(POLICY, socket);
    try {
      for (const agent of AGENT_NAMES) {
        const project = path.join(dir, 'nine', agent);
        const command = await installedCommand(agent, project);
        const denied = asReply(await runCommand(agent, command, rmEvent(agent), project, project));
        expect(blocksIn(agent, denied), `${agent} (server): ${JSON.stringify(denied)}`).toBe(true);
        expect(denied.stdout + denied.stderr, agent).toContain(REASON);
        const allowed = asReply(await runCommand(agent, command, echoEvent(agent), project, project));
        expect(allows(agent, allowed), `${agent} (server) allow: ${JSON.stringify(allowed)}`).toBe(true);
      }
    } finally {
      await stop(server);
    }
    // No npx on this PATH: only the project's own install can answer.
    const bin = path.join(dir, 'bin');
    await mkdir(bin, { recursive: true });
    await symlink(process.execPath, path.join(bin, 'node'));
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: path.join(dir, 'home') };
    for (const agent of AGENT_NAMES) {
      const project = path.join(dir, 'nine', agent);
      const command = await installedCommand(agent, project);
      const denied = asReply(await runCommand(agent, command, rmEvent(agent), project, project, env));
      expect(blocksIn(agent, denied), `${agent} (in-process): ${JSON.stringify(denied)}`).toBe(true);
      expect(denied.stdout + denied.stderr, agent).toContain(REASON);
    }
  }, 300_000);

  it('the same policy as command hooks (hooks.command.json), in-process: the same decisions in all nine', async () => {
    for (const agent of AGENT_NAMES) {
      const project = path.join(dir, 'cmd', agent);
      await mkdir(project, { recursive: true });
      await install(agent, project, COMMAND_POLICY, { socket: path.join(dir, 'cmd', 'nobody.sock'), command: `${process.execPath} ${CLI}` });
      const command = await installedCommand(agent, project);
      const denied = asReply(await runCommand(agent, command, rmEvent(agent), project, project));
      expect(blocksIn(agent, denied), `${agent}: ${JSON.stringify(denied)}`).toBe(true);
      expect(denied.stdout + denied.stderr).toContain(REASON);
      expect(allows(agent, asReply(await runCommand(agent, command, echoEvent(agent), project, project)))).toBe(true);
    }
  }, 120_000);
});

describe('the installed client blocks on every path that cannot decide', () => {
  it('no server and a fallback that cannot start: every agent\'s own block', async () => {
    const project = path.join(dir, 'dead');
    await install('claude-code', project, COMMAND_POLICY, { socket: path.join(dir, 'dead', 'nobody.sock'), command: 'false' });
    const script = path.join(project, CLIENT_SCRIPT);
    for (const agent of AGENT_NAMES) {
      const reply = asReply(await runWith('/bin/sh', [script, agent], rmEvent(agent)));
      expect(blocksIn(agent, reply), `${agent}: ${JSON.stringify(reply)}`).toBe(true);
      expect(reply.stdout + reply.stderr).toContain('could not decide');
    }
  });

  it('a stale socket file (the server was killed): curl is refused, the event goes to the fallback, and its answer or its failure is the script\'s', async () => {
    const socket = path.join(dir, 'stale-run', 'hooks.sock');
    const project = path.join(dir, 'stale', 'ok');
    const broken = path.join(dir, 'stale', 'broken');
    await install('claude-code', project, COMMAND_POLICY, { socket, command: `${process.execPath} ${CLI}` });
    await install('claude-code', broken, COMMAND_POLICY, { socket, command: 'false' });
    const server = await serve(COMMAND_POLICY, socket);
    const killed = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await killed;
    expect((await lstat(socket)).isSocket()).toBe(true);
    for (const agent of AGENT_NAMES) {
      const denied = asReply(await runWith('/bin/sh', [path.join(project, CLIENT_SCRIPT), agent], rmEvent(agent)));
      expect(blocksIn(agent, denied), `${agent}: ${JSON.stringify(denied)}`).toBe(true);
      expect(denied.stdout + denied.stderr, agent).toContain(REASON);
      expect(allows(agent, asReply(await runWith('/bin/sh', [path.join(project, CLIENT_SCRIPT), agent], echoEvent(agent)))), agent).toBe(true);
      const failed = asReply(await runWith('/bin/sh', [path.join(broken, CLIENT_SCRIPT), agent], rmEvent(agent)));
      expect(blocksIn(agent, failed), `${agent}: ${JSON.stringify(failed)}`).toBe(true);
      expect(failed.stdout + failed.stderr).toContain('could not decide');
    }
  }, 120_000);

  it('a server that refuses (an HTTP error) is a block; only Windsurf and Kiro get exit 2 — Cline ignores it', async () => {
    const socket = path.join(dir, 'refuse', 'hooks.sock');
    const project = path.join(dir, 'refuse');
    await install('claude-code', project, COMMAND_POLICY, { socket, command: 'false' });
    const server = await fakeServer(socket, 503, 'busy');
    try {
      for (const agent of AGENT_NAMES) {
        const reply = asReply(await runWith('/bin/sh', [path.join(project, CLIENT_SCRIPT), agent], rmEvent(agent)));
        expect(blocksIn(agent, reply), `${agent}: ${JSON.stringify(reply)}`).toBe(true);
        expect(reply.exit).toBe(agentDialect(agent).block('x').exit);
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('an empty answer where the agent needs JSON (Cline, Cursor) is a block; elsewhere it is "no objection"', async () => {
    const socket = path.join(dir, 'empty', 'hooks.sock');
    const project = path.join(dir, 'empty');
    await install('claude-code', project, COMMAND_POLICY, { socket, command: 'false' });
    const server = await fakeServer(socket, 200, '');
    try {
      for (const agent of AGENT_NAMES) {
        const reply = asReply(await runWith('/bin/sh', [path.join(project, CLIENT_SCRIPT), agent], echoEvent(agent)));
        if (agentDialect(agent).capabilities.silentAllow) expect(reply, agent).toEqual({ exit: 0, stdout: '', stderr: '' });
        else expect(blocksIn(agent, reply), `${agent}: ${JSON.stringify(reply)}`).toBe(true);
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a fallback that exits 2 blocks in every agent\'s terms (for Cline that is {"cancel": true}, not the exit 2 it ignores)', async () => {
    const project = path.join(dir, 'exit2');
    const exit2 = path.join(dir, 'exit2.sh');
    await writeFile(exit2, 'cat >/dev/null; echo "broken" >&2; exit 2\n');
    await install('claude-code', project, COMMAND_POLICY, { socket: path.join(dir, 'exit2', 'nobody.sock'), command: `sh ${exit2}` });
    for (const agent of AGENT_NAMES) {
      const reply = asReply(await runWith('/bin/sh', [path.join(project, CLIENT_SCRIPT), agent], rmEvent(agent)));
      expect(blocksIn(agent, reply), `${agent}: ${JSON.stringify(reply)}`).toBe(true);
    }
  });
});

describe('the command in the agent\'s settings', () => {
  const RUN_HERE: readonly AgentName[] = ['claude-code', 'codex', 'gemini', 'copilot', 'qwen', 'cline'];

  it('finds the client from a subdirectory of the project (hooks run in the session\'s directory), and blocks — never "cannot open" — when it is missing', async () => {
    for (const agent of RUN_HERE) {
      const project = path.join(dir, 'where', agent);
      const sub = path.join(project, 'src', 'deep');
      await mkdir(sub, { recursive: true });
      await install(agent, project, COMMAND_POLICY, { socket: path.join(dir, 'where', 'nobody.sock'), command: `${process.execPath} ${CLI}` });
      const command = await installedCommand(agent, project);
      const found = asReply(await runCommand(agent, command, rmEvent(agent), sub, project));
      expect(blocksIn(agent, found), `${agent}: ${JSON.stringify(found)}`).toBe(true);
      expect(found.stdout + found.stderr).toContain(REASON);
      await rm(path.join(project, CLIENT_SCRIPT));
      const missing = asReply(await runCommand(agent, command, rmEvent(agent), sub, project));
      expect(blocksIn(agent, missing), `${agent} missing: ${JSON.stringify(missing)}`).toBe(true);
      expect(missing.stdout + missing.stderr).toContain('was not found');
    }
  }, 120_000);

  it('--scope user: the client in the home directory, the project\'s own install found from the hook\'s directory', async () => {
    const home = path.join(dir, 'userhome');
    const project = path.join(dir, 'userproj');
    await mkdir(path.join(project, 'node_modules'), { recursive: true });
    await symlink(ROOT, path.join(project, 'node_modules', 'basis-hooks'));
    const plan = await planInstall({ agent: 'claude-code', scope: 'user', project, home, config: await loadConfig(COMMAND_POLICY), configFile: COMMAND_POLICY, socket: path.join(dir, 'nobody-user.sock'), env: {} });
    await applyChanges(plan.changes);
    const command = JSON.parse(await readFile(path.join(home, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command as string;
    const reply = asReply(await runWith('/bin/sh', ['-c', command], rmEvent('claude-code'), { cwd: project, env: { ...process.env, HOME: home } }));
    expect(blocksIn('claude-code', reply), JSON.stringify(reply)).toBe(true);
    expect(reply.stdout).toContain(REASON);
  });

  it('the Cline hook file is executable and, with the client missing, answers {"cancel": true}', async () => {
    const project = path.join(dir, 'cline-missing');
    await install('cline', project, COMMAND_POLICY, { socket: path.join(dir, 'nobody-cline.sock'), command: 'false' });
    const hook = path.join(project, '.clinerules', 'hooks', 'PreToolUse');
    await rm(path.join(project, CLIENT_SCRIPT));
    const reply = asReply(await runWith(hook, [], rmEvent('cline'), { cwd: project }));
    expect(reply.exit).toBe(0);
    expect(JSON.parse(reply.stdout)).toMatchObject({ cancel: true });
  });
});
