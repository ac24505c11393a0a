/**
 * `basis-hooks/ai` driven by the AI SDK's own mock model (`MockLanguageModelV3` from `ai/test`), over
 * multi-step loops, with real hooks: the WAT `guard` and `redact` components and a POSIX sh
 * subprocess hook. Each test reads what the model was sent back on the step after a tool call.
 */
import { generateText, stepCountIs, streamText, tool, type ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { HookRunner, interceptorTransport, subprocessTransport, type HookDefinition, type PostToolUseOutcome, type PreToolUseOutcome } from '../../host/index.js';
import { ToolCallNotJsonError, isToolCallBlockedError, withHooks } from '../../host/integrations/ai/index.js';
import { scriptedModel, toolResults, type Step } from './ai-script.js';
import { AWS_SECRET, ensurePolicyGuests, policyHooks, shellOutput } from './hooks.js';

const scope = { workspace: '/repo', agentId: 'agent-1' };

/** A `shell` tool that records what it ran with. */
function shellTool() {
  const ran: string[] = [];
  const shell = tool({
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      ran.push(command);
      return shellOutput(command);
    },
  });
  return { shell, ran };
}

const call = (id: string, command: string) => ({ id, tool: 'shell', input: { command } });

/**
 * A client tool (no `execute`: the app answers it). Typed as a tool-set member rather than through
 * `tool()`: under `exactOptionalPropertyTypes` the SDK's own `ToolSet` rejects `tool()`'s
 * `Tool<INPUT, never>`, for `generateText` as much as for `withHooks`.
 */
const askTool = (): ToolSet[string] => ({ description: 'ask the user', inputSchema: z.object({ question: z.string() }) });

let policy: HookRunner;
beforeAll(async () => {
  await ensurePolicyGuests();
  policy = new HookRunner(policyHooks());
}, 300_000);
afterAll(async () => {
  await policy?.close();
});

describe('withHooks (AI SDK): the model is sent what the chain decided', () => {
  const script: Step[] = [
    [call('c1', 'git push --force origin main')],
    [call('c2', 'git push --force origin feature'), call('c3', 'rm -rf /')],
    [call('c4', 'cat .env')],
    [call('c5', 'ls')],
  ];

  async function expectPolicyOutcomes(prompts: ReturnType<typeof scriptedModel>['prompts'], ran: string[]): Promise<void> {
    expect(prompts).toHaveLength(5);
    // deny by the guard component: the reason, as the SDK's error result; the tool never ran.
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'error-text', value: 'force-push to a protected branch (main/master) is not allowed' } });
    // modify by the guard component: the tool ran with the lease; deny by the sh hook, in the same step.
    expect(toolResults(prompts[2])).toEqual({
      c2: { type: 'text', value: 'ran: git push --force-with-lease origin feature' },
      c3: { type: 'error-text', value: 'rm -rf is not allowed here' },
    });
    // replace by the redact component: the credential never reaches the model.
    expect(toolResults(prompts[3])).toEqual({ c4: { type: 'text', value: 'AWS_SECRET_ACCESS_KEY=[REDACTED]\n' } });
    // allow: the tool's own result.
    expect(toolResults(prompts[4])).toEqual({ c5: { type: 'text', value: 'ran: ls' } });
    expect(ran).toEqual(['git push --force-with-lease origin feature', 'cat .env', 'ls']);
    expect(JSON.stringify(prompts)).not.toContain(AWS_SECRET);
  }

  it('generateText, over five steps: deny, modify, deny (subprocess), replace, allow', async () => {
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel(script);
    const result = await generateText({ model, tools: withHooks({ shell }, policy, scope), stopWhen: stepCountIs(10), prompt: 'tidy up' });
    expect(result.text).toBe('done');
    await expectPolicyOutcomes(prompts, ran);
    // The app sees the same thing: a tool-error part carrying the chain's outcome, trail included.
    const errors = result.steps.flatMap((s) => s.content).filter((p) => p.type === 'tool-error');
    expect(errors.map((e) => e.toolCallId)).toEqual(['c1', 'c3']);
    const denied = errors[0]?.error;
    expect(isToolCallBlockedError(denied) && denied.code).toBe('denied');
    if (isToolCallBlockedError(denied)) expect(denied.outcome.trail.map((t) => [t.hook, t.decision])).toEqual([['guard', 'deny']]);
  });

  it('streamText, the same script: the same messages', async () => {
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel(script);
    const result = streamText({ model, tools: withHooks({ shell }, policy, scope), stopWhen: stepCountIs(10), prompt: 'tidy up' });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(await result.text).toBe('done');
    expect(parts.filter((p) => p === 'tool-error')).toHaveLength(2);
    await expectPolicyOutcomes(prompts, ran);
  });
});

describe('withHooks (AI SDK): hook failures take their on_failure', () => {
  function deployRunner(onFailure: 'deny' | 'allow'): HookRunner {
    // A real subprocess that exits non-zero whatever it printed.
    return new HookRunner([
      { name: 'flaky', event: 'pre_tool_use', on_failure: onFailure, transport: subprocessTransport({ command: 'cat >/dev/null; echo \'{"decision":"allow"}\'; exit 3' }) },
    ]);
  }

  it('fail closed (default): the model is told which hook failed and why; the tool does not run', async () => {
    const runner = deployRunner('deny');
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel([[call('c1', 'make deploy')]]);
    await generateText({ model, tools: withHooks({ shell }, runner, scope), stopWhen: stepCountIs(3), prompt: 'deploy' });
    await runner.close();
    const result = toolResults(prompts[1])['c1'] as { type: string; value: string };
    expect(result.type).toBe('error-text');
    expect(result.value).toMatch(/^hook "flaky" failed \(exit_nonzero: [^)]*\);/);
    expect(ran).toEqual([]);
  });

  it('fail open (on_failure: allow): the hook is skipped and the call runs', async () => {
    const runner = deployRunner('allow');
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel([[call('c1', 'make deploy')]]);
    await generateText({ model, tools: withHooks({ shell }, runner, scope), stopWhen: stepCountIs(3), prompt: 'deploy' });
    await runner.close();
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'text', value: 'ran: make deploy' } });
    expect(ran).toEqual(['make deploy']);
  });
});

describe('withHooks (AI SDK): a rewrite is validated against the tool input schema', () => {
  function rewriter(onFailure: 'deny' | 'allow', seen: unknown[]): HookRunner {
    return new HookRunner([
      { name: 'bad-rewrite', event: 'pre_tool_use', on_failure: onFailure, transport: interceptorTransport(() => ({ decision: 'modify', input: { command: 42 } })) },
      { name: 'witness', event: 'pre_tool_use', transport: interceptorTransport((req) => (seen.push(req.input), { decision: 'allow' })) },
    ]);
  }

  it('a rewrite the schema rejects is that hook failure: denied under on_failure deny, the next hook never sees it', async () => {
    const seen: unknown[] = [];
    const outcomes: (PreToolUseOutcome | PostToolUseOutcome)[] = [];
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel([[call('c1', 'ls')]]);
    await generateText({ model, tools: withHooks({ shell }, rewriter('deny', seen), { ...scope, onOutcome: (o) => outcomes.push(o) }), stopWhen: stepCountIs(3), prompt: 'x' });
    const result = toolResults(prompts[1])['c1'] as { type: string; value: string };
    expect(result.type).toBe('error-text');
    expect(result.value).toMatch(/^hook "bad-rewrite" failed \(malformed_response: [^)]*\);/);
    expect(seen).toEqual([]);
    expect(ran).toEqual([]);
    expect(outcomes[0]?.trail[0]?.failure?.code).toBe('malformed_response');
    // What the schema said stays in the trail, for the operator; the model sees the fixed reason only.
    expect(outcomes[0]?.trail[0]?.failure?.message).toContain('command');
  });

  it('under on_failure allow the rewrite is dropped: the next hook and the tool see the original input', async () => {
    const seen: unknown[] = [];
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel([[call('c1', 'ls')]]);
    await generateText({ model, tools: withHooks({ shell }, rewriter('allow', seen), scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'text', value: 'ran: ls' } });
    expect(seen).toEqual([{ command: 'ls' }]);
    expect(ran).toEqual(['ls']);
  });

  it('execute gets the value the schema produced from the rewrite (defaults applied)', async () => {
    const got: unknown[] = [];
    const search = tool({
      inputSchema: z.object({ query: z.string(), limit: z.number().default(10) }),
      execute: async (input) => (got.push(input), 'ok'),
    });
    const runner = new HookRunner([{ name: 'pin', event: 'pre_tool_use', transport: interceptorTransport(() => ({ decision: 'modify', input: { query: 'pinned' } })) }]);
    const { model } = scriptedModel([[{ id: 'c1', tool: 'search', input: { query: 'q', limit: 3 } }]]);
    await generateText({ model, tools: withHooks({ search }, runner, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(got).toEqual([{ query: 'pinned', limit: 10 }]);
  });
});

describe('withHooks (AI SDK): after the call', () => {
  function postRunner(answer: Parameters<typeof interceptorTransport>[0], seen?: unknown[]): HookRunner {
    const hooks: HookDefinition[] = [
      { name: 'post', event: 'post_tool_use', transport: interceptorTransport((req) => (seen?.push(req), typeof answer === 'function' ? answer(req) : answer.handle(req))) },
    ];
    return new HookRunner(hooks);
  }

  it('deny after the call: the tool ran, the model gets the reason as an error', async () => {
    const { shell, ran } = shellTool();
    const { model, prompts } = scriptedModel([[call('c1', 'ls')]]);
    const runner = postRunner(() => ({ decision: 'deny', reason: 'listing withheld' }));
    await generateText({ model, tools: withHooks({ shell }, runner, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'error-text', value: 'listing withheld' } });
    expect(ran).toEqual(['ls']);
  });

  it('replace with is_error: the replacement, as an error; a structured replacement as its JSON', async () => {
    const { shell } = shellTool();
    const { model, prompts } = scriptedModel([[call('c1', 'ls')], [call('c2', 'pwd')]]);
    const runner = postRunner((req) =>
      req.tool_call_id === 'c1' ? { decision: 'replace', output: 'no such directory', is_error: true } : { decision: 'replace', output: { files: ['a'] } },
    );
    await generateText({ model, tools: withHooks({ shell }, runner, scope), stopWhen: stepCountIs(4), prompt: 'x' });
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'error-text', value: 'no such directory' } });
    expect(toolResults(prompts[2])).toEqual({ c2: { type: 'json', value: { files: ['a'] } } });
  });

  it('post hooks see the input the tool ran with, a structured result as itself, and is_error false', async () => {
    const seen: unknown[] = [];
    const lookup = tool({ inputSchema: z.object({ id: z.number() }), execute: async ({ id }) => ({ id, name: 'x', when: new Date(0) }) });
    const runner = new HookRunner([
      { name: 'bump', event: 'pre_tool_use', transport: interceptorTransport((req) => ({ decision: 'modify', input: { id: (req.input as { id: number }).id + 1 } })) },
      { name: 'post', event: 'post_tool_use', transport: interceptorTransport((req) => (seen.push(req), { decision: 'allow' })) },
    ]);
    const { model, prompts } = scriptedModel([[{ id: 'c1', tool: 'lookup', input: { id: 1 } }]]);
    await generateText({ model, tools: withHooks({ lookup }, runner, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(seen).toEqual([
      {
        hook_schema: 1, event: 'post_tool_use', workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'c1', tool_name: 'lookup',
        input: { id: 2 }, output: { id: 2, name: 'x', when: '1970-01-01T00:00:00.000Z' }, is_error: false,
      },
    ]);
    // Allowed untouched: the SDK gets the tool's own value (the Date object, serialised by the SDK).
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'json', value: { id: 2, name: 'x', when: new Date(0) } } });
  });

  it('a tool that throws: hooks see its message with is_error true; untouched, the SDK gets the original error', async () => {
    const seen: unknown[] = [];
    const boom = new Error(`connect failed with Bearer abcdefghijklmnopqrstuvwxyz123456`);
    const fetchTool = tool({ inputSchema: z.object({ url: z.string() }), execute: async (): Promise<string> => { throw boom; } });
    const runner = postRunner(() => ({ decision: 'allow' }), seen);
    const { model, prompts } = scriptedModel([[{ id: 'c1', tool: 'fetch', input: { url: 'u' } }]]);
    const result = await generateText({ model, tools: withHooks({ fetch: fetchTool }, runner, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(seen).toMatchObject([{ output: boom.message, is_error: true }]);
    const errors = result.steps.flatMap((s) => s.content).filter((p) => p.type === 'tool-error');
    expect(errors[0]?.error).toBe(boom);
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'error-text', value: boom.message } });
  });

  it('the redact component redacts a secret in an error message too: still an error, without the secret', async () => {
    const fetchTool = tool({ inputSchema: z.object({ url: z.string() }), execute: async (): Promise<string> => { throw new Error('denied: Bearer abcdefghijklmnopqrstuvwxyz123456'); } });
    const { model, prompts } = scriptedModel([[{ id: 'c1', tool: 'fetch', input: { url: 'u' } }]]);
    await generateText({ model, tools: withHooks({ fetch: fetchTool }, policy, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'error-text', value: 'denied: Bearer [REDACTED]' } });
  });

  it('a result JSON cannot hold is withheld (fail closed): the hooks could not have inspected it', async () => {
    const big = tool({ inputSchema: z.object({}), execute: async () => ({ n: 10n }) });
    const { model, prompts } = scriptedModel([[{ id: 'c1', tool: 'big', input: {} }]]);
    const result = await generateText({ model, tools: withHooks({ big }, policy, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    const error = result.steps.flatMap((s) => s.content).find((p) => p.type === 'tool-error')?.error;
    expect(error).toBeInstanceOf(ToolCallNotJsonError);
    expect((error as ToolCallNotJsonError).code).toBe('output_not_json');
    expect((toolResults(prompts[1])['c1'] as { type: string }).type).toBe('error-text');
  });

  it('a streaming execute: preliminary results are withheld, the last one goes through the post hooks', async () => {
    const progress = tool({
      inputSchema: z.object({}),
      async *execute() {
        yield { status: 'working', token: `ghp_${'a'.repeat(36)}` };
        yield { status: 'done', token: `ghp_${'b'.repeat(36)}` };
      },
    });
    const { model, prompts } = scriptedModel([[{ id: 'c1', tool: 'progress', input: {} }]]);
    const result = streamText({ model, tools: withHooks({ progress }, policy, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    const results: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push(part);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ output: { status: 'done', token: '[REDACTED]' } });
    expect(results[0]).not.toHaveProperty('preliminary', true);
    expect(toolResults(prompts[1])).toEqual({ c1: { type: 'json', value: { status: 'done', token: '[REDACTED]' } } });
  });
});

describe('withHooks (AI SDK): the tool set', () => {
  it('tools without execute are returned as they are; the others keep everything but execute', () => {
    const ask = askTool();
    const { shell } = shellTool();
    const tools = { ask, shell };
    const hooked = withHooks(tools, policy, scope);
    expect(hooked.ask).toBe(ask);
    expect(hooked.shell).not.toBe(shell);
    expect({ ...hooked.shell, execute: undefined }).toEqual({ ...shell, execute: undefined });
    expectTypeOf(hooked).toEqualTypeOf<typeof tools>();
  });

  it('a client tool (no execute) is left to the app: no hook runs, the loop stops for its answer', async () => {
    const calls: string[] = [];
    const runner = new HookRunner([{ name: 'spy', event: 'pre_tool_use', transport: interceptorTransport((req) => (calls.push(req.tool_name), { decision: 'allow' })) }]);
    const ask = askTool();
    const { model, prompts } = scriptedModel([[{ id: 'c1', tool: 'ask', input: { question: 'which branch?' } }]]);
    const result = await generateText({ model, tools: withHooks({ ask }, runner, scope), stopWhen: stepCountIs(3), prompt: 'x' });
    expect(prompts).toHaveLength(1);
    expect(result.toolCalls.map((c) => c.toolName)).toEqual(['ask']);
    expect(calls).toEqual([]);
  });
});
