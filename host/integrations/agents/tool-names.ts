import type { JsonValue } from '../../contract/json.js';
import { isJsonObject } from '../shared/object-input.js';
import type { AgentName } from './names.js';

/**
 * One vocabulary for tools (`"tool_names": "canonical"`): every agent's calls presented to the hooks
 * with one set of names and input shapes, and a `modify` mapped back into the agent's own shape,
 * keeping the fields the canonical shape does not carry.
 *
 * | canonical | input |
 * | --- | --- |
 * | `shell` | `{command: string, cwd?: string}` |
 * | `read_file` | `{path: string}` |
 * | `write_file` | `{path: string, content: string}` |
 * | `edit_file` | `{path: string, old_text?, new_text?, edits?}` |
 * | `web_fetch` | `{url: string}` |
 * | `web_search` | `{query: string}` |
 * | `mcp/<server>/<tool>` | the tool's own arguments |
 *
 * A tool with no row passes through as `<agent>:<name>` with its input unchanged.
 */
export type CanonicalName = 'shell' | 'read_file' | 'write_file' | 'edit_file' | 'web_fetch' | 'web_search';

/** One row: a native tool, its canonical name, and which native field carries each canonical one. */
export interface ToolRow {
  readonly native: string;
  readonly canonical: CanonicalName;
  /** canonical field → native field. */
  readonly fields: Readonly<Record<string, string>>;
  /** A native field holding a list where the canonical one holds one string (Cline's `commands`). */
  readonly list?: string;
}

const row = (native: string, canonical: CanonicalName, fields: Record<string, string>, list?: string): ToolRow => ({ native, canonical, fields, ...(list === undefined ? {} : { list }) });

/** The tables, one per agent (the docs print them; every row has a round-trip test). */
export const TOOL_TABLES: Readonly<Record<AgentName, readonly ToolRow[]>> = {
  'claude-code': [
    row('Bash', 'shell', { command: 'command' }),
    row('Read', 'read_file', { path: 'file_path' }),
    row('Write', 'write_file', { path: 'file_path', content: 'content' }),
    row('Edit', 'edit_file', { path: 'file_path', old_text: 'old_string', new_text: 'new_string' }),
    row('WebFetch', 'web_fetch', { url: 'url' }),
    row('WebSearch', 'web_search', { query: 'query' }),
  ],
  codex: [row('Bash', 'shell', { command: 'command' })],
  gemini: [
    row('run_shell_command', 'shell', { command: 'command', cwd: 'dir_path' }),
    row('read_file', 'read_file', { path: 'file_path' }),
    row('write_file', 'write_file', { path: 'file_path', content: 'content' }),
    row('replace', 'edit_file', { path: 'file_path', old_text: 'old_string', new_text: 'new_string' }),
    row('google_web_search', 'web_search', { query: 'query' }),
  ],
  copilot: [
    row('bash', 'shell', { command: 'command' }),
    row('Bash', 'shell', { command: 'command' }),
    row('view', 'read_file', { path: 'path' }),
    row('create', 'write_file', { path: 'path', content: 'file_text' }),
    row('edit', 'edit_file', { path: 'path', old_text: 'old_str', new_text: 'new_str' }),
    row('web_fetch', 'web_fetch', { url: 'url' }),
  ],
  // Qwen Code 0.15.10's tool schemas (cli.js: ToolNames, ShellTool, ReadFileTool, WriteFileTool, EditTool, WebFetchTool).
  qwen: [
    row('run_shell_command', 'shell', { command: 'command', cwd: 'directory' }),
    row('read_file', 'read_file', { path: 'file_path' }),
    row('write_file', 'write_file', { path: 'file_path', content: 'content' }),
    row('edit', 'edit_file', { path: 'file_path', old_text: 'old_string', new_text: 'new_string' }),
    row('web_fetch', 'web_fetch', { url: 'url' }),
  ],
  // Cline 3.0.65 (@cline/core): run_commands takes a list; editor edits or creates one file.
  cline: [row('run_commands', 'shell', { command: 'commands' }, 'commands'), row('editor', 'edit_file', { path: 'path', old_text: 'old_text', new_text: 'new_text' })],
  cursor: [row('Shell', 'shell', { command: 'command', cwd: 'cwd' }), row('Read', 'read_file', { path: 'file_path' })],
  windsurf: [
    row('run_command', 'shell', { command: 'command', cwd: 'cwd' }),
    row('read_code', 'read_file', { path: 'file_path' }),
    row('write_code', 'edit_file', { path: 'file_path', edits: 'edits' }),
  ],
  kiro: [row('execute_bash', 'shell', { command: 'command' })],
};

/** How MCP tools are named per agent: the server and tool out of a native name, or undefined. */
function mcpParts(agent: AgentName, name: string): { server: string; tool: string } | undefined {
  let m: RegExpExecArray | null = null;
  if (agent === 'claude-code' || agent === 'codex' || agent === 'qwen') m = /^mcp__(.+?)__(.+)$/.exec(name);
  else if (agent === 'gemini') m = /^mcp_([^_]+)_(.+)$/.exec(name);
  else if (agent === 'kiro') m = /^@([^/]+)\/(.+)$/.exec(name);
  else if (agent === 'windsurf') m = /^mcp:([^/]+)\/(.+)$/.exec(name);
  return m === null ? undefined : { server: m[1] as string, tool: m[2] as string };
}

/** The native name of `mcp/<server>/<tool>` for an agent, or undefined where it has no such form. */
function mcpNative(agent: AgentName, server: string, tool: string): string | undefined {
  if (agent === 'claude-code' || agent === 'codex' || agent === 'qwen') return `mcp__${server}__${tool}`;
  if (agent === 'gemini') return `mcp_${server}_${tool}`;
  if (agent === 'kiro') return `@${server}/${tool}`;
  if (agent === 'windsurf') return `mcp:${server}/${tool}`;
  return undefined;
}

/** A call in canonical terms. */
export interface CanonicalCall {
  readonly name: string;
  readonly input: JsonValue;
}

/**
 * Why an agent's MCP tool name cannot be mapped to `mcp/<server>/<tool>` without the agent naming the
 * server itself, or undefined. Gemini CLI names MCP tools `mcp_<server>_<tool>` (single underscores,
 * `packages/core/src/tools/mcp-tool.ts`): with a second underscore the server's end is unknowable —
 * `mcp_my_db_query` is server `my` or `my_db` — and Gemini's own parser guesses the first. Its hook
 * events carry `mcp_context` (server and tool, exact) for every MCP call it can place; a name that
 * arrives without it and splits two ways is refused (the call is blocked), never guessed: a guess
 * would present another server's name to a policy keyed on it.
 */
export function mcpAmbiguity(agent: AgentName, name: string, named: { readonly server: string; readonly tool: string } | undefined): string | undefined {
  if (agent !== 'gemini' || named !== undefined || !name.startsWith('mcp_')) return undefined;
  if (TOOL_TABLES.gemini.some((r) => r.native === name)) return undefined;
  const rest = name.slice('mcp_'.length);
  if (rest.split('_').length <= 2) return undefined;
  return `Gemini CLI named this MCP tool ${JSON.stringify(name)} without its mcp_context, and the name splits more than one way into mcp_<server>_<tool> (the server name may hold an underscore): with "tool_names": "canonical" basis-hooks cannot tell which server it is, so the call is blocked`;
}

/**
 * A native call → its canonical name and input (unknown tools: `<agent>:<name>`, input unchanged).
 * `named`: the MCP server and tool as the agent names them beside the call (exact: used first).
 */
export function toCanonical(agent: AgentName, name: string, input: JsonValue, named?: { readonly server: string; readonly tool: string }): CanonicalCall {
  if (named !== undefined && named.server !== '' && named.tool !== '') return { name: `mcp/${named.server}/${named.tool}`, input };
  const found = TOOL_TABLES[agent].find((r) => r.native === name);
  if (found !== undefined && isJsonObject(input)) {
    const out: Record<string, JsonValue> = {};
    for (const [canonical, native] of Object.entries(found.fields)) {
      const value = input[native];
      if (value === undefined) continue;
      if (found.list === native && Array.isArray(value)) out[canonical] = value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n');
      else out[canonical] = value;
    }
    return { name: found.canonical, input: out };
  }
  const mcp = mcpParts(agent, name);
  if (mcp !== undefined) return { name: `mcp/${mcp.server}/${mcp.tool}`, input };
  return { name: `${agent}:${name}`, input };
}

/**
 * A canonical input (a hook's rewrite) → the agent's own input: the canonical fields written into
 * their native fields over the original, so fields the canonical shape does not carry (Claude's
 * `description`, `timeout`; Gemini's `description`) are kept; a canonical field the rewrite dropped is
 * dropped from the native input too.
 */
export function fromCanonical(agent: AgentName, nativeName: string, canonicalInput: JsonValue, original: JsonValue): JsonValue {
  const found = TOOL_TABLES[agent].find((r) => r.native === nativeName);
  if (found === undefined || !isJsonObject(canonicalInput) || !isJsonObject(original)) return canonicalInput;
  const out: Record<string, JsonValue> = { ...original };
  for (const [canonical, native] of Object.entries(found.fields)) {
    const value = canonicalInput[canonical];
    if (value === undefined) {
      delete out[native];
      continue;
    }
    if (found.list === native) {
      const before = original[native];
      // One command stays one command; a rewrite of several joined commands becomes one.
      out[native] = Array.isArray(before) && before.length > 1 && typeof value === 'string' ? [value] : [value];
    } else out[native] = value;
  }
  return out;
}

/** Whether an agent has a native name for a canonical `mcp/<server>/<tool>` (for docs and check). */
export function mcpNameFor(agent: AgentName, canonical: string): string | undefined {
  const m = /^mcp\/([^/]+)\/(.+)$/.exec(canonical);
  return m === null ? undefined : mcpNative(agent, m[1] as string, m[2] as string);
}
