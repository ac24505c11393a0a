import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { RpcCode, type RpcErrorBody } from './jsonrpc/errors.js';

/*
 * MCP's two eras (the specification's own terms, 2026-07-28 basic/versioning):
 * - legacy: versions that open a session with `initialize` (2025-11-25 and earlier);
 * - modern: versions where every request carries its version, client info and capabilities in
 *   `_meta`, with no session (2026-07-28).
 */

/** The modern version the gateway speaks. */
export const MODERN_VERSION = '2026-07-28' as const;
/** Modern versions the gateway speaks. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_VERSION];
/** Legacy versions the gateway speaks (the SDK's). */
export const LEGACY_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
/** The newest legacy version (what the gateway negotiates with a legacy server it opens a session with). */
export const LATEST_LEGACY_VERSION = LEGACY_VERSIONS[0] as string;

export type Era = 'legacy' | 'modern';

/** The reserved `_meta` keys of 2026-07-28. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A request's `params._meta`, when it is an object. */
export function metaOf(request: Pick<JSONRPCRequest, 'params'>): Json | undefined {
  const meta = (request.params as Json | undefined)?._meta;
  return isObject(meta) ? meta : undefined;
}

/** The protocol version a request declares in `_meta` (modern), or `undefined` (legacy requests declare none). */
export function declaredVersion(request: Pick<JSONRPCRequest, 'params'>): string | undefined {
  const version = metaOf(request)?.[META.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/** The client's name from a request's `_meta` client info (modern), or `undefined`. */
export function metaClientName(request: Pick<JSONRPCRequest, 'params'>): string | undefined {
  const info = metaOf(request)?.[META.clientInfo];
  const name = isObject(info) ? info.name : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * What is wrong with a modern request's `_meta`, or `undefined`: the version must be one the gateway
 * speaks (else the spec's `UnsupportedProtocolVersionError`, -32022, listing what it supports), and
 * client capabilities are required (else `-32602`).
 */
export function checkModernMeta(request: Pick<JSONRPCRequest, 'params'>, supported: readonly string[] = MODERN_VERSIONS): RpcErrorBody | undefined {
  const version = declaredVersion(request);
  if (version === undefined) return { code: RpcCode.InvalidParams, message: `basis-hooks: the request has no _meta["${META.protocolVersion}"]` };
  if (!supported.includes(version)) return unsupportedVersion(version, [...supported, ...LEGACY_VERSIONS]);
  if (!isObject(metaOf(request)?.[META.clientCapabilities])) {
    return { code: RpcCode.InvalidParams, message: `basis-hooks: the request has no _meta["${META.clientCapabilities}"] (required in ${version})` };
  }
  return undefined;
}

/** The specification's `UnsupportedProtocolVersionError` (-32022). */
export function unsupportedVersion(requested: string, supported: readonly string[]): RpcErrorBody {
  return {
    code: RpcCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version: ${requested} (basis-hooks gateway supports ${supported.join(', ')})`,
    data: { supported: [...new Set(supported)], requested },
  };
}

/** Methods whose 2026-07-28 results are cacheable (`ttlMs`, `cacheScope` required). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/read', 'resources/templates/list', 'server/discover']);

/**
 * A legacy server's result as a modern client needs it: `resultType: "complete"` (a legacy server
 * never sends another), and for the cacheable methods `ttlMs` and `cacheScope` — `ttlMs: 0` (the
 * gateway cannot know how long it stays fresh) and `private` (it cannot know it is not per-user).
 */
export function modernResult(method: string, result: Json): Json {
  const out: Json = { ...result, resultType: typeof result.resultType === 'string' ? result.resultType : 'complete' };
  if (CACHEABLE_METHODS.has(method)) {
    if (typeof out.ttlMs !== 'number') out.ttlMs = 0;
    if (out.cacheScope !== 'public' && out.cacheScope !== 'private') out.cacheScope = 'private';
  }
  return out;
}

/** The `resultType` of a result (absent: `complete`, as the specification tells clients to read it). */
export function resultTypeOf(result: Json): string {
  return typeof result.resultType === 'string' ? result.resultType : 'complete';
}
