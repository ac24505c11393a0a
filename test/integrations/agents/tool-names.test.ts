import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, TOOL_TABLES, fromCanonical, mcpNameFor, toCanonical } from '../../../host/integrations/agents/index.js';

/* One vocabulary for tools: every row of every agent's table round-trips, and a rewrite keeps what the canonical shape does not carry. */

const SAMPLE_VALUE: Record<string, unknown> = { command: 'ls -la', file_path: '/repo/a.txt', path: '/repo/a.txt', content: 'hi', old_string: 'a', new_string: 'b', old_str: 'a', new_str: 'b', file_text: 'hi', url: 'https://example.com', query: 'q', dir_path: '/repo', directory: '/repo', cwd: '/repo', edits: [{ old: 'a', new: 'b' }], commands: ['ls -la'] };

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
