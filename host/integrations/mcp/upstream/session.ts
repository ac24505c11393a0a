import { LATEST_LEGACY_VERSION, type Era } from '../era.js';
import type { ToolCatalog } from '../tool-catalog.js';
import { UpstreamError, type UpstreamLink } from './link.js';
import { GATEWAY_CLIENT_INFO, type ProbeResult } from './probe.js';

type Json = { [key: string]: unknown };

/**
 * One connection to the server with what the gateway knows about it: its era (probed), its
 * `server/discover` result (modern), the tools it listed (the catalog), and — when modern clients are
 * served by a legacy server — the gateway's own `initialize`d session on it.
 */
export class UpstreamSession {
  readonly link: UpstreamLink;
  readonly era: Era;
  readonly catalog: ToolCatalog;
  /** Whether the client's own `initialize` reaches the server (a legacy client's dedicated connection). */
  readonly dedicated: boolean;
  readonly #discover: Json | undefined;
  #own: Promise<Json> | undefined;
  /** The `initialize` result of whoever opened the session on this connection (a client, or the gateway). */
  #opened: Json | undefined;

  constructor(link: UpstreamLink, probe: ProbeResult, catalog: ToolCatalog, options: { dedicated: boolean }) {
    this.link = link;
    this.era = probe.era;
    this.#discover = probe.era === 'modern' ? probe.discover : undefined;
    this.catalog = catalog;
    this.dedicated = options.dedicated;
  }

  /** A modern server's `server/discover` result (from the probe). */
  get discover(): Json {
    return this.#discover ?? {};
  }

  /**
   * A legacy server, spoken to on behalf of modern clients: the gateway's own session, opened once
   * (`initialize` as `basis-hooks-gateway` declaring no client capabilities — so the server never
   * asks the client for sampling, elicitation or roots, which a modern client cannot be asked over
   * this connection — then `notifications/initialized`). Resolves with the server's `initialize` result.
   */
  gatewaySession(): Promise<Json> {
    if (this.#opened !== undefined) return Promise.resolve(this.#opened);
    this.#own ??= (async () => {
      const answer = await this.link.call({
        request: { jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: LATEST_LEGACY_VERSION, capabilities: {}, clientInfo: GATEWAY_CLIENT_INFO } },
      });
      if ('error' in answer) {
        this.#own = undefined;
        throw new UpstreamError('bad_answer', `${this.link.label} refused the gateway's initialize: ${answer.error.message}`);
      }
      await this.link.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      this.#opened = answer.result;
      return answer.result;
    })();
    return this.#own;
  }

  /** A client's own `initialize` went through and the server accepted it. */
  clientOpened(result: Json): void {
    this.#opened ??= result;
  }

  /** Whether a session is open on this connection (by a client or by the gateway), or being opened by the gateway. */
  get opened(): boolean {
    return this.#opened !== undefined || this.#own !== undefined;
  }
}
