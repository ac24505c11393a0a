/**
 * End to end, as an operator runs it: `basis-hooks mcp --otlp URL` (the built CLI) between the official
 * MCP SDK client and an upstream MCP server instrumented with the official OpenTelemetry SDK, both
 * exporting over OTLP/HTTP to a loopback receiver. One trace must arrive: the client's span → the
 * gateway's tools/call span → the pre chain and each hook → the hop upstream → the server's own span
 * → the post chain and its hooks. Metrics arrive too. No secret of the input or the output is in
 * anything the receiver got, unless the config asks for payloads — and then only as the hooks left them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/guests.js';
import { gatewayArgv, ProcessTransport } from '../helpers/mcp.js';
import { OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { ensureOpsGuests, policyGuest, shHook } from '../ops/helpers.js';

const SERVER = [process.execPath, path.join(ROOT, 'test/fixtures/mcp/traced-server.mjs')];
const SECRET = 'AKIAIOSFODNN7EXAMPLE';
/** The client's own span: the trace every span must belong to. */
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

let dir: string;
let receiver: OtlpReceiver;
const open: ProcessTransport[] = [];

beforeAll(async () => {
  await ensureOpsGuests();
  dir = await mkdtemp(path.join(tmpdir(), 'basis-otlp-'));
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(open.splice(0).map((g) => g.close()));
  await receiver?.close();
});

/** A config: a metered WAT guard (pre), an sh hook that redacts the secret (post), and a shadow. */
async function config(extra: Record<string, unknown> = {}): Promise<string> {
  const redact = path.join(dir, 'redact.mjs');
  await writeFile(
    redact,
    [
      "let text = '';",
      "process.stdin.on('data', (c) => (text += c));",
      "process.stdin.on('end', () => {",
      '  const output = JSON.stringify(JSON.parse(text).output);',
      `  const clean = output.replaceAll(${JSON.stringify(SECRET)}, '[REDACTED]');`,
      "  console.log(JSON.stringify(clean === output ? { decision: 'allow' } : { decision: 'replace', output: JSON.parse(clean), reason: 'redacted' }));",
      '});',
    ].join('\n'),
  );
  const file = path.join(dir, `hooks-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    file,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'guard', event: 'pre_tool_use', component: policyGuest('wat', 'guard'), isolation: 'metered' },
        { name: 'watch', event: 'pre_tool_use', mode: 'shadow', command: [await shHook(dir, 'watch.sh', `cat >/dev/null\necho '{"decision":"allow"}'`)] },
        { name: 'redact', event: 'post_tool_use', tools: ['leak'], command: [process.execPath, redact] },
      ],
      ...extra,
    }),
  );
  return file;
}

async function gateway(configFile: string, flags: string[] = []): Promise<{ client: Client; gateway: ProcessTransport }> {
  const env: NodeJS.ProcessEnv = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, BASIS_HOOKS_CACHE_DIR: path.join(ROOT, '.cache', 'test') };
  delete env['OTEL_SDK_DISABLED'];
  const transport = new ProcessTransport(gatewayArgv(configFile, SERVER, ['--otlp', receiver.url, ...flags]), env);
  open.push(transport);
  const client = new Client({ name: 'otlp-test-client', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, gateway: transport };
}

function traceparent(): string {
  return `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
}

function child(spans: readonly ReceivedSpan[], parent: ReceivedSpan, name: string): ReceivedSpan[] {
  return spans.filter((s) => s.parentSpanId === parent.spanId && s.name === name);
}

describe('basis-hooks mcp --otlp', () => {
  it('one trace from the client through the gateway, the chains and each hook, to the upstream server; metrics too; no secret', async () => {
    receiver = await OtlpReceiver.start();
    const { client, gateway: g } = await gateway(await config());
    const echo = await client.callTool({ name: 'echo', arguments: { message: `deploy with ${SECRET}` }, _meta: { traceparent: traceparent(), baggage: 'tenant=blue' } });
    expect(echo.isError).not.toBe(true);
    const leak = await client.callTool({ name: 'leak', arguments: { secret: SECRET }, _meta: { traceparent: traceparent() } });
    expect(JSON.stringify(leak.content)).toContain('[REDACTED]');
    expect(JSON.stringify(leak.content)).not.toContain(SECRET);
    const denied = await client.callTool({ name: 'echo', arguments: { message: 'git push --force origin main' }, _meta: { traceparent: traceparent() } });
    expect(denied.isError).toBe(true);
    // The client goes away: the gateway ends and flushes its last spans and metrics.
    await g.close();
    await receiver.waitFor(() => receiver.spans.filter((s) => s.name === 'tools/call leak' && s.resource['service.name'] === 'traced-upstream').length === 1 && receiver.points.some((p) => p.metric === 'basis_hooks.hook.decisions'));
    expect(receiver.rejected).toEqual([]);

    const spans = receiver.spans;
    // Every span the gateway and the server sent is in the client's trace.
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([CLIENT_TRACE]));
    const servers = spans.filter((s) => s.name.startsWith('tools/call') && s.kind === 2 && s.resource['service.name'] === 'basis-hooks');
    expect(servers.map((s) => s.name).sort()).toEqual(['tools/call echo', 'tools/call echo', 'tools/call leak']);
    for (const server of servers) {
      expect(server.parentSpanId).toBe(CLIENT_SPAN);
      expect(server.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool' });
    }
    const leakServer = servers.find((s) => s.name === 'tools/call leak') as ReceivedSpan;
    // Under the gateway's span: the pre chain, the hop upstream (continued by the server), the post chain.
    const [pre, post] = child(spans, leakServer, 'basis_hooks.chain').sort((a, b) => Number(a.startNs - b.startNs));
    expect(pre?.attributes).toMatchObject({ 'basis_hooks.event': 'pre_tool_use', 'gen_ai.tool.name': 'leak', 'gen_ai.agent.id': 'otlp-test-client', 'basis_hooks.decision': 'allow' });
    expect(post?.attributes).toMatchObject({ 'basis_hooks.event': 'post_tool_use', 'basis_hooks.replaced': true });
    const preHooks = child(spans, pre as ReceivedSpan, 'basis_hooks.hook');
    expect(preHooks.map((h) => h.attributes['basis_hooks.hook.name']).sort()).toEqual(['guard', 'watch']);
    const guard = preHooks.find((h) => h.attributes['basis_hooks.hook.name'] === 'guard');
    expect(guard?.attributes).toMatchObject({ 'basis_hooks.isolation': 'metered', 'basis_hooks.decision': 'allow' });
    // The guard's first call (the first echo) is its cold start; its later ones are not.
    const guardSpans = spans.filter((s) => s.name === 'basis_hooks.hook' && s.attributes['basis_hooks.hook.name'] === 'guard');
    expect(guardSpans.map((s) => s.attributes['basis_hooks.hook.cold'] === true).filter(Boolean)).toHaveLength(1);
    expect(guard?.attributes['basis_hooks.fuel.used']).toBeGreaterThan(0);
    const redactSpans = child(spans, post as ReceivedSpan, 'basis_hooks.hook');
    expect(redactSpans.map((h) => h.attributes)).toEqual([
      expect.objectContaining({ 'basis_hooks.hook.name': 'redact', 'basis_hooks.decision': 'replace', 'basis_hooks.replaced': true, 'basis_hooks.isolation': 'process' }),
    ]);
    // A reason is the hook's own text: only with telemetry_reasons (or payloads).
    expect(redactSpans[0]?.attributes['basis_hooks.reason']).toBeUndefined();
    const [hop] = child(spans, leakServer, 'tools/call leak').filter((s) => s.kind === 3);
    expect(hop).toBeDefined();
    const upstream = spans.filter((s) => s.resource['service.name'] === 'traced-upstream' && s.name === 'tools/call leak');
    expect(upstream.map((s) => s.parentSpanId)).toEqual([hop?.spanId]);
    // The server saw the gateway's hop as its parent; the client's baggage went with it.
    expect(g.stderr).toContain(`traceparent=00-${CLIENT_TRACE}-${hop?.spanId}-01`);

    // The denied call: its chain says why, no hop upstream, the gateway's span says tool_error.
    const deniedServer = servers.find((s) => s.name === 'tools/call echo' && s.attributes['error.type'] === 'tool_error') as ReceivedSpan;
    expect(child(spans, deniedServer, 'basis_hooks.chain').map((c) => c.attributes['basis_hooks.decision'])).toEqual(['deny']);
    expect(child(spans, deniedServer, 'tools/call echo')).toEqual([]);

    // Metrics: decisions by hook, tool and decision; durations; the gateway's MCP duration.
    const decisions = receiver.points.filter((p) => p.metric === 'basis_hooks.hook.decisions');
    const count = (hook: string, tool: string, decision: string): number =>
      decisions.filter((p) => p.attributes['basis_hooks.hook.name'] === hook && p.attributes['gen_ai.tool.name'] === tool && p.attributes['basis_hooks.decision'] === decision).reduce((n, p) => Math.max(n, p.value), 0);
    expect(count('guard', 'echo', 'deny')).toBe(1);
    expect(count('guard', 'echo', 'allow')).toBe(1);
    expect(count('redact', 'leak', 'replace')).toBe(1);
    expect(receiver.points.some((p) => p.metric === 'basis_hooks.chain.duration' && p.unit === 's' && p.value > 0)).toBe(true);
    expect(receiver.points.some((p) => p.metric === 'basis_hooks.hook.duration' && p.attributes['basis_hooks.hook.cold'] === true)).toBe(true);
    expect(receiver.points.some((p) => p.metric === 'mcp.server.operation.duration' && p.attributes['gen_ai.tool.name'] === 'leak')).toBe(true);
    // The gateway is the server's MCP client too: the hop's duration, as MCP's conventions name it.
    expect(receiver.points.some((p) => p.metric === 'mcp.client.operation.duration' && p.unit === 's' && p.attributes['gen_ai.tool.name'] === 'leak' && p.attributes['mcp.method.name'] === 'tools/call')).toBe(true);

    // Nothing secret: not the input (echo's message), not the output (leak's result).
    for (const body of receiver.bodies) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain('deploy with');
    }
  }, 120_000);

  it('with telemetry_payloads in the config, the input and output are recorded as the hooks left them', async () => {
    receiver = await OtlpReceiver.start();
    const { client, gateway: g } = await gateway(await config({ telemetry_payloads: true }));
    await client.callTool({ name: 'leak', arguments: { secret: SECRET } });
    await g.close();
    await receiver.waitFor(() => receiver.spans.filter((s) => s.name === 'basis_hooks.chain').length === 2);
    const chains = receiver.spans.filter((s) => s.name === 'basis_hooks.chain');
    const pre = chains.find((s) => s.attributes['basis_hooks.event'] === 'pre_tool_use');
    const post = chains.find((s) => s.attributes['basis_hooks.event'] === 'post_tool_use');
    // The input had the secret and no pre hook rewrote it: recorded as it is (that is the option).
    expect(pre?.attributes['gen_ai.tool.call.arguments']).toBe(JSON.stringify({ secret: SECRET }));
    // The output is recorded as the post hook left it: redacted.
    expect(String(post?.attributes['gen_ai.tool.call.result'])).toContain('[REDACTED]');
    expect(String(post?.attributes['gen_ai.tool.call.result'])).not.toContain(SECRET);
    // Payloads imply reasons.
    expect(receiver.spans.find((s) => s.name === 'basis_hooks.hook' && s.attributes['basis_hooks.hook.name'] === 'redact')?.attributes['basis_hooks.reason']).toBe('redacted');
    // Without a traceparent from the client, the gateway's span is the root of the trace.
    const server = receiver.spans.find((s) => s.name === 'tools/call leak' && s.kind === 2 && s.resource['service.name'] === 'basis-hooks');
    expect(server?.parentSpanId).toBeUndefined();
    expect(new Set(receiver.spans.map((s) => s.traceId)).size).toBe(1);
  }, 120_000);
});
