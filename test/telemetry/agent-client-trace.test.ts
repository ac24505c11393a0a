/**
 * The agent's trace through the command client to the resident server, as an agent runs it: Claude
 * Code (with its tracing on) starts each hook with `TRACEPARENT` in the environment; the hook is the
 * command client — `basis-hooks hook --agent` (the built CLI) or the installed `.basis-hooks/hook.sh`
 * (sh + curl) — which sends the event to `basis-hooks serve --otlp`; the chain's span must arrive at
 * the loopback receiver in the agent's trace, its parent the agent's span, with the agent's
 * `tracestate`. A `TRACEPARENT` that cannot be sent as a header (a line break, a header smuggled after
 * it) is left out: the call is still answered by the server, in a trace of its own. And the two
 * clients apply one rule to what they send (property test against the script's sh).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientScript } from '../../host/integrations/agents/install/script.js';
import { TRACE_SH, traceHeaders } from '../../host/integrations/agents/trace-env.js';
import { CLI } from '../helpers/mcp.js';
import { OtlpReceiver } from '../helpers/otlp-receiver.js';
import { runWith, type Ran } from '../helpers/run.js';

const SPAN = 'b7ad6b7169203331';
const traceOf = (n: number): string => `${String(n).padStart(2, '0')}f7651916cd43dd8448eb211c80319c`;
const SECRET = 'AKIAIOSFODNN7EXAMPLE';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-client-trace-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Run a client with the event on stdin and `env` added; its exit status and output. */
function run(argv: readonly string[], env: NodeJS.ProcessEnv, stdin: string, cwd: string): Promise<Ran> {
  return runWith(argv[0] as string, argv.slice(1), stdin, { cwd, env: { ...process.env, ...env } });
}

async function startServe(config: string, socket: string, receiver: OtlpReceiver): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config, '--socket', socket, '--otlp', receiver.url], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => log.includes('listening on') && (clearInterval(timer), resolve()), 50);
    child.once('exit', (code) => (clearInterval(timer), reject(new Error(`serve exited ${String(code)}: ${log}`))));
  });
  return { child, log: () => log };
}

describe('the command client passes the agent\'s trace to the server', () => {
  it('basis-hooks hook --agent and the installed hook.sh: TRACEPARENT/TRACESTATE become the chain span\'s parent and state; an unsendable one is left out, and the call is still answered', async () => {
    const receiver = await OtlpReceiver.start();
    const project = path.join(dir, 'project');
    await mkdir(path.join(project, '.basis-hooks'), { recursive: true });
    const config = path.join(project, 'hooks.json');
    await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'no-rm', event: 'pre_tool_use', command: ['sh', '-c', `cat >/dev/null; printf '%s\\n' '{"decision":"deny","reason":"no rm"}'`] }] }));
    const socket = path.join(dir, 'run', 'hooks.sock');
    const script = path.join(project, '.basis-hooks', 'hook.sh');
    // The fallback must not be what answers: a launcher that fails shows up as the client's block.
    await writeFile(script, clientScript({ config: '../hooks.json', socket, timeoutSeconds: 30, command: 'false' }));
    await chmod(script, 0o755);
    const serve = await startServe(config, socket, receiver);
    const event = (id: string): string => JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `rm -rf /x # ${SECRET}` }, tool_use_id: id });
    const node = [process.execPath, CLI, 'hook', '--agent', 'claude-code', '--socket', socket];
    const sh = ['sh', script, 'claude-code'];
    const cases: Array<{ id: string; argv: readonly string[]; env: NodeJS.ProcessEnv; trace: string | undefined; state: string | undefined }> = [
      { id: 'node-1', argv: node, env: { TRACEPARENT: `00-${traceOf(1)}-${SPAN}-01`, TRACESTATE: 'claude=t61rcWkgMzE' }, trace: traceOf(1), state: 'claude=t61rcWkgMzE' },
      { id: 'sh-2', argv: sh, env: { TRACEPARENT: `00-${traceOf(2)}-${SPAN}-01`, TRACESTATE: 'claude=t61rcWkgMzE,ci=a:b' }, trace: traceOf(2), state: 'claude=t61rcWkgMzE,ci=a:b' },
      { id: 'node-3', argv: node, env: { TRACEPARENT: `00-${traceOf(3)}-${SPAN}-01\r\nx-evil: 1` }, trace: undefined, state: undefined },
      { id: 'sh-4', argv: sh, env: { TRACEPARENT: `00-${traceOf(4)}-${SPAN}-01\nx-evil: 1` }, trace: undefined, state: undefined },
      // A tracestate that cannot be sent goes; the traceparent still does.
      { id: 'node-5', argv: node, env: { TRACEPARENT: `00-${traceOf(5)}-${SPAN}-01`, TRACESTATE: 'vendor=\u0007x' }, trace: traceOf(5), state: undefined },
      { id: 'sh-6', argv: sh, env: { TRACEPARENT: `00-${traceOf(6)}-${SPAN}-01`, TRACESTATE: 'vendor=é' }, trace: traceOf(6), state: undefined },
    ];
    try {
      for (const c of cases) {
        const env = { TRACESTATE: '', ...c.env };
        const answer = await run(c.argv, env, event(c.id), project);
        expect(answer.code, `${c.id}: ${answer.stderr}`).toBe(0);
        // The server's own answer (its hook's reason), not a client's block.
        expect(JSON.parse(answer.stdout), c.id).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
      }
    } finally {
      const exited = new Promise<number | null>((resolve) => serve.child.once('exit', resolve));
      serve.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    try {
      const chains = receiver.spans.filter((s) => s.name === 'basis_hooks.chain');
      expect(chains).toHaveLength(cases.length);
      for (const c of cases) {
        const chain = chains.find((s) => s.attributes['gen_ai.tool.call.id'] === c.id);
        expect(chain, `${c.id}: ${serve.log()}`).toBeDefined();
        if (c.trace === undefined) {
          expect(chain?.parentSpanId, c.id).toBeUndefined();
          expect(chain?.traceId, c.id).not.toMatch(/f7651916cd43dd8448eb211c80319c$/);
        } else {
          expect(chain, c.id).toMatchObject({ traceId: c.trace, parentSpanId: SPAN });
          expect(chain?.traceState, c.id).toBe(c.state);
        }
      }
      expect(receiver.bodies.join('\n')).not.toContain(SECRET);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('the sh client and the Node client send the same headers for any TRACEPARENT/TRACESTATE', async () => {
    const probe = path.join(dir, 'probe.sh');
    await writeFile(probe, `${TRACE_SH}\nprintf '%s\\n%s' "$tp" "$ts"\n`);
    const hex = fc.constantFrom(...'0123456789abcdef-');
    const w3c = fc.tuple(fc.stringMatching(/^[0-9a-f]{32}$/), fc.stringMatching(/^[0-9a-f]{16}$/)).map(([t, s]) => `00-${t}-${s}-01`);
    const parent = fc.oneof(w3c, fc.array(hex, { maxLength: 600 }).map((c) => c.join('')), fc.string({ unit: 'binary', maxLength: 80 }), w3c.map((v) => `${v}\nx: y`), w3c.map((v) => `${v} `));
    const state = fc.oneof(fc.constant(undefined), fc.stringMatching(/^[a-z]{1,8}=[A-Za-z0-9:+]{1,16}(,[a-z]{1,8}=[a-z]{1,8}){0,3}$/), fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ maxLength: 1100 }));
    fc.assert(
      fc.property(parent, state, (traceparent, tracestate) => {
        // An environment value cannot hold a NUL.
        fc.pre(!traceparent.includes('\u0000') && !(tracestate ?? '').includes('\u0000'));
        const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], LC_ALL: 'C.UTF-8', TRACEPARENT: traceparent };
        if (tracestate !== undefined) env['TRACESTATE'] = tracestate;
        const out = spawnSync('sh', [probe], { env, encoding: 'utf8' });
        expect(out.status).toBe(0);
        const [tp = '', ts = ''] = out.stdout.split('\n');
        const headers = traceHeaders(env);
        expect(tp).toBe(headers.traceparent === undefined ? '' : `traceparent: ${headers.traceparent}`);
        expect(ts).toBe(headers.tracestate === undefined ? '' : `tracestate: ${headers.tracestate}`);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
