/**
 * "Nothing secret is in any span or metric unless the option says so", as properties over generated
 * calls: a generated secret sits in the tool's input (beside generated JSON) and in its output, and
 * the hooks do everything a hook can do with it — deny with it in the reason, move it into a rewritten
 * input, put it in a replaced output, echo the whole request back as garbage (a failure whose message
 * quotes it), crash with it on stderr, throw with it in the error.
 *
 * - The runner, into the official SDK in memory: by default the secret is nowhere; with
 *   `telemetry_reasons` only in `basis_hooks.reason`; with `telemetry_payloads` only there, in the
 *   failure message and in the recorded input and output.
 * - Every process that exports, through the built CLI to a loopback OTLP receiver, by default: the
 *   MCP gateway (`mcp --otlp`, an upstream whose answers, tool errors and JSON-RPC errors repeat the
 *   secret), the Claude Code bridge (`claude-code --http`) and the resident server (`serve`, two agent
 *   dialects). Not one request the receiver got contains a secret — and the chains did arrive.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport, type HookDefinition, type Interceptor, type JsonValue, type RunnerOptions } from '../../host/index.js';
import { ROOT } from '../helpers/guests.js';
import { CLI, gatewayArgv, ProcessTransport } from '../helpers/mcp.js';
import { OtlpReceiver } from '../helpers/otlp-receiver.js';
import { testSdk, type TestSdk } from './sdk.js';

const PRE_MODES = ['allow', 'deny', 'modify', 'garbage', 'crash', 'throw'] as const;
const POST_MODES = ['allow', 'replace', 'garbage', 'throw'] as const;
type PreMode = (typeof PRE_MODES)[number];
type PostMode = (typeof POST_MODES)[number];

interface Case {
  readonly secret: string;
  readonly mode: PreMode;
  readonly post: PostMode;
  readonly input: { [key: string]: JsonValue };
  readonly output: JsonValue;
}

/** Secrets that cannot occur in a span by chance (ids are lower-case hex, names are ours). */
const secret = fc.stringMatching(/^[A-Za-z0-9]{20,32}$/).map((s) => `SK${s}Q`);
const text = fc.string({ maxLength: 12 });
function caseOf(modes: readonly PreMode[], posts: readonly PostMode[]): fc.Arbitrary<Case> {
  return fc
    .record({ secret, mode: fc.constantFrom(...modes), post: fc.constantFrom(...posts), extra: fc.jsonValue({ maxDepth: 2 }), before: text, after: text })
    .map(({ secret: s, mode, post, extra: generated, before, after }) => {
      // fast-check's JSON type allows an absent member; what it generates is JSON, which ours is.
      const extra = generated as JsonValue;
      return {
      secret: s,
      mode,
      post,
      input: { mode, post, secret: s, data: extra, nested: { list: [`${before}${s}${after}`] } },
      output: { text: `${before}the result holds ${s}${after}`, data: extra },
      };
    });
}

/** What the fixture hook (test/fixtures/telemetry/secret-hook.mjs) does, as an interceptor — and a throw. */
const secretHook: Interceptor = (req) => {
  const input = (typeof req.input === 'object' && req.input !== null && !Array.isArray(req.input) ? req.input : {}) as Record<string, JsonValue>;
  const s = String(input['secret'] ?? '');
  const mode = req.event === 'post_tool_use' ? String(input['post'] ?? 'allow') : String(input['mode'] ?? 'allow');
  switch (mode) {
    case 'deny':
      return { decision: 'deny', reason: `found ${s} in the input` };
    case 'modify':
      return { decision: 'modify', input: { ...input, mode: 'modified', note: `moved ${s}` }, reason: `rewrote ${s}` };
    case 'replace':
      return { decision: 'replace', output: `the output had ${s}`, reason: `replaced ${s}` };
    case 'garbage':
      return `not a response: ${JSON.stringify(req)}` as never;
    case 'crash':
    case 'throw':
      throw new Error(`crashing on ${s}`);
    default:
      return { decision: 'allow' };
  }
};

function hooks(): HookDefinition[] {
  return [
    { name: 'secret-pre', event: 'pre_tool_use', on_failure: 'allow', transport: interceptorTransport(secretHook) },
    { name: 'secret-shadow', event: 'pre_tool_use', mode: 'shadow', transport: interceptorTransport(secretHook) },
    { name: 'secret-post', event: 'post_tool_use', on_failure: 'allow', transport: interceptorTransport(secretHook) },
  ];
}

/** Every string an SDK holds — span names, attribute values (but the keys `allowed`), statuses, events, links, resources, metrics — with where it was. */
async function strings(sdk: TestSdk, allowed: ReadonlySet<string>): Promise<Array<{ where: string; text: string }>> {
  const out: Array<{ where: string; text: string }> = [];
  const walk = (value: unknown, where: string): void => {
    if (typeof value === 'string') out.push({ where, text: value });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`);
  };
  for (const span of sdk.spans()) {
    walk(span.name, `${span.name}.name`);
    for (const [key, value] of Object.entries(span.attributes)) if (!allowed.has(key)) walk(value, `${span.name}.${key}`);
    walk(span.status, `${span.name}.status`);
    walk(span.events, `${span.name}.events`);
    walk(span.links, `${span.name}.links`);
    walk(span.resource.attributes, `${span.name}.resource`);
  }
  walk(JSON.parse(JSON.stringify(await sdk.reader.metrics())), 'metrics');
  return out;
}

describe('no secret in telemetry unless an option says so: the runner', () => {
  const options: ReadonlyArray<{ readonly name: string; readonly options: RunnerOptions; readonly allowed: ReadonlySet<string> }> = [
    { name: 'by default', options: {}, allowed: new Set() },
    { name: 'with telemetry_reasons', options: { telemetry_reasons: true }, allowed: new Set(['basis_hooks.reason']) },
    {
      name: 'with telemetry_payloads',
      options: { telemetry_payloads: true },
      allowed: new Set(['basis_hooks.reason', 'basis_hooks.failure.message', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']),
    },
  ];
  for (const { name, options: runnerOptions, allowed } of options) {
    it(`${name}: the secret is in nothing but ${allowed.size === 0 ? '(nothing)' : [...allowed].join(', ')}`, async () => {
      await fc.assert(
        fc.asyncProperty(caseOf(PRE_MODES, POST_MODES), async (c) => {
          const sdk = testSdk();
          try {
            const runner = new HookRunner(hooks(), { ...runnerOptions, telemetry: { tracer_provider: sdk.tracerProvider, meter_provider: sdk.meterProvider } });
            const call = { workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'call-1', tool_name: 'shell' };
            const pre = await runner.pre({ ...call, input: c.input }, { wait_for_shadows: true });
            if (pre.decision === 'allow') await runner.post({ ...call, input: pre.input, output: c.output, is_error: false });
            await runner.close();
            const leaks = (await strings(sdk, allowed)).filter((s) => s.text.includes(c.secret));
            expect(leaks).toEqual([]);
            // The options do record what they name (the property is not vacuous).
            if (allowed.has('basis_hooks.reason') && c.mode === 'deny') {
              expect(sdk.spans().some((s) => String(s.attributes['basis_hooks.reason'] ?? '').includes(c.secret))).toBe(true);
            }
            if (allowed.has('gen_ai.tool.call.arguments')) {
              expect(sdk.spans().some((s) => String(s.attributes['gen_ai.tool.call.arguments'] ?? '').includes(c.secret))).toBe(true);
            }
          } finally {
            await sdk.shutdown();
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});

// --- every exporting process of the CLI, by default -----------------------------------------------

const HOOK = path.join(ROOT, 'test/fixtures/telemetry/secret-hook.mjs');
const UPSTREAM = [process.execPath, path.join(ROOT, 'test/fixtures/mcp/secret-server.mjs')];
const SAMPLE = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(ROOT, 'agents/samples', file), 'utf8')) as Record<string, unknown>;
/** The command hook cannot throw: its crash is its exit status. */
const CLI_PRE: readonly PreMode[] = ['allow', 'deny', 'modify', 'garbage', 'crash'];
const CLI_POST: readonly PostMode[] = ['allow', 'replace', 'garbage'];

let dir: string;
let config: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-secrets-'));
  config = path.join(dir, 'hooks.json');
  const hook = [process.execPath, HOOK];
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'secret-pre', event: 'pre_tool_use', on_failure: 'allow', command: hook },
        { name: 'secret-shadow', event: 'pre_tool_use', mode: 'shadow', command: hook },
        { name: 'secret-post', event: 'post_tool_use', on_failure: 'allow', command: hook },
      ],
    }),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Start a long-running command of the CLI; resolves once it says `listening on`, with what it said. */
async function start(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; address: string; log: () => string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /listening on (\S+)/.exec(log);
      if (found?.[1] !== undefined) {
        clearInterval(timer);
        resolve(found[1]);
      }
    }, 50);
    child.once('exit', (code) => (clearInterval(timer), reject(new Error(`exited ${String(code)}: ${log}`))));
  });
  return { child, address, log: () => log };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM'); // a clean stop flushes the exporters
  expect(await exited).toBe(0);
}

function post(target: { socketPath: string } | { url: string }, urlPath: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = 'url' in target ? new URL(urlPath, target.url) : undefined;
    const where = url === undefined ? { socketPath: (target as { socketPath: string }).socketPath, path: urlPath } : { hostname: url.hostname, port: url.port, path: url.pathname };
    const req = request({ ...where, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A Claude Code or Gemini CLI event, from the agents' own samples, carrying the case's input (and output after the call). */
function agentEvent(agent: 'claude-code' | 'gemini', event: 'pre' | 'post', c: Case, id: string): string {
  const sample = agent === 'claude-code' ? SAMPLE(event === 'pre' ? 'claude-PreToolUse.json' : 'claude-PostToolUse.json') : SAMPLE(event === 'pre' ? 'gemini-BeforeTool.json' : 'gemini-AfterTool.json');
  return JSON.stringify({ ...sample, cwd: dir, tool_use_id: id, tool_input: c.input, ...(event === 'post' ? { tool_response: c.output } : {}) });
}

describe('no secret in telemetry by default: every process that exports', () => {
  it('mcp --otlp, claude-code --http and serve: no request the receiver got holds a secret, and every chain arrived', async () => {
    const receiver = await OtlpReceiver.start();
    const env: NodeJS.ProcessEnv = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    delete env['OTEL_SDK_DISABLED'];
    const cases = fc.sample(caseOf(CLI_PRE, CLI_POST), { numRuns: 12, seed: 25 });
    const secrets = cases.map((c) => c.secret);
    let chains = 0;
    try {
      // The MCP gateway, between the official client and an upstream that repeats the secret.
      const gateway = new ProcessTransport(gatewayArgv(config, UPSTREAM, ['--otlp', receiver.url]), env);
      const client = new Client({ name: 'secrets-client', version: '1.0.0' }, { capabilities: {} });
      await client.connect(gateway);
      for (const [i, c] of cases.entries()) {
        const tool = (['echo', 'broken', 'refuse'] as const)[i % 3] as string;
        await client.callTool({ name: tool, arguments: c.input }).catch((error: unknown) => error);
        chains += c.mode === 'deny' || tool === 'refuse' ? 1 : 2;
      }
      await gateway.close();

      // The Claude Code bridge over HTTP.
      const bridge = await start(['claude-code', '--config', config, '--http', '--port', '0', '--otlp', receiver.url], env);
      for (const [i, c] of cases.entries()) {
        expect(await post({ url: bridge.address }, '/', agentEvent('claude-code', 'pre', c, `cc-${i}`))).toBe(200);
        expect(await post({ url: bridge.address }, '/', agentEvent('claude-code', 'post', c, `cc-${i}`))).toBe(200);
        chains += 2;
      }
      await stop(bridge.child);

      // The resident server, in two agents' dialects.
      const socket = path.join(dir, 'run', 'hooks.sock');
      const serve = await start(['serve', '--config', config, '--socket', socket, '--otlp', receiver.url], env);
      for (const [i, c] of cases.entries()) {
        const agent = i % 2 === 0 ? 'claude-code' : 'gemini';
        expect(await post({ socketPath: socket }, `/v1/hook/${agent}`, agentEvent(agent, 'pre', c, `sv-${i}`))).toBe(200);
        expect(await post({ socketPath: socket }, `/v1/hook/${agent}`, agentEvent(agent, 'post', c, `sv-${i}`))).toBe(200);
        chains += 2;
      }
      await stop(serve.child);

      await receiver.waitFor(() => receiver.spans.filter((s) => s.name === 'basis_hooks.chain').length >= chains);
      expect(receiver.spans.filter((s) => s.name === 'basis_hooks.chain').length).toBe(chains);
      // Failures (garbage, crash) and rewrites happened, and were recorded without their text.
      expect(receiver.spans.some((s) => s.attributes['basis_hooks.failure.code'] === 'malformed_response')).toBe(true);
      expect(receiver.spans.some((s) => s.attributes['basis_hooks.failure.code'] === 'exit_nonzero')).toBe(true);
      expect(receiver.spans.some((s) => s.attributes['rpc.response.status_code'] === '-32602')).toBe(true);
      const leaks = receiver.bodies.flatMap((body, n) => secrets.filter((s) => body.includes(s)).map((s) => `request ${n}: …${body.slice(Math.max(0, body.indexOf(s) - 200), body.indexOf(s) + 40)}…`));
      expect(leaks).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
