import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport } from '../../../host/index.js';
import type { HookRequest } from '../../../host/contract/request.js';
import type { HookResponse } from '../../../host/contract/response.js';
import { AGENT_NAMES, agentDialect, handleAgentEvent, type AgentName, type AgentReply } from '../../../host/integrations/agents/index.js';
import { blocksIn } from '../../helpers/agents.js';
import { ROOT } from '../../helpers/guests.js';

/*
 * Each agent's dialect against the real events: the samples captured from the six CLIs that run here
 * (agents/samples/, stdin as each CLI wrote it) and, for Cursor, Windsurf and Kiro, events copied from
 * their documentation (test/fixtures/agents/, the source named in each). Every pitfall of issue 21 is a
 * test here. The chain is a real runner whose one hook answers what each test needs.
 */

const SAMPLES = path.join(ROOT, 'agents', 'samples');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'agents');
const sample = (name: string): string => readFileSync(path.join(SAMPLES, `${name}.json`), 'utf8');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8');

type Behaviour = (request: HookRequest) => HookResponse;
const runner = (pre: Behaviour, post: Behaviour = () => ({ decision: 'allow' })): HookRunner =>
  new HookRunner([
    { name: 'pre', event: 'pre_tool_use', transport: interceptorTransport(pre) },
    { name: 'post', event: 'post_tool_use', transport: interceptorTransport(post) },
  ]);
const allow: Behaviour = () => ({ decision: 'allow' });
const deny: Behaviour = () => ({ decision: 'deny', reason: 'no rm' });
const modify: Behaviour = (r) => ({ decision: 'modify', input: { ...(r.input as object), command: 'echo rewritten' } });
const redact: Behaviour = () => ({ decision: 'replace', output: 'REDACTED' });

async function answer(agent: AgentName, event: string, pre: Behaviour, post?: Behaviour): Promise<AgentReply> {
  return handleAgentEvent(runner(pre, post), agent, event);
}
const json = (reply: AgentReply): unknown => JSON.parse(reply.stdout);

/** The pre-call event each agent sends (a captured sample, or a documented fixture). */
const PRE: Record<AgentName, string> = {
  'claude-code': sample('claude-PreToolUse'),
  codex: sample('codex-PreToolUse'),
  gemini: sample('gemini-BeforeTool'),
  copilot: sample('copilot-preToolUse'),
  qwen: sample('qwen-PreToolUse'),
  cline: sample('cline-PreToolUse'),
  cursor: fixture('cursor-preToolUse'),
  windsurf: fixture('windsurf-pre_run_command'),
  kiro: fixture('kiro-preToolUse'),
};

const blocks = blocksIn;

describe('every agent: a deny blocks in its own form, with the reason', () => {
  for (const agent of AGENT_NAMES) {
    it(agent, async () => {
      const reply = await answer(agent, PRE[agent], deny);
      expect(blocks(agent, reply)).toBe(true);
      expect(reply.stdout + reply.stderr).toContain('no rm');
    });
  }
});

describe('the pitfalls of issue 21', () => {
  it('Codex: allow is empty stdout; a rewrite is allow WITH updatedInput; never allow without it, never ask', async () => {
    expect(await answer('codex', PRE.codex, allow)).toEqual({ exit: 0, stdout: '', stderr: '' });
    expect(json(await answer('codex', PRE.codex, modify))).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } } });
  });

  it('Codex: a post-call replacement is decision:block with the new text as the reason (Codex shows the reason in place of the output)', async () => {
    expect(json(await answer('codex', sample('codex-PostToolUse'), allow, redact))).toEqual({ decision: 'block', reason: 'REDACTED' });
  });

  it('Claude Code: no objection is no output (an allow would skip the user\'s permission prompt); a block is the JSON deny, not exit 2 (which shows the model the hook\'s command line)', async () => {
    expect(await answer('claude-code', PRE['claude-code'], allow)).toEqual({ exit: 0, stdout: '', stderr: '' });
    const blocked = agentDialect('claude-code').block('server down');
    expect(blocked.exit).toBe(0);
    expect(json(blocked)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('Copilot: the event name\'s casing switches the payload — camelCase in, camelCase out; PascalCase in, Claude\'s form out', async () => {
    expect(json(await answer('copilot', sample('copilot-preToolUse'), deny))).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no rm' });
    expect(json(await answer('copilot', sample('copilot-pascal-PreToolUse'), deny))).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    expect(json(await answer('copilot', sample('copilot-preToolUse'), modify))).toMatchObject({ permissionDecision: 'allow', modifiedArgs: { command: 'echo rewritten', description: 'delete victim' } });
    expect(json(await answer('copilot', sample('copilot-postToolUse'), allow, redact))).toEqual({ modifiedResult: { resultType: 'success', textResultForLlm: 'REDACTED' } });
  });

  it('Copilot: exit 2 drops the reason, so no Copilot answer is ever exit 2', async () => {
    for (const behaviour of [allow, deny, modify]) expect((await answer('copilot', PRE.copilot, behaviour)).exit).toBe(0);
    expect(agentDialect('copilot').block('x').exit).toBe(0);
  });

  it('Cline: exit 2 is ignored, so every answer is exit 0 and a block is {"cancel": true}; a rewrite is overrideInput', async () => {
    const denied = await answer('cline', PRE.cline, deny);
    expect(denied.exit).toBe(0);
    expect(json(denied)).toEqual({ cancel: true, errorMessage: 'no rm' });
    expect(json(await answer('cline', PRE.cline, allow))).toEqual({ cancel: false });
    expect(json(await answer('cline', PRE.cline, (r) => ({ decision: 'modify', input: { ...(r.input as object), commands: ['echo ok'] } })))).toEqual({ cancel: false, overrideInput: { commands: ['echo ok'] } });
    expect(agentDialect('cline').block('x')).toMatchObject({ exit: 0 });
  });

  it('Qwen Code cannot apply a rewrite: a modify is denied with a reason, never the unmodified call', async () => {
    const reply = await answer('qwen', PRE.qwen, modify);
    expect(blocks('qwen', reply)).toBe(true);
    expect(reply.stdout).toContain('cannot apply a rewrite');
  });

  it('Windsurf and Kiro cannot rewrite either: exit 2 with the reason', async () => {
    for (const agent of ['windsurf', 'kiro'] as const) {
      const reply = await answer(agent, PRE[agent], modify);
      expect(reply.exit).toBe(2);
      expect(reply.stderr).toContain('cannot apply a rewrite');
    }
  });

  it('Gemini merges a rewrite over the arguments: one that drops an argument is denied; otherwise hookSpecificOutput.tool_input', async () => {
    expect(json(await answer('gemini', PRE.gemini, modify))).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'echo rewritten', description: 'delete victim' } } });
    const dropped = await answer('gemini', PRE.gemini, () => ({ decision: 'modify', input: { command: 'ls' } }));
    expect(json(dropped)).toMatchObject({ decision: 'deny', reason: expect.stringContaining('dropping description') as unknown });
    expect(json(await answer('gemini', sample('gemini-AfterTool'), allow, redact))).toEqual({ decision: 'deny', reason: 'REDACTED' });
  });

  it('Cursor: a rewrite only at preToolUse (elsewhere denied); an explicit allow; never "ask"', async () => {
    expect(json(await answer('cursor', PRE.cursor, modify))).toEqual({ permission: 'allow', updated_input: { command: 'echo rewritten' } });
    expect(json(await answer('cursor', fixture('cursor-beforeShellExecution'), modify))).toMatchObject({ permission: 'deny' });
    expect(json(await answer('cursor', fixture('cursor-beforeShellExecution'), allow))).toEqual({ permission: 'allow' });
  });

  it('Windsurf MCP calls carry the server name; Kiro post events reach the post hooks (which cannot change the result)', async () => {
    let seen = '';
    await answer('windsurf', fixture('windsurf-pre_mcp_tool_use'), (r) => ((seen = r.tool_name), { decision: 'allow' }));
    expect(seen).toBe('mcp:github/create_issue');
    expect(await answer('kiro', fixture('kiro-postToolUse'), allow, redact)).toEqual({ exit: 0, stdout: '', stderr: '' });
  });

  it('"no objection" is no output exactly where capabilities.silentAllow says so (the installed client blocks an empty answer from the others: Cline, Cursor)', async () => {
    for (const agent of AGENT_NAMES) {
      const reply = await answer(agent, PRE[agent], allow);
      expect(reply.exit, agent).toBe(0);
      expect(reply.stdout === '', agent).toBe(agentDialect(agent).capabilities.silentAllow);
    }
  });

  it('an event that cannot be read (not JSON, another event, missing fields) is the agent\'s block', async () => {
    for (const agent of AGENT_NAMES) {
      for (const text of ['garbage', '{}', '{"hook_event_name":"Stop"}']) expect(blocks(agent, await answer(agent, text, allow)), `${agent} ${text}`).toBe(true);
    }
  });

  it('property: whatever the chain decides before a call, no agent is answered in a fail-open form (only exit 0 or 2; a deny or a rewrite the agent cannot apply always blocks)', async () => {
    const decision = fc.constantFrom<Behaviour>(allow, deny, modify, () => ({ decision: 'deny', reason: '' }), () => ({ decision: 'modify', input: 'not an object' }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AGENT_NAMES), decision, async (agent, behaviour) => {
        const reply = await answer(agent, PRE[agent], behaviour);
        expect([0, 2]).toContain(reply.exit);
        const read = agentDialect(agent).read(JSON.parse(PRE[agent]) as unknown);
        if (!read.ok) throw new Error(read.problem);
        const outcome = await runner(behaviour).run(read.event.call);
        const mustBlock = outcome.event === 'pre_tool_use' && (outcome.decision === 'deny' || (outcome.modified && agentDialect(agent).capabilities.modify === 'block'));
        if (mustBlock) expect(blocks(agent, reply), `${agent}: ${JSON.stringify(reply)}`).toBe(true);
      }),
      { numRuns: 120 },
    );
  });
});
