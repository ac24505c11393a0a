import http from 'node:http';
import https from 'node:https';
import type { GatewayAuditEvent } from '../../../contract/audit.js';
import type { Era } from '../era.js';
import { ToolCatalog } from '../tool-catalog.js';
import { HttpLink } from './http-link.js';
import type { UpstreamLink } from './link.js';
import { gatewayMeta, probeEra, type ProbeResult } from './probe.js';
import { ServerProcess, type ServerCommand, type ServerExit } from './server-process.js';
import { UpstreamSession } from './session.js';
import { StdioLink } from './stdio-link.js';

/** The MCP server behind the gateway: a command spoken to over stdio, or a Streamable HTTP endpoint. */
export type UpstreamTarget =
  | { readonly kind: 'stdio'; readonly server: ServerCommand }
  /** `headers`: `--upstream-header`s, the gateway's own credentials for the server. */
  | { readonly kind: 'http'; readonly url: URL; readonly headers: Readonly<Record<string, string>> };

/** Options of {@link Upstreams}. */
export interface UpstreamsOptions {
  readonly timeoutMs: number;
  readonly maxMessageBytes: number;
  /** Skip the probe: the era the server speaks, as the operator says (`--upstream-era`). */
  readonly era?: Era | undefined;
  readonly log: (line: string) => void;
  readonly record?: ((event: GatewayAuditEvent) => void) | undefined;
}

/** One open connection to the server. */
export interface OpenUpstream {
  readonly session: UpstreamSession;
  /** stdio: the process (its pid, its end). */
  readonly process?: ServerProcess;
  close(): Promise<void>;
}

/**
 * Opens connections to one server, all sharing what the gateway learns about it: its era (probed
 * once, with the first connection) and its tools (one {@link ToolCatalog}: definition pinning and
 * `x-mcp-header` annotations). A stdio server is one process per connection; an HTTP server one
 * {@link HttpLink} per connection (a session, for a legacy server), all over one keep-alive agent.
 */
export class Upstreams {
  readonly target: UpstreamTarget;
  readonly catalog: ToolCatalog;
  readonly label: string;
  readonly #options: UpstreamsOptions;
  readonly #agent: http.Agent | undefined;
  #probed: Promise<ProbeResult> | undefined;

  constructor(target: UpstreamTarget, options: UpstreamsOptions) {
    this.target = target;
    this.#options = options;
    this.label = target.kind === 'stdio' ? 'the MCP server' : `the MCP server at ${target.url.href}`;
    this.catalog = new ToolCatalog(target.kind === 'stdio' ? [target.server.command, ...target.server.args].join(' ') : target.url.href, options.record);
    this.#agent = target.kind === 'http' ? new (target.url.protocol === 'https:' ? https.Agent : http.Agent)({ keepAlive: true }) : undefined;
    if (options.era !== undefined) this.#probed = Promise.resolve(options.era === 'modern' ? { era: 'modern', discover: {} } : { era: 'legacy' });
  }

  /**
   * Open a connection. `dedicated`: for one legacy client, whose own `initialize` will go through
   * it. Rejects when the server cannot be started or reached (nothing is left running then).
   */
  async open(dedicated: boolean): Promise<OpenUpstream> {
    if (this.target.kind === 'stdio') {
      const process = new ServerProcess({ ...this.target.server, maxMessageBytes: this.#options.maxMessageBytes });
      await process.start();
      const link = new StdioLink(process, { label: this.label, timeoutMs: this.#options.timeoutMs });
      link.onLog = this.#options.log;
      try {
        const probe = await (this.#probed ??= probeEra(link));
        return { session: new UpstreamSession(link, probe, this.catalog, { dedicated }), process, close: () => process.close() };
      } catch (error) {
        this.#probed = undefined;
        process.kill();
        await process.exited;
        throw error;
      }
    }
    if (this.#probed === undefined) {
      const probeLink = this.#httpLink('modern');
      this.#probed = probeEra(probeLink);
      this.#probed.catch(() => (this.#probed = undefined));
    }
    const probe = await this.#probed;
    const link = this.#httpLink(probe.era);
    return { session: new UpstreamSession(link, probe, this.catalog, { dedicated }), close: () => link.close() };
  }

  #httpLink(era: Era): HttpLink {
    if (this.target.kind !== 'http') throw new Error('not an HTTP upstream');
    const link: HttpLink = new HttpLink({
      url: this.target.url,
      label: this.label,
      headers: this.target.headers,
      era,
      timeoutMs: this.#options.timeoutMs,
      maxMessageBytes: this.#options.maxMessageBytes,
      paramHeaders: (tool) => this.catalog.paramHeaders(tool),
      refreshTools: () => this.refreshTools(link),
      ...(this.#agent === undefined ? {} : { agent: this.#agent }),
    });
    link.onLog = this.#options.log;
    return link;
  }

  /** Re-read a modern server's tool list (every page) into the catalog, as the gateway itself. */
  async refreshTools(link: UpstreamLink): Promise<void> {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const answer = await link.call({ request: { jsonrpc: '2.0', method: 'tools/list', params: { _meta: gatewayMeta(), ...(cursor === undefined ? {} : { cursor }) } } });
      if ('error' in answer) throw new Error(answer.error.message);
      if (Array.isArray(answer.result.tools)) tools.push(...(answer.result.tools as unknown[]));
      cursor = typeof answer.result.nextCursor === 'string' ? answer.result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    this.catalog.observe(tools, cursor === undefined, 'basis-hooks-gateway');
  }

  /** Close the shared connection pool. */
  destroy(): void {
    this.#agent?.destroy();
  }
}

export type { ServerExit };
