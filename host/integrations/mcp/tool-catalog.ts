import { createHash } from 'node:crypto';
import { AUDIT_SCHEMA_VERSION, type GatewayAuditEvent } from '../../contract/audit.js';
import { paramHeaders, type ParamHeader } from './mirror-headers.js';

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of a tool definition that are pinned (what a "rug pull" changes between listings). */
const PINNED_FIELDS = ['description', 'inputSchema', 'outputSchema', 'title', 'annotations'] as const;

/** JSON with object keys sorted, so equal definitions have equal digests whatever the server's key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Known {
  readonly digest: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly params: readonly ParamHeader[] | undefined;
}

/**
 * What the gateway knows of one server's tools, from the `tools/list` results that pass through it:
 * each tool's definition digest (tool-definition pinning: a definition that changes between two
 * listings — its description, schemas, title or annotations — is reported in the audit stream, as is
 * a tool that appears or disappears between two complete listings) and its `x-mcp-header`
 * annotations (for 2026-07-28's `Mcp-Param-*` headers).
 */
export class ToolCatalog {
  readonly #server: string;
  readonly #report: ((event: GatewayAuditEvent) => void) | undefined;
  readonly #tools = new Map<string, Known>();
  #listedOnce = false;

  constructor(server: string, report?: (event: GatewayAuditEvent) => void) {
    this.#server = server;
    this.#report = report;
  }

  /**
   * Learn from a listing. `complete`: it was the whole list (one page, no cursor): only then can a
   * tool missing from it be said to have disappeared.
   */
  observe(tools: readonly unknown[], complete: boolean, agentId: string): void {
    const seen = new Set<string>();
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool.name !== 'string') continue;
      const name = tool.name;
      seen.add(name);
      const fields = Object.fromEntries(PINNED_FIELDS.map((field) => [field, sha256(canonical(tool[field] ?? null))]));
      const digest = sha256(canonical({ name, ...Object.fromEntries(PINNED_FIELDS.map((field) => [field, tool[field]])) }));
      const headers = paramHeaders(tool.inputSchema);
      const known = this.#tools.get(name);
      this.#tools.set(name, { digest, fields, params: typeof headers === 'string' ? undefined : headers });
      if (known === undefined) {
        if (this.#listedOnce) this.#emit({ tool_name: name, change: 'added', sha256: digest, agent_id: agentId });
      } else if (known.digest !== digest) {
        const changed = PINNED_FIELDS.filter((field) => known.fields[field] !== fields[field]);
        this.#emit({ tool_name: name, change: 'changed', fields: [...changed], sha256: digest, previous_sha256: known.digest, agent_id: agentId });
      }
    }
    if (complete && this.#listedOnce) {
      for (const [name, known] of [...this.#tools]) {
        if (seen.has(name)) continue;
        this.#tools.delete(name);
        this.#emit({ tool_name: name, change: 'removed', previous_sha256: known.digest, agent_id: agentId });
      }
    }
    if (complete) this.#listedOnce = true;
  }

  /** A tool's `x-mcp-header` annotations (`undefined`: not listed yet, or its annotations are invalid). */
  paramHeaders(name: string): readonly ParamHeader[] | undefined {
    return this.#tools.get(name)?.params;
  }

  /** Whether a tool was listed (and its annotations are valid). */
  knows(name: string): boolean {
    return this.#tools.get(name)?.params !== undefined;
  }

  #emit(change: Omit<Extract<GatewayAuditEvent, { type: 'tool_definition_changed' }>, 'audit_schema' | 'time' | 'type' | 'server'>): void {
    this.#report?.({ audit_schema: AUDIT_SCHEMA_VERSION, time: new Date().toISOString(), type: 'tool_definition_changed', server: this.#server, ...change });
  }
}
