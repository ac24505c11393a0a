/**
 * `basis-hooks/openai-agents` driven by a scripted model implementing the SDK's `Model` interface, over
 * multi-turn runs of the SDK's real `Runner`, with real hooks: the WAT `guard` and `redact` components
 * and a POSIX sh subprocess hook. Each test reads what the model was sent back after a tool call.
 */
import { Agent, hostedMcpTool, run, setTracingDisabled, tool } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { HookRunner, interceptorTransport, subprocessTransport, type HookRequest, type PostToolUseOutcome, type PreToolUseOutcome } from '../../host/index.js';
import { hookTool, isToolCallBlockedError, withHooks } from '../../host/integrations/openai-agents/index.js';
import { ScriptedModel, functionResults, type Step } from './agents-script.js';
import { AWS_SECRET, ensurePolicyGuests, policyHooks, shellOutput } from './hooks.js';

setTracingDisabled(true); // offline: nothing is exported

const scope = { workspace: '/repo', agentId: 'ops' };
const text = (value: string) => ({ type: 'text', text: value });

function shellTool() {
  const ran: string[] = [];
  const shell = tool({
    name: 'shell',
    description: 'Run a shell command',
    parameters: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      ran.push(command);
      return shellOutput(command);
    },
  });
  return { shell, ran };
}

const call = (id: string, command: string) => ({ id, tool: 'shell', input: { command } });

function agentWith(model: ScriptedModel, tools: Agent['tools']): Agent {
  return new Agent({ name: 'ops', instructions: 'You run commands.', model, tools });
}

let policy: HookRunner;
beforeAll(async () => {
  await ensurePolicyGuests();
  policy = new HookRunner(policyHooks());
}, 300_000);
afterAll(async () => {
  await policy?.close();
});

describe('withHooks (OpenAI Agents SDK): the model is sent what the chain decided', () => {
  const script: Step[] = [
    [call('c1', 'git push --force origin main')],
    [call('c2', 'git push --force origin feature'), call('c3', 'rm -rf /')],
    [call('c4', 'cat .env')],
    [call('c5', 'ls')],
  ];

  function expectPolicyOutcomes(model: ScriptedModel, ran: string[]): void {
    expect(model.inputs).toHaveLength(5);
    // deny by the guard component: the reason, as the SDK shows a rejected call; the tool never ran.
    expect(functionResults(model.inputs[1])).toEqual({ c1: text('force-push to a protected branch (main/master) is not allowed') });
    // modify by the guard component, and deny by the sh subprocess hook, in one turn.
    expect(functionResults(model.inputs[2])).toEqual({ c2: text('ran: git push --force-with-lease origin feature'), c3: text('rm -rf is not allowed here') });
    // replace by the redact component.
    expect(functionResults(model.inputs[3])).toEqual({ c4: text('AWS_SECRET_ACCESS_KEY=[REDACTED]\n') });
    // allow: the tool's own result.
    expect(functionResults(model.inputs[4])).toEqual({ c5: text('ran: ls') });
    expect(ran).toEqual(['git push --force-with-lease origin feature', 'cat .env', 'ls']);
    expect(JSON.stringify(model.inputs)).not.toContain(AWS_SECRET);
  }

  it('run(), over five turns: deny, modify, deny (subprocess), replace, allow', async () => {
    const { shell, ran } = shellTool();
    const model = new ScriptedModel(script);
    const result = await run(agentWith(model, withHooks([shell], policy, scope)), 'tidy up', { maxTurns: 10 });
    expect(result.finalOutput).toBe('done');
    expectPolicyOutcomes(model, ran);
    // The model's own call stays in the history as it made it; the tool ran with the rewrite.
    const history = JSON.stringify(model.inputs[4]);
    expect(history).toContain('git push --force origin feature');
  });

  it('run() streamed, the same script: the same messages', async () => {
    const { shell, ran } = shellTool();
    const model = new ScriptedModel(script);
    const result = await run(agentWith(model, withHooks([shell], policy, scope)), 'tidy up', { maxTurns: 10, stream: true });
    for await (const _event of result) void _event;
    await result.completed;
    expect(result.finalOutput).toBe('done');
    expectPolicyOutcomes(model, ran);
  });
});

describe('withHooks (OpenAI Agents SDK): failures, rewrites and results', () => {
  it('a hook that fails closes the call: the model is told which hook failed and why', async () => {
    const runner = new HookRunner([{ name: 'flaky', event: 'pre_tool_use', transport: subprocessTransport({ command: 'cat >/dev/null; exit 3' }) }]);
    const { shell, ran } = shellTool();
    const model = new ScriptedModel([[call('c1', 'make deploy')]]);
    await run(agentWith(model, withHooks([shell], runner, scope)), 'deploy');
    await runner.close();
    const result = functionResults(model.inputs[1])['c1'] as { text: string };
    expect(result.text).toMatch(/^hook "flaky" failed \(exit_nonzero: [^)]*\);/);
    expect(ran).toEqual([]);
  });

  it('fail open (on_failure: allow): the hook is skipped and the call runs', async () => {
    const runner = new HookRunner([{ name: 'flaky', event: 'pre_tool_use', on_failure: 'allow', transport: subprocessTransport({ command: 'cat >/dev/null; exit 3' }) }]);
    const { shell, ran } = shellTool();
    const model = new ScriptedModel([[call('c1', 'make deploy')]]);
    await run(agentWith(model, withHooks([shell], runner, scope)), 'deploy');
    await runner.close();
    expect(functionResults(model.inputs[1])).toEqual({ c1: text('ran: make deploy') });
    expect(ran).toEqual(['make deploy']);
  });

  it('a rewrite that breaks the tool schema is that hook failure; under on_failure allow the next hook sees the original', async () => {
    for (const onFailure of ['deny', 'allow'] as const) {
      const seen: HookRequest[] = [];
      const outcomes: (PreToolUseOutcome | PostToolUseOutcome)[] = [];
      const runner = new HookRunner([
        { name: 'bad-rewrite', event: 'pre_tool_use', on_failure: onFailure, transport: interceptorTransport(() => ({ decision: 'modify', input: { command: ['ls'] } })) },
        { name: 'witness', event: 'pre_tool_use', transport: interceptorTransport((req) => (seen.push(req), { decision: 'allow' })) },
      ]);
      const { shell, ran } = shellTool();
      const model = new ScriptedModel([[call('c1', 'ls')]]);
      await run(agentWith(model, withHooks([shell], runner, { ...scope, onOutcome: (o) => outcomes.push(o) })), 'x');
      expect(outcomes[0]?.trail[0]).toMatchObject({ hook: 'bad-rewrite', failure: { code: 'malformed_response' } });
      if (onFailure === 'deny') {
        expect((functionResults(model.inputs[1])['c1'] as { text: string }).text).toMatch(/^hook "bad-rewrite" failed \(malformed_response: [^)]*\);/);
        expect(seen).toEqual([]);
        expect(ran).toEqual([]);
      } else {
        expect(functionResults(model.inputs[1])).toEqual({ c1: text('ran: ls') });
        expect(seen.map((r) => r.input)).toEqual([{ command: 'ls' }]);
        expect(ran).toEqual(['ls']);
      }
    }
  });

  it('hooks see the call id and the parsed arguments; post hooks the input the tool ran with and its result', async () => {
    const seen: HookRequest[] = [];
    const runner = new HookRunner([
      { name: 'pin', event: 'pre_tool_use', transport: interceptorTransport((req) => (seen.push(req), { decision: 'modify', input: { command: 'git status' } })) },
      { name: 'post', event: 'post_tool_use', transport: interceptorTransport((req) => (seen.push(req), { decision: 'allow' })) },
    ]);
    const { shell } = shellTool();
    const model = new ScriptedModel([[call('c1', 'git reset --hard')]]);
    await run(agentWith(model, withHooks([shell], runner, scope)), 'x');
    expect(seen).toEqual([
      { hook_schema: 1, event: 'pre_tool_use', workspace: '/repo', agent_id: 'ops', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'git reset --hard' } },
      { hook_schema: 1, event: 'post_tool_use', workspace: '/repo', agent_id: 'ops', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'git status' }, output: 'ran: git status', is_error: false },
    ]);
  });

  it('post deny, and a replacement marked is_error, reach the model as a rejection does; a structured replacement as its JSON', async () => {
    const runner = new HookRunner([
      {
        name: 'post',
        event: 'post_tool_use',
        transport: interceptorTransport((req) =>
          req.tool_call_id === 'c1'
            ? { decision: 'deny', reason: 'listing withheld' }
            : req.tool_call_id === 'c2'
              ? { decision: 'replace', output: 'no such directory', is_error: true }
              : { decision: 'replace', output: { files: ['a'] } },
        ),
      },
    ]);
    const { shell, ran } = shellTool();
    const model = new ScriptedModel([[call('c1', 'ls')], [call('c2', 'ls /nope')], [call('c3', 'ls /')]]);
    await run(agentWith(model, withHooks([shell], runner, scope)), 'x');
    expect(functionResults(model.inputs[1])).toEqual({ c1: text('listing withheld') });
    expect(functionResults(model.inputs[2])).toEqual({ c2: text('no such directory') });
    expect(functionResults(model.inputs[3])).toEqual({ c3: text('{"files":["a"]}') });
    expect(ran).toEqual(['ls', 'ls /nope', 'ls /']);
  });

  it('a tool with an outputSchema shows a denial through its errorFunction, as the SDK does for a rejection', async () => {
    const runner = new HookRunner([{ name: 'no', event: 'pre_tool_use', transport: interceptorTransport(() => ({ decision: 'deny', reason: 'not today' })) }]);
    const errors: unknown[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Look up a user',
      parameters: z.object({ id: z.number() }),
      outputSchema: z.object({ ok: z.boolean(), message: z.string() }),
      execute: async () => ({ ok: true, message: 'found' }),
      errorFunction: (_ctx, error) => (errors.push(error), { ok: false, message: error instanceof Error ? error.message : String(error) }),
    });
    const model = new ScriptedModel([[{ id: 'c1', tool: 'lookup', input: { id: 1 } }]]);
    await run(agentWith(model, withHooks([lookup], runner, scope)), 'x');
    expect(functionResults(model.inputs[1])).toEqual({ c1: text('{"ok":false,"message":"not today"}') });
    expect(isToolCallBlockedError(errors[0]) && errors[0].code).toBe('denied');
  });

  it('the redact component redacts a secret in the text a failing tool returns (its errorFunction output)', async () => {
    const leaky = tool({
      name: 'fetch',
      description: 'Fetch a URL',
      parameters: z.object({ url: z.string() }),
      execute: async (): Promise<string> => {
        throw new Error('401 for Bearer abcdefghijklmnopqrstuvwxyz123456');
      },
    });
    const model = new ScriptedModel([[{ id: 'c1', tool: 'fetch', input: { url: 'u' } }]]);
    await run(agentWith(model, withHooks([leaky], policy, scope)), 'x');
    const result = functionResults(model.inputs[1])['c1'] as { text: string };
    expect(result.text).toContain('Bearer [REDACTED]');
    expect(result.text).not.toContain('abcdefghijklmnopqrstuvwxyz123456');
  });
});

describe('withHooks (OpenAI Agents SDK): the tool list', () => {
  it('non-function tools are returned as they are; a function tool keeps everything but invoke', () => {
    const { shell } = shellTool();
    const hosted = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://example.invalid/mcp' });
    const tools = [shell, hosted] as const;
    const hooked = withHooks(tools, policy, scope);
    expect(hooked[1]).toBe(hosted);
    expect(hooked[0]).not.toBe(shell);
    expect({ ...hooked[0], invoke: undefined }).toEqual({ ...shell, invoke: undefined });
    expect(Object.getOwnPropertySymbols(hooked[0])).toEqual(Object.getOwnPropertySymbols(shell));
    expectTypeOf(hooked).toEqualTypeOf<typeof tools>();
    expectTypeOf(hookTool(shell, policy, scope)).toEqualTypeOf<typeof shell>();
  });
});
