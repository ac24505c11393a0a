import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport } from '../../../host/index.js';
import { AGENT_NAMES, TOOL_TABLES, fromCanonical, handleAgentEvent, mcpAmbiguity, mcpNameFor, toCanonical } from '../../../host/integrations/agents/index.js';
import { blocksIn, preEvent } from '../../helpers/agents.js';
import { ROOT } from '../../helpers/guests.js';

/* One vocabulary for tools: every row of every agent's table round-trips, and a rewrite keeps what the canonical shape does not carry. */

const SAMPLE_VALUE: Record<string, unknown> = { command: 'ls -la', file_path: '/repo/a.txt', path: '/repo/a.txt', content: 'hi', old_string: 'a', new_string: 'b', old_str: 'a', new_str: 'b', file_text: 'hi', url: 'https://example.com', query: 'q', dir_path: '/repo', directory: '/repo', cwd: '/repo', edits: [{ old: 'a', new: 'b' }], commands: ['ls -la'], old_text: 'a', new_text: 'b' };

describe('canonical tool names: a round trip per row', () => {
  for (const agent of AGENT_NAMES) {
    for (const row of TOOL_TABLES[agent]) {
      it(`${agent}: ${row.native} ⇄ ${row.canonical}`, () => {
        const native: Record<string, unknown> = { extra_field_the_canonical_shape_lacks: 'kept' };
        for (const field of Object.values(row.fields)) native[field] = SAMPLE_VALUE[field];
        const canonical = toCanonical(agent, row.native, native as never);
        expect(canonical.name).toBe(row.canonical);
        expect(Object.keys(canonical.input as object).sort()).toEqual(Object.keys(row.fields).sort());
        // Unchanged, it maps back to exactly the original.
        expect(fromCanonical(agent, row.native, canonical.input, native as never)).toEqual(native);
        // A hook's rewrite of the first canonical field lands in its native field; the rest is kept.
        const [field, nativeField] = Object.entries(row.fields)[0] as [string, string];
        const rewritten = fromCanonical(agent, row.native, { ...(canonical.input as object), [field]: 'rewritten' }, native as never) as Record<string, unknown>;
        expect(rewritten[nativeField]).toEqual(row.list === nativeField ? ['rewritten'] : 'rewritten');
        expect(rewritten['extra_field_the_canonical_shape_lacks']).toBe('kept');
      });
    }
  }

  it('MCP tools: each agent\'s own spelling ⇄ mcp/<server>/<tool>, arguments unchanged', () => {
    const args = { title: 'x' };
    expect(toCanonical('claude-code', 'mcp__github__create_issue', args)).toEqual({ name: 'mcp/github/create_issue', input: args });
    expect(toCanonical('codex', 'mcp__github__create_issue', args).name).toBe('mcp/github/create_issue');
    expect(toCanonical('gemini', 'mcp_github_create_issue', args).name).toBe('mcp/github/create_issue');
    expect(toCanonical('kiro', '@github/create_issue', args).name).toBe('mcp/github/create_issue');
    expect(toCanonical('windsurf', 'mcp:github/create_issue', args).name).toBe('mcp/github/create_issue');
    for (const agent of ['claude-code', 'codex', 'gemini', 'kiro', 'windsurf'] as const) {
      const native = mcpNameFor(agent, 'mcp/github/create_issue') as string;
      expect(toCanonical(agent, native, args).name).toBe('mcp/github/create_issue');
    }
  });

  it('a tool with no row passes through as <agent>:<name>, input unchanged', () => {
    expect(toCanonical('claude-code', 'TodoWrite', { todos: [] })).toEqual({ name: 'claude-code:TodoWrite', input: { todos: [] } });
    expect(fromCanonical('claude-code', 'TodoWrite', { todos: [1] }, { todos: [] })).toEqual({ todos: [1] });
  });
});

describe('MCP names that do not say where the server ends', () => {
  const seen: string[] = [];
  const chain = new HookRunner([{ name: 'see', event: 'pre_tool_use', transport: interceptorTransport((r) => (seen.push(r.tool_name), { decision: 'allow' })) }]);
  // Gemini CLI 0.61.0 writes mcp_context beside an MCP call (packages/core/src/core/coreToolHookTriggers.ts, extractMcpContext).
  const gemini = (toolName: string, mcpContext?: object): string =>
    JSON.stringify({ ...(JSON.parse(preEvent('gemini')) as object), tool_name: toolName, tool_input: { sql: 'select 1' }, ...(mcpContext === undefined ? {} : { mcp_context: mcpContext }) });

  it('Gemini: mcp_context names the server exactly (mcp_my_db_query is server my_db, not my)', async () => {
    seen.length = 0;
    const reply = await handleAgentEvent(chain, 'gemini', gemini('mcp_my_db_query', { server_name: 'my_db', tool_name: 'query', command: 'db-server' }), { toolNames: 'canonical' });
    expect(reply).toEqual({ exit: 0, stdout: '', stderr: '' });
    expect(seen).toEqual(['mcp/my_db/query']);
  });

  it('Gemini: without mcp_context, a name that splits two ways is refused (blocked, the hooks never see a guessed server); one that splits one way is mapped', async () => {
    seen.length = 0;
    const refused = await handleAgentEvent(chain, 'gemini', gemini('mcp_my_db_query'), { toolNames: 'canonical' });
    expect(blocksIn('gemini', refused)).toBe(true);
    expect(refused.stdout).toContain('mcp_context');
    expect(seen).toEqual([]);
    await handleAgentEvent(chain, 'gemini', gemini('mcp_github_search'), { toolNames: 'canonical' });
    expect(seen).toEqual(['mcp/github/search']);
    expect(mcpAmbiguity('gemini', 'mcp_my_db_query', { server: 'my_db', tool: 'query' })).toBeUndefined();
  });

  it('native names (no "tool_names": "canonical"): the name passes as Gemini sent it, nothing is refused', async () => {
    seen.length = 0;
    expect(await handleAgentEvent(chain, 'gemini', gemini('mcp_my_db_query'))).toEqual({ exit: 0, stdout: '', stderr: '' });
    expect(seen).toEqual(['mcp_my_db_query']);
  });

  it('Windsurf names the server in tool_info: used as it is', async () => {
    seen.length = 0;
    const event = JSON.stringify({ agent_action_name: 'pre_mcp_tool_use', trajectory_id: 't', execution_id: 'e', tool_info: { mcp_server_name: 'my_db', mcp_tool_name: 'run_query', mcp_tool_arguments: {} } });
    await handleAgentEvent(chain, 'windsurf', event, { toolNames: 'canonical' });
    expect(seen).toEqual(['mcp/my_db/run_query']);
  });
});

describe('the docs print every table', () => {
  it('each agent\'s page has a row for every row of its table (docs/agents/<agent>.md)', () => {
    for (const agent of AGENT_NAMES) {
      const page = readFileSync(path.join(ROOT, 'docs', 'agents', `${agent}.md`), 'utf8');
      for (const row of TOOL_TABLES[agent]) expect(page, `${agent}: ${row.native}`).toContain(`| \`${row.native}\` | \`${row.canonical}\` |`);
    }
  });
});

describe('a canonical rewrite goes back to each agent in its own shape (through handleAgentEvent)', () => {
  const seen: Array<{ tool: string; input: unknown }> = [];
  const rewrite = new HookRunner([
    { name: 'rw', event: 'pre_tool_use', transport: interceptorTransport((r) => (seen.push({ tool: r.tool_name, input: r.input }), { decision: 'modify', input: { ...(r.input as object), command: 'echo rewritten' } })) },
  ]);
  const answer = async (agent: 'claude-code' | 'codex' | 'gemini' | 'copilot' | 'cline' | 'qwen'): Promise<{ reply: Awaited<ReturnType<typeof handleAgentEvent>>; hookSaw: { tool: string; input: unknown } }> => {
    seen.length = 0;
    const reply = await handleAgentEvent(rewrite, agent, preEvent(agent), { toolNames: 'canonical' });
    return { reply, hookSaw: seen[0] as { tool: string; input: unknown } };
  };

  it('the hook sees shell {command}; each agent gets its own fields back, the ones the canonical shape lacks kept', async () => {
    const claude = await answer('claude-code');
    expect(claude.hookSaw).toEqual({ tool: 'shell', input: { command: 'rm -rf ./victim' } });
    expect(JSON.parse(claude.reply.stdout).hookSpecificOutput.updatedInput).toEqual({ ...(JSON.parse(preEvent('claude-code')) as { tool_input: object }).tool_input, command: 'echo rewritten' });
    expect(JSON.parse((await answer('codex')).reply.stdout).hookSpecificOutput.updatedInput).toEqual({ command: 'echo rewritten' });
    expect(JSON.parse((await answer('gemini')).reply.stdout).hookSpecificOutput.tool_input).toEqual({ command: 'echo rewritten', description: 'delete victim' });
    expect(JSON.parse((await answer('copilot')).reply.stdout).modifiedArgs).toEqual({ command: 'echo rewritten', description: 'delete victim' });
    const cline = await answer('cline');
    expect(cline.hookSaw).toEqual({ tool: 'shell', input: { command: 'rm -rf ./victim' } });
    expect(JSON.parse(cline.reply.stdout)).toEqual({ cancel: false, overrideInput: { commands: ['echo rewritten'] } });
    // Qwen cannot apply it: blocked, never the original.
    expect(blocksIn('qwen', (await answer('qwen')).reply)).toBe(true);
  });
});
