/**
 * The chain's spans and metrics, recorded through `@opentelemetry/api` into the official SDK (an
 * in-memory span exporter, a metric reader collecting on demand): the span tree and its attributes,
 * the metrics, the secrets that must never be recorded (and the option that records payloads after
 * the chain's rewrites), a late-registered global SDK, a failing tracer, and fuel from a real metered
 * component.
 */
import { context, metrics, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { HookRunner, cedarTransport, celTransport, componentTransport, contextFromCarrier, interceptorTransport, subprocessTransport, type AuditEvent, type HookDefinition, type Interceptor } from '../../host/index.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { ensureOpsGuests, policyGuest, postCall, preCall, shHook } from '../ops/helpers.js';
import { everything, points, testSdk, type TestSdk } from './sdk.js';

const SECRET = 'AKIAIOSFODNN7EXAMPLE';
const OUTPUT_SECRET = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';

/** Rewrites the secret out of the input (a pre "redactor"). */
const scrubInput: Interceptor = (request) => {
  const text = JSON.stringify(request.input);
  return text.includes(SECRET) ? { decision: 'modify', input: JSON.parse(text.replaceAll(SECRET, '[key]')) as never, reason: 'key removed' } : { decision: 'allow' };
};
/** Replaces the secret in the output (a post "redactor"). */
const scrubOutput: Interceptor = (request) => {
  const text = JSON.stringify(request.event === 'post_tool_use' ? request.output : null);
  return text.includes(OUTPUT_SECRET) ? { decision: 'replace', output: JSON.parse(text.replaceAll(OUTPUT_SECRET, '[token]')) as never, reason: 'token removed' } : { decision: 'allow' };
};
const denyForce: Interceptor = (request) => (JSON.stringify(request.input).includes('--force') ? { decision: 'deny', reason: 'no force-push' } : { decision: 'allow' });

let sdk: TestSdk;
afterEach(async () => {
  await sdk?.shutdown();
});

function hooks(): HookDefinition[] {
  return [
    { name: 'scrub-input', event: 'pre_tool_use', transport: interceptorTransport(scrubInput) },
    { name: 'no-force', event: 'pre_tool_use', transport: interceptorTransport(denyForce) },
    { name: 'watch', event: 'pre_tool_use', mode: 'shadow', transport: interceptorTransport(() => ({ decision: 'deny', reason: 'would deny' })) },
    { name: 'scrub-output', event: 'post_tool_use', transport: interceptorTransport(scrubOutput) },
  ];
}

function byName(name: string): ReturnType<TestSdk['spans']> {
  return sdk.spans().filter((s) => s.name === name);
}

describe('chain spans', () => {
  it('a chain span with a child per hook, GenAI and basis_hooks attributes, under the given parent', async () => {
    sdk = testSdk();
    const runner = new HookRunner(hooks(), { telemetry: { tracer_provider: sdk.tracerProvider, meter_provider: sdk.meterProvider } });
    const parent = contextFromCarrier({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    const outcome = await runner.pre(preCall('c1', { command: `deploy --key ${SECRET}` }), { trace_context: parent, wait_for_shadows: true });
    expect(outcome.decision).toBe('allow');
    await runner.close();

    const [chain] = byName('basis_hooks.chain');
    expect(chain).toBeDefined();
    if (chain === undefined) return;
    expect(chain.kind).toBe(SpanKind.INTERNAL);
    expect(chain.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(chain.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(chain.attributes).toMatchObject({
      'gen_ai.tool.name': 'shell',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.agent.id': 'agent-1',
      'basis_hooks.event': 'pre_tool_use',
      'basis_hooks.workspace': '/repo',
      'basis_hooks.decision': 'allow',
      'basis_hooks.modified': true,
    });
    const hookSpans = byName('basis_hooks.hook');
    expect(hookSpans.map((s) => s.attributes['basis_hooks.hook.name']).sort()).toEqual(['no-force', 'scrub-input', 'watch']);
    for (const span of hookSpans) {
      expect(span.parentSpanContext?.spanId).toBe(chain.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(chain.spanContext().traceId);
      expect(span.attributes['basis_hooks.isolation']).toBe('in-process');
      expect(span.attributes['basis_hooks.hook.cold']).toBe(true);
      expect(typeof span.attributes['basis_hooks.duration_ms']).toBe('number');
    }
    const scrub = hookSpans.find((s) => s.attributes['basis_hooks.hook.name'] === 'scrub-input');
    expect(scrub?.attributes).toMatchObject({ 'basis_hooks.decision': 'modify', 'basis_hooks.modified': true });
    expect(scrub?.attributes['basis_hooks.shadow']).toBeUndefined();
    // A reason is the hook's own text (a hook may quote what it found): not recorded by default.
    expect(scrub?.attributes['basis_hooks.reason']).toBeUndefined();
    const watch = hookSpans.find((s) => s.attributes['basis_hooks.hook.name'] === 'watch');
    expect(watch?.attributes).toMatchObject({ 'basis_hooks.decision': 'deny', 'basis_hooks.shadow': true });
    const noForce = hookSpans.find((s) => s.attributes['basis_hooks.hook.name'] === 'no-force');
    expect(noForce?.attributes['basis_hooks.modified']).toBeUndefined();
    // The hook span spans exactly the time the runner measured (the trail's ms), within its chain's span.
    const nanos = (t: readonly [number, number]): bigint => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
    for (const span of hookSpans) {
      const ms = (span.duration[0] * 1e9 + span.duration[1]) / 1e6;
      expect(Math.abs(ms - (span.attributes['basis_hooks.duration_ms'] as number))).toBeLessThan(0.001);
      if (span.attributes['basis_hooks.shadow'] === true) continue;
      expect(nanos(span.startTime)).toBeGreaterThanOrEqual(nanos(chain.startTime));
      expect(nanos(span.endTime)).toBeLessThanOrEqual(nanos(chain.endTime));
    }
    // On the wall clock: where Date.now() says the chain ran.
    expect(Math.abs(Number(nanos(chain.startTime) / 1_000_000n) - Date.now())).toBeLessThan(5_000);
  });

  it('a deny and the chain span, no reason by default; a failed hook is an error span with error.type and no message', async () => {
    sdk = testSdk();
    const dir = await tempDir();
    const crash = await shHook(dir, 'crash.sh', `cat >/dev/null\necho "echoing ${SECRET}" >&2\necho "not json ${SECRET}"`);
    const runner = new HookRunner(
      [
        { name: 'crashy', event: 'pre_tool_use', on_failure: 'allow', transport: subprocessTransport({ command: [crash] }) },
        { name: 'no-force', event: 'pre_tool_use', transport: interceptorTransport(denyForce) },
      ],
      { telemetry: { tracer_provider: sdk.tracerProvider, meter_provider: sdk.meterProvider } },
    );
    const outcome = await runner.pre(preCall('c2', { command: 'git push --force' }));
    expect(outcome.decision).toBe('deny');
    await runner.close();
    const [chain] = byName('basis_hooks.chain');
    expect(chain?.attributes).toMatchObject({ 'basis_hooks.decision': 'deny' });
    expect(chain?.attributes['basis_hooks.reason']).toBeUndefined();
    const crashy = byName('basis_hooks.hook').find((s) => s.attributes['basis_hooks.hook.name'] === 'crashy');
    expect(crashy?.status.code).toBe(SpanStatusCode.ERROR);
    expect(crashy?.attributes).toMatchObject({
      'basis_hooks.failure.code': 'malformed_response',
      'error.type': 'malformed_response',
      'basis_hooks.failure.policy': 'allow',
      'basis_hooks.decision': 'allow',
      'basis_hooks.isolation': 'process',
    });
    // The failure's message quotes what the hook printed, and it printed the secret: not recorded.
    expect(crashy?.attributes['basis_hooks.failure.message']).toBeUndefined();
    expect(await everything(sdk)).not.toContain(SECRET);
    expect(await points(sdk.reader, 'basis_hooks.hook.failures')).toEqual([
      { attributes: { 'basis_hooks.hook.name': 'crashy', 'basis_hooks.failure.code': 'malformed_response' }, value: 1 },
    ]);
  });

  it('only the first call of a hook is cold, in spans and in the audit stream', async () => {
    sdk = testSdk();
    const audit: AuditEvent[] = [];
    const runner = new HookRunner(hooks(), { audit: (e) => audit.push(e), telemetry: { tracer_provider: sdk.tracerProvider } });
    for (const id of ['a', 'b', 'c']) await runner.pre(preCall(id, { command: 'ls' }), { wait_for_shadows: true });
    await runner.close();
    const colds = byName('basis_hooks.hook').filter((s) => s.attributes['basis_hooks.hook.name'] === 'no-force').map((s) => s.attributes['basis_hooks.hook.cold']);
    expect(colds).toEqual([true, undefined, undefined]);
    const decided = audit.filter((e) => e.type === 'hook_decided' && e.hook === 'watch');
    expect(decided.map((e) => (e.type === 'hook_decided' ? e.cold : undefined))).toEqual([true, undefined, undefined]);
  });
});

describe('metrics', () => {
  it('decisions by hook, tool and decision; hook durations by hook and cold; chain durations by event, tool and decision; in seconds', async () => {
    sdk = testSdk();
    const runner = new HookRunner(hooks(), { telemetry: { meter_provider: sdk.meterProvider } });
    await runner.pre(preCall('m1', { command: 'ls' }), { wait_for_shadows: true });
    await runner.pre(preCall('m2', { command: 'git push --force' }), { wait_for_shadows: true });
    await runner.pre(preCall('m3', { command: 'git push --force' }, 'other'), { wait_for_shadows: true });
    await runner.close();
    const decisions = await points(sdk.reader, 'basis_hooks.hook.decisions');
    const of = (hook: string, tool: string, decision: string): unknown =>
      decisions.find((p) => p.attributes['basis_hooks.hook.name'] === hook && p.attributes['gen_ai.tool.name'] === tool && p.attributes['basis_hooks.decision'] === decision)?.value;
    expect(of('no-force', 'shell', 'allow')).toBe(1);
    expect(of('no-force', 'shell', 'deny')).toBe(1);
    expect(of('no-force', 'other', 'deny')).toBe(1);
    // The shadow sits after no-force: a call no-force denies never reaches it.
    expect(of('watch', 'shell', 'deny')).toBe(1);
    expect(decisions.every((p) => Object.keys(p.attributes).sort().join() === 'basis_hooks.decision,basis_hooks.hook.name,gen_ai.tool.name')).toBe(true);
    const chains = await points(sdk.reader, 'basis_hooks.chain.duration');
    const denied = chains.find((p) => p.attributes['gen_ai.tool.name'] === 'shell' && p.attributes['basis_hooks.decision'] === 'deny');
    expect(denied?.value).toMatchObject({ count: 1 });
    const hookTimes = await points(sdk.reader, 'basis_hooks.hook.duration');
    const total = hookTimes.reduce((n, p) => n + (p.value as { count: number }).count, 0);
    expect(total).toBe(3 + 2 + 2);
    // Each hook's first call apart from the rest.
    const noForce = hookTimes.filter((p) => p.attributes['basis_hooks.hook.name'] === 'no-force').map((p) => [p.attributes['basis_hooks.hook.cold'], (p.value as { count: number }).count]);
    expect(noForce.sort()).toEqual([[false, 2], [true, 1]]);
    // Seconds: an interceptor answers in well under a second.
    expect(hookTimes.every((p) => (p.value as { sum: number }).sum < 1)).toBe(true);
  });
});

describe('secrets', () => {
  it('neither the input nor the output is in any span or metric by default', async () => {
    sdk = testSdk();
    const runner = new HookRunner(hooks(), { telemetry: { tracer_provider: sdk.tracerProvider, meter_provider: sdk.meterProvider } });
    const pre = await runner.pre(preCall('s1', { command: `deploy --key ${SECRET}` }), { wait_for_shadows: true });
    await runner.post(postCall('s1', pre.decision === 'allow' ? pre.input : {}, { text: `token ${OUTPUT_SECRET}` }));
    await runner.close();
    const text = await everything(sdk);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(OUTPUT_SECRET);
    expect(text).not.toContain('deploy --key');
    expect(text).not.toContain('gen_ai.tool.call.arguments');
    expect(text).not.toContain('gen_ai.tool.call.result');
  });

  it('telemetry_payloads records the input and output as the chain left them: after its rewrites', async () => {
    sdk = testSdk();
    const runner = new HookRunner(hooks(), { telemetry: { tracer_provider: sdk.tracerProvider }, telemetry_payloads: true });
    const pre = await runner.pre(preCall('s2', { command: `deploy --key ${SECRET}` }), { wait_for_shadows: true });
    await runner.post(postCall('s2', pre.decision === 'allow' ? pre.input : {}, { text: `token ${OUTPUT_SECRET}` }));
    // Denied after a rewrite: the rewritten input is what is recorded.
    await runner.pre(preCall('s3', { command: `git push --force ${SECRET}` }), { wait_for_shadows: true });
    await runner.close();
    const chains = byName('basis_hooks.chain');
    const args = chains.map((s) => s.attributes['gen_ai.tool.call.arguments']).filter((a) => a !== undefined);
    expect(args).toEqual(['{"command":"deploy --key [key]"}', '{"command":"git push --force [key]"}']);
    expect(chains.map((s) => s.attributes['gen_ai.tool.call.result']).filter((a) => a !== undefined)).toEqual(['{"text":"token [token]"}']);
    expect(await everything(sdk)).not.toContain(SECRET);
    expect(await everything(sdk)).not.toContain(OUTPUT_SECRET);
  });
});

describe('reasons', () => {
  it('telemetry_reasons records the hooks\' reasons and the deny reason, and nothing of the input or output; telemetry_payloads implies it', async () => {
    for (const options of [{ telemetry_reasons: true }, { telemetry_payloads: true }]) {
      sdk = testSdk();
      const runner = new HookRunner(hooks(), { telemetry: { tracer_provider: sdk.tracerProvider }, ...options });
      await runner.pre(preCall('r1', { command: `deploy --key ${SECRET}` }), { wait_for_shadows: true });
      await runner.pre(preCall('r2', { command: 'git push --force' }), { wait_for_shadows: true });
      await runner.close();
      const reasonOf = (hook: string): unknown => byName('basis_hooks.hook').find((s) => s.attributes['basis_hooks.hook.name'] === hook && s.attributes['basis_hooks.reason'] !== undefined)?.attributes['basis_hooks.reason'];
      expect(reasonOf('scrub-input')).toBe('key removed');
      expect(reasonOf('no-force')).toBe('no force-push');
      expect(reasonOf('watch')).toBe('would deny');
      expect(byName('basis_hooks.chain').map((s) => s.attributes['basis_hooks.reason'])).toEqual([undefined, 'no force-push']);
      if (options.telemetry_reasons === true) expect(await everything(sdk)).not.toContain('deploy --key');
      await sdk.shutdown();
    }
  });

  it('refuses a telemetry_reasons that is not a boolean', () => {
    expect(() => new HookRunner(hooks(), { telemetry_reasons: 'yes' as never })).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });
});

describe('the global API', () => {
  it('records nothing while no SDK is registered, and starts with the first chain after one is', async () => {
    sdk = testSdk();
    const runner = new HookRunner(hooks());
    await runner.pre(preCall('g1', { command: 'ls' }), { wait_for_shadows: true });
    expect(sdk.spans()).toEqual([]);
    expect(trace.setGlobalTracerProvider(sdk.tracerProvider)).toBe(true);
    expect(metrics.setGlobalMeterProvider(sdk.meterProvider)).toBe(true);
    try {
      await runner.pre(preCall('g2', { command: 'ls' }), { wait_for_shadows: true });
      expect(byName('basis_hooks.chain').map((s) => s.attributes['gen_ai.tool.call.id'])).toEqual(['g2']);
      expect((await points(sdk.reader, 'basis_hooks.chain.duration')).length).toBe(1);
    } finally {
      trace.disable();
      metrics.disable();
    }
    await runner.pre(preCall('g3', { command: 'ls' }), { wait_for_shadows: true });
    expect(byName('basis_hooks.chain').map((s) => s.attributes['gen_ai.tool.call.id'])).toEqual(['g2']);
    await runner.close();
  });

  it('telemetry: false records nothing even with an SDK registered', async () => {
    sdk = testSdk();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      const runner = new HookRunner(hooks(), { telemetry: false });
      await runner.pre(preCall('f1', { command: 'ls' }));
      await runner.close();
      expect(sdk.spans()).toEqual([]);
    } finally {
      trace.disable();
    }
  });

  it('a tracer that throws changes no decision (reported once as a warning)', async () => {
    const broken: Tracer = {
      startSpan: () => {
        throw new Error('exporter on fire');
      },
      startActiveSpan: () => {
        throw new Error('exporter on fire');
      },
    };
    const provider: TracerProvider = { getTracer: () => broken };
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const runner = new HookRunner(hooks(), { telemetry: { tracer_provider: provider } });
      const outcome = await runner.pre(preCall('t1', { command: 'git push --force' }));
      expect(outcome.decision).toBe('deny');
      await runner.close();
    } finally {
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('exporter on fire')).length).toBeLessThanOrEqual(1);
    // Nothing of the throwing tracer leaked into the active context either.
    expect(context.active()).toBe(ROOT_CONTEXT);
  });
});

describe('a metered component', () => {
  beforeAll(async () => {
    await ensureOpsGuests();
  }, 300_000);

  it('its hook span says metered isolation and the fuel its call spent', async () => {
    sdk = testSdk();
    const guard = componentTransport({ path: policyGuest('wat', 'guard'), cache_dir: TEST_CACHE_DIR, isolation: 'metered' });
    await guard.load();
    const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: guard }], { telemetry: { tracer_provider: sdk.tracerProvider } });
    await runner.pre(preCall('w1', { command: 'ls' }));
    await runner.pre(preCall('w2', { command: 'rm -rf /' }));
    await runner.close();
    const spans = byName('basis_hooks.hook');
    expect(spans.map((s) => s.attributes['basis_hooks.isolation'])).toEqual(['metered', 'metered']);
    const fuel = spans.map((s) => s.attributes['basis_hooks.fuel.used']);
    expect(fuel.every((f) => typeof f === 'number' && f > 0)).toBe(true);
    // A longer input is scanned for longer: the meter counts the guest's own work.
    const long = await (async () => {
      const fresh = componentTransport({ path: policyGuest('wat', 'guard'), cache_dir: TEST_CACHE_DIR, isolation: 'metered' });
      await fresh.load();
      const r = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: fresh }], { telemetry: { tracer_provider: sdk.tracerProvider } });
      await r.pre(preCall('w3', { command: `ls ${'x'.repeat(20_000)}` }));
      await r.close();
      return byName('basis_hooks.hook').at(-1)?.attributes['basis_hooks.fuel.used'];
    })();
    expect(long).toBeGreaterThan(fuel[0] as number);
  });
});

describe('policy hooks', () => {
  it('a CEL and a Cedar hook say in-process isolation (they run on the caller\'s thread), with their decisions', async () => {
    sdk = testSdk();
    const dir = await tempDir();
    await writeFiles(dir, { 'tools.cedar': 'forbid (principal, action, resource) when { context.input.command like "*--force*" };\npermit (principal, action, resource);\n' });
    const runner = new HookRunner(
      [
        { name: 'cel', event: 'pre_tool_use', transport: celTransport({ event: 'pre_tool_use', rules: [{ when: "input.command.startsWith('sudo')", decision: 'deny', reason: 'no sudo' }] }) },
        { name: 'cedar', event: 'pre_tool_use', transport: cedarTransport({ policies: path.join(dir, 'tools.cedar') }) },
      ],
      { telemetry: { tracer_provider: sdk.tracerProvider } },
    );
    expect((await runner.pre(preCall('p1', { command: 'git push --force' }))).decision).toBe('deny');
    await runner.close();
    expect(byName('basis_hooks.hook').map((s) => [s.attributes['basis_hooks.hook.name'], s.attributes['basis_hooks.isolation'], s.attributes['basis_hooks.decision']])).toEqual([
      ['cel', 'in-process', 'allow'],
      ['cedar', 'in-process', 'deny'],
    ]);
  });
});
