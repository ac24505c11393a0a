import type { AgentName } from '../integrations/agents/names.js';
import { traceHeaders } from '../integrations/agents/trace-env.js';
import type { AgentReply } from '../integrations/agents/types.js';
import type { HookRunner } from '../runner/runner.js';
import { readStdin, write } from './io.js';

/*
 * `basis-hooks hook --agent X`: what an agent runs as its command hook, per event. The happy path
 * needs nothing but node:http (and --no-server not even that) — the dialects, zod and the runner load only when the server does not
 * answer (the in-process fallback) or the answer must be a block.
 */

/** Options of {@link runHookClient}. */
export interface HookClientOptions {
  readonly agent: AgentName;
  /** The server's socket; undefined: do not try a server (`--no-server`). */
  readonly socket: string | undefined;
  /** Run the chain in-process when no server answers. */
  readonly configFile?: string;
  /** How long to wait for the server to accept, ms. */
  readonly connectTimeoutMs: number;
  /** How long to wait for its answer, ms; then block. */
  readonly timeoutMs: number;
}

type Sent = { readonly kind: 'reply'; readonly reply: AgentReply } | { readonly kind: 'unreachable'; readonly why: string } | { readonly kind: 'failed'; readonly why: string };

/** POST the event to the server; a reply, or why there is none. */
async function send(options: HookClientOptions, body: string): Promise<Sent> {
  const socketPath = options.socket;
  if (socketPath === undefined) return { kind: 'unreachable', why: 'no server was asked for (--no-server)' };
  // node:http only when a server is asked for: the --no-server fallback (the installed script's, per
  // event when no server runs) does not pay for loading it.
  const { request } = await import('node:http');
  return new Promise((resolve) => {
    let connected = false;
    let settled = false;
    const done = (sent: Sent): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
      req.destroy();
      resolve(sent);
    };
    const req = request(
      {
        socketPath,
        path: `/v1/hook/${options.agent}`,
        method: 'POST',
        // The agent's trace (TRACEPARENT in this process's environment), continued by the server's chain span.
        headers: { host: 'localhost', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...traceHeaders() },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) done({ kind: 'reply', reply: { exit: 0, stdout: text, stderr: '' } });
          else if (res.statusCode === 409) done({ kind: 'reply', reply: { exit: Number(res.headers['x-basis-exit'] ?? 2) || 2, stdout: '', stderr: text.endsWith('\n') ? text : `${text}\n` } });
          else done({ kind: 'failed', why: `the hook server answered ${String(res.statusCode)}: ${text.slice(0, 300)}` });
        });
        res.on('error', (error) => done({ kind: 'failed', why: `the hook server's answer broke off (${error.message})` }));
      },
    );
    req.on('socket', (socket) => socket.on('connect', () => (connected = true)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) done({ kind: 'unreachable', why: `no hook server at ${options.socket} (${error.code ?? error.message})` });
      else done({ kind: 'failed', why: `the hook server connection failed (${error.code ?? error.message})` });
    });
    const connectTimer = setTimeout(() => {
      if (!connected) done({ kind: 'unreachable', why: `no hook server accepted on ${options.socket} within ${options.connectTimeoutMs} ms` });
    }, options.connectTimeoutMs);
    const answerTimer = setTimeout(() => done({ kind: 'failed', why: `the hook server did not answer within ${options.timeoutMs} ms` }), options.timeoutMs);
    req.end(body);
  });
}

/** The agent's block for a reason. */
async function block(agent: AgentName, reason: string): Promise<AgentReply> {
  const { agentDialect } = await import('../integrations/agents/registry.js');
  return agentDialect(agent).block(reason);
}

/** A chain loaded for the in-process fallback, or why it did not load. */
type Loaded = { readonly runner: HookRunner; readonly toolNames: 'native' | 'canonical' } | { readonly error: string };

/** Load the config and create its runner (started while stdin is still being read, when no server is asked for). */
async function loadChain(configFile: string): Promise<Loaded> {
  const [{ loadConfig }, { createRunner }] = await Promise.all([import('../config/load.js'), import('../config/create-runner.js')]);
  try {
    const config = await loadConfig(configFile);
    return { runner: await createRunner(config), toolNames: config.tool_names ?? 'native' };
  } catch (error) {
    return { error: `the config ${configFile} does not load: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Run the chain here for one event; the runner is closed by the caller, after the answer is out. */
async function inProcess(agent: AgentName, loaded: Loaded, body: string): Promise<AgentReply> {
  if ('error' in loaded) return block(agent, loaded.error);
  const { handleAgentEvent } = await import('../integrations/agents/handle.js');
  return handleAgentEvent(loaded.runner, agent, body, { toolNames: loaded.toolNames });
}

/**
 * One event: stdin to the server, its answer to stdout/stderr and the exit status. No server: the
 * chain in-process with a config, else the agent's block — never the agent's fail-open path (a crash,
 * exit 1, no output). Resolves to the exit status. The answer is written before the in-process runner
 * is closed: the agent waits for the answer, not for the clean-up.
 */
export async function runHookClient(options: HookClientOptions): Promise<number> {
  let reply: AgentReply;
  // --no-server: nothing to wait for but the chain, so it loads while the event is read.
  let loading = options.socket === undefined && options.configFile !== undefined ? loadChain(options.configFile) : undefined;
  try {
    const body = await readStdin();
    const sent = await send(options, body);
    if (sent.kind === 'reply') reply = sent.reply;
    else if (sent.kind === 'unreachable' && options.configFile !== undefined) {
      loading ??= loadChain(options.configFile);
      reply = await inProcess(options.agent, await loading, body);
    } else reply = await block(options.agent, sent.why);
  } catch (error) {
    reply = await block(options.agent, `internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (reply.stdout !== '') await write(process.stdout, reply.stdout);
  if (reply.stderr !== '') process.stderr.write(reply.stderr);
  const loaded = await loading?.catch(() => undefined);
  if (loaded !== undefined && 'runner' in loaded) await loaded.runner.close().catch(() => undefined);
  return reply.exit;
}
