/**
 * When the CLI exports, and where: `--otlp` and the standard OTEL_* variables (decided without
 * loading the SDK), and the Claude Code bridge continuing Claude Code's trace — from `TRACEPARENT` in
 * a command hook's environment, from a `traceparent` header in HTTP mode — into a loopback receiver.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { OTLP_PACKAGES, otlpSetting } from '../../host/cli/otlp-option.js';
import { ROOT } from '../helpers/guests.js';
import { CLI } from '../helpers/mcp.js';
import { OtlpReceiver } from '../helpers/otlp-receiver.js';
import { ensureOpsGuests, policyGuest } from '../ops/helpers.js';

const CLAUDE_CODE_ENTRY = path.join(ROOT, 'dist', 'cli', 'claude-code', 'main.js');
const PARENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${PARENT_TRACE}-${PARENT_SPAN}-01`;

describe('otlpSetting', () => {
  it('is off without --otlp and without an endpoint variable, or with OTEL_SDK_DISABLED', () => {
    expect(otlpSetting(undefined, {})).toBeUndefined();
    expect(otlpSetting(undefined, { OTEL_EXPORTER_OTLP_HEADERS: 'a=b', OTEL_SERVICE_NAME: 'x' })).toBeUndefined();
    expect(otlpSetting(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  it('--otlp names the base URL: /v1/traces and /v1/metrics are appended; it wins over OTEL_SDK_DISABLED', () => {
    expect(otlpSetting('http://127.0.0.1:4318/', { OTEL_SDK_DISABLED: 'true' })).toMatchObject({
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
      metricsUrl: 'http://127.0.0.1:4318/v1/metrics',
      traces: true,
      metrics: true,
      metricIntervalMs: 60_000,
    });
    expect(otlpSetting('https://collector.example/otlp', {})).toMatchObject({ tracesUrl: 'https://collector.example/otlp/v1/traces' });
  });

  it('the endpoint variables turn it on, leaving the URLs to the exporters (which read them)', () => {
    for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']) {
      expect(otlpSetting(undefined, { [name]: 'http://c:4318' })).toMatchObject({ tracesUrl: undefined, metricsUrl: undefined, traces: true, metrics: true });
    }
  });

  it('honours OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER=none and OTEL_METRIC_EXPORT_INTERVAL; notes what it cannot honour', () => {
    expect(otlpSetting('http://c:4318', { OTEL_TRACES_EXPORTER: 'none', OTEL_METRIC_EXPORT_INTERVAL: '500' })).toMatchObject({ traces: false, metrics: true, metricIntervalMs: 500, notes: [] });
    const odd = otlpSetting('http://c:4318', { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_METRIC_EXPORT_INTERVAL: 'soon' });
    expect(typeof odd === 'object' && odd.notes.length).toBe(2);
  });

  it('reads the standard sampler and batch-processor variables, noting what it cannot honour', () => {
    expect(otlpSetting('http://c:4318', {})).toMatchObject({ sampler: { kind: 'parentbased_always_on' }, batch: {} });
    expect(otlpSetting('http://c:4318', { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25', OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '64' })).toMatchObject({
      sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
      batch: { scheduledDelayMillis: 200, maxExportBatchSize: 64 },
      notes: [],
    });
    const odd = otlpSetting('http://c:4318', { OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_BSP_MAX_QUEUE_SIZE: '-1' });
    expect(odd).toMatchObject({ sampler: { kind: 'parentbased_always_on' }, batch: {} });
    expect(typeof odd === 'object' && odd.notes.length).toBe(2);
    expect(otlpSetting('http://c:4318', { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toMatchObject({ sampler: { kind: 'traceidratio', ratio: 1 } });
  });

  it('refuses what cannot work: a URL that is not one, another scheme, a query, gRPC', () => {
    expect(otlpSetting('collector:4318', {})).toMatch(/needs a URL|http/);
    expect(otlpSetting('ftp://c/', {})).toMatch(/http:\/\/ or https:\/\//);
    expect(otlpSetting('http://c:4318/?x=1', {})).toMatch(/without a query/);
    expect(otlpSetting(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatch(/grpc is not supported/);
  });

  it('names the SDK packages at the ranges package.json declares (wherever they are placed)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const [name, range] of Object.entries(OTLP_PACKAGES)) {
      expect(pkg['dependencies']?.[name] ?? pkg['peerDependencies']?.[name] ?? pkg['devDependencies']?.[name], name).toBe(range);
    }
  });

  it('a bad --otlp is a usage error before anything starts', () => {
    const result = spawnSync(process.execPath, [CLI, 'mcp', '--config', 'hooks.json', '--otlp', 'nope', '--', 'true'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--otlp needs a URL');
  });
});

describe('the Claude Code bridge continues Claude Code\'s trace', () => {
  let dir: string;
  let config: string;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    await ensureOpsGuests();
    dir = await mkdtemp(path.join(tmpdir(), 'basis-cc-otlp-'));
    config = path.join(dir, 'hooks.json');
    await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'force-push', event: 'pre_tool_use', tools: ['Bash'], component: policyGuest('wat', 'guard') }] }));
  }, 300_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await receiver?.close();
  });

  /** Run a command hook (asynchronously: the receiver lives in this process and must keep answering). */
  async function hook(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [CLAUDE_CODE_ENTRY, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(input);
    const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { status, stdout, stderr };
  }

  const event = (command: string): string => JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });

  it('a command hook with --otlp: its chain span is a child of TRACEPARENT, exported before it exits', async () => {
    receiver = await OtlpReceiver.start();
    const result = await hook(['--config', config, '--otlp', receiver.url], event('git push --force origin main'), { ...process.env, TRACEPARENT, OTEL_SDK_DISABLED: '' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('"permissionDecision":"deny"');
    const chain = receiver.spans.find((s) => s.name === 'basis_hooks.chain');
    expect(chain).toMatchObject({ traceId: PARENT_TRACE, parentSpanId: PARENT_SPAN });
    expect(chain?.attributes).toMatchObject({ 'gen_ai.tool.name': 'Bash', 'basis_hooks.decision': 'deny' });
    expect(receiver.spans.find((s) => s.name === 'basis_hooks.hook')?.parentSpanId).toBe(chain?.spanId);
    expect(receiver.points.some((p) => p.metric === 'basis_hooks.hook.decisions')).toBe(true);
  });

  it('a command hook without --otlp exports nothing, whatever OTEL_* variables the agent has', async () => {
    receiver = await OtlpReceiver.start();
    const result = await hook(['--config', config], event('ls'), { ...process.env, TRACEPARENT, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(result.status).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.bodies).toEqual([]);
  });

  it('--print-settings --otlp writes the flag into the printed command hook', async () => {
    const result = spawnSync(process.execPath, [CLI, 'claude-code', '--config', config, '--print-settings', '--otlp', 'http://127.0.0.1:4318'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--otlp http://127.0.0.1:4318"');
  });

  it('--http with the standard variables: a traceparent header makes the chain its child; the last spans flush at SIGTERM', async () => {
    receiver = await OtlpReceiver.start();
    const server = spawn(process.execPath, [CLI, 'claude-code', '--config', config, '--http', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: '' },
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(stderr);
        if (found?.[1] !== undefined) resolve(found[1]);
      });
      server.once('exit', (code) => reject(new Error(`exited ${String(code)}: ${stderr}`)));
    });
    expect(stderr).toContain('otlp: exporting traces to the OTEL_EXPORTER_OTLP_* endpoint');
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: TRACEPARENT }, body: event('ls') });
    expect(response.status).toBe(200);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    const chain = receiver.spans.find((s) => s.name === 'basis_hooks.chain');
    expect(chain).toMatchObject({ traceId: PARENT_TRACE, parentSpanId: PARENT_SPAN });
    expect(chain?.resource).toMatchObject({ 'service.name': 'basis-hooks', 'basis_hooks.command': 'claude-code' });
  }, 60_000);
});
