import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_LEGACY_VERSION, LEGACY_VERSIONS, META, MODERN_VERSION, MODERN_VERSIONS } from './era.js';

/*
 * The translations between eras the gateway defines (docs/mcp-gateway.md, "Both eras"): a legacy
 * client in front of a modern server, and a modern client in front of a legacy server. Pure
 * functions over JSON.
 */

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a legacy client said in `initialize`. */
export interface LegacyClient {
  readonly protocolVersion: string;
  readonly clientInfo: Json | undefined;
  readonly capabilities: Json;
}

/** Read a legacy client's `initialize` params. */
export function legacyClientOf(request: Pick<JSONRPCRequest, 'params'>): LegacyClient {
  const params = (request.params ?? {}) as Json;
  return {
    protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : LATEST_LEGACY_VERSION,
    clientInfo: isObject(params.clientInfo) ? params.clientInfo : undefined,
    capabilities: isObject(params.capabilities) ? params.capabilities : {},
  };
}

/**
 * The legacy client's capabilities as a modern server may rely on: sampling, elicitation and roots as
 * the client declared them (a modern server asks for those in an `input_required` result, which the
 * gateway puts to the client as the 2025-11-25 requests they are), without tasks (2025-11-25's are
 * not the extension).
 */
export function modernCapabilitiesOf(client: LegacyClient): Json {
  const { tasks: _tasks, ...rest } = client.capabilities;
  return rest;
}

/** A legacy client's request as a modern server needs it: `_meta` with the version, client info and capabilities. */
export function toModernRequest(request: JSONRPCRequest, client: LegacyClient, logLevel: string | undefined): JSONRPCRequest {
  const params = (request.params ?? {}) as Json;
  const meta = isObject(params._meta) ? params._meta : {};
  return {
    ...request,
    params: {
      ...params,
      _meta: {
        ...meta,
        [META.protocolVersion]: MODERN_VERSION,
        ...(client.clientInfo === undefined ? {} : { [META.clientInfo]: client.clientInfo }),
        [META.clientCapabilities]: modernCapabilitiesOf(client),
        ...(logLevel === undefined ? {} : { [META.logLevel]: logLevel }),
      },
    },
  };
}

/** The `initialize` result a legacy client gets from the gateway in front of a modern server (from its `server/discover`). */
export function initializeFromDiscover(discover: Json, client: LegacyClient): Json {
  const meta = isObject(discover._meta) ? discover._meta : {};
  const serverInfo = isObject(meta[META.serverInfo]) ? meta[META.serverInfo] : { name: 'mcp-server', version: 'unknown' };
  const capabilities = isObject(discover.capabilities) ? { ...discover.capabilities } : {};
  // Extensions are negotiated per request in 2026-07-28; a legacy client cannot use them.
  delete capabilities.extensions;
  return {
    protocolVersion: LEGACY_VERSIONS.includes(client.protocolVersion) ? client.protocolVersion : LATEST_LEGACY_VERSION,
    capabilities,
    serverInfo,
    ...(typeof discover.instructions === 'string' ? { instructions: discover.instructions } : {}),
  };
}

/** The `server/discover` result a modern client gets from the gateway in front of a legacy server (from the gateway's own `initialize`). */
export function discoverFromInitialize(initialize: Json): Json {
  const capabilities = isObject(initialize.capabilities) ? { ...initialize.capabilities } : {};
  // 2025-11-25's tasks and logging/setLevel are not 2026-07-28's: not offered to a modern client.
  delete capabilities.tasks;
  return {
    resultType: 'complete',
    supportedVersions: [...MODERN_VERSIONS],
    capabilities,
    ...(typeof initialize.instructions === 'string' ? { instructions: initialize.instructions } : {}),
    _meta: { [META.serverInfo]: isObject(initialize.serverInfo) ? initialize.serverInfo : { name: 'mcp-server', version: 'unknown' } },
    ttlMs: 0,
    cacheScope: 'private',
  };
}

/** Methods the gateway answers or refuses itself, per translation, instead of forwarding. */
export const NOT_TRANSLATED = {
  /** A legacy client's methods a modern server has no counterpart for. */
  toModern: new Set(['resources/subscribe', 'resources/unsubscribe', 'tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']),
  /** A modern client's methods a legacy server has no counterpart for. */
  toLegacy: new Set(['subscriptions/listen', 'tasks/update', 'tasks/get', 'tasks/cancel']),
  /**
   * 2025-11-25 methods a modern client has no business sending, whatever the server speaks —
   * `tasks/result` carries a tool's result, and only the tasks extension's `tasks/get` (on a handle
   * the gateway sealed) is let through the post chain.
   */
  fromModern: new Set(['initialize', 'tasks/result', 'tasks/list']),
} as const;
