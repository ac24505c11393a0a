/**
 * Where an integration wraps the tool call itself (`basis-hooks/ai`), the call is the GenAI tool span,
 * `execute_tool {tool}`: both chains are its children, a refusal or a tool error marks it. Driven by
 * the AI SDK's own mock model over a real `generateText` loop, with the official SDK registered
 * globally (as an application would).
 */
import { metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import { generateText, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HookRunner, interceptorTransport } from '../../host/index.js';
import { withHooks } from '../../host/integrations/ai/index.js';
import { scriptedModel } from '../integrations/ai-script.js';
import { testSdk, type TestSdk } from './sdk.js';

let sdk: TestSdk | undefined;
afterEach(async () => {
  trace.disable();
  metrics.disable();
  await sdk?.shutdown();
});

describe('execute_tool spans (basis-hooks/ai)', () => {
  it('one span per tool call, the chains its children; a denied call is marked', async () => {
    sdk = testSdk();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    const runner = new HookRunner([
      { name: 'no-rm', event: 'pre_tool_use', transport: interceptorTransport((r) => (JSON.stringify(r.input).includes('rm -rf') ? { decision: 'deny', reason: 'no rm -rf' } : { decision: 'allow' })) },
      { name: 'audit-out', event: 'post_tool_use', transport: interceptorTransport(() => ({ decision: 'allow' })) },
    ]);
    const shell = tool({ description: 'run', inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => `ran: ${command}` });
    const { model } = scriptedModel([[{ id: 'c1', tool: 'shell', input: { command: 'ls' } }], [{ id: 'c2', tool: 'shell', input: { command: 'rm -rf /' } }]]);
    await generateText({ model, tools: withHooks({ shell }, runner, { workspace: '/repo', agentId: 'agent-7' }), stopWhen: stepCountIs(5), prompt: 'go' });
    await runner.close();

    const spans = sdk.spans();
    const tools = spans.filter((s) => s.name === 'execute_tool shell');
    expect(tools.map((s) => s.attributes['gen_ai.tool.call.id'])).toEqual(['c1', 'c2']);
    for (const span of tools) expect(span.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'shell', 'gen_ai.agent.id': 'agent-7' });
    const [ok, denied] = tools;
    const children = (id: string | undefined): string[] => spans.filter((s) => s.parentSpanContext?.spanId === id).map((s) => `${s.name}:${String(s.attributes['basis_hooks.event'])}`);
    expect(children(ok?.spanContext().spanId)).toEqual(['basis_hooks.chain:pre_tool_use', 'basis_hooks.chain:post_tool_use']);
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    expect(children(denied?.spanContext().spanId)).toEqual(['basis_hooks.chain:pre_tool_use']);
    expect(denied?.attributes['error.type']).toBe('denied');
    expect(denied?.status.code).toBe(SpanStatusCode.ERROR);
  });
});
