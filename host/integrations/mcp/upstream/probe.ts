import { RpcCode } from '../jsonrpc/errors.js';
import { META, MODERN_VERSION, type Era } from '../era.js';
import { isUpstreamError, UpstreamError, type UpstreamLink } from './link.js';

/** What the gateway says about itself when it speaks to a server as a client. */
export const GATEWAY_CLIENT_INFO = { name: 'basis-hooks-gateway', version: '1' } as const;

/** The `_meta` of a request the gateway itself sends to a modern server. */
export function gatewayMeta(): { [key: string]: unknown } {
  return { [META.protocolVersion]: MODERN_VERSION, [META.clientInfo]: GATEWAY_CLIENT_INFO, [META.clientCapabilities]: {} };
}

/** How long a server may take to answer the probe before it is taken for a legacy one (the spec: "a reasonable timeout"). */
export const PROBE_TIMEOUT_MS = 5000;

/** What the probe learned. */
export type ProbeResult = { readonly era: 'modern'; readonly discover: { readonly [key: string]: unknown } } | { readonly era: 'legacy' };

/**
 * Which era a server speaks, found the way the specification tells dual-era clients to
 * (basic/versioning, "Backward Compatibility"): send `server/discover` with a modern `_meta`. A
 * `DiscoverResult` listing 2026-07-28 → modern. A recognised modern error — the server is modern but
 * does not speak 2026-07-28 — rejects (the gateway cannot speak to it). Anything else (another
 * error, an HTTP error without a modern body, silence) → legacy.
 */
export async function probeEra(link: UpstreamLink, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  let answer;
  try {
    answer = await link.call({ request: { jsonrpc: '2.0', method: 'server/discover', params: { _meta: gatewayMeta() } }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (isUpstreamError(error) && (error.code === 'closed' || error.code === 'unreachable')) throw error;
    return { era: 'legacy' };
  }
  if ('result' in answer) {
    const versions = answer.result.supportedVersions;
    if (Array.isArray(versions) && versions.includes(MODERN_VERSION)) return { era: 'modern', discover: answer.result };
    if (Array.isArray(versions)) throw new UpstreamError('bad_answer', `${link.label} speaks MCP ${versions.join(', ')}; the gateway speaks ${MODERN_VERSION} and 2025-11-25`);
    return { era: 'legacy' };
  }
  if (answer.error.code === RpcCode.UnsupportedProtocolVersion) {
    const supported = (answer.error.data as { supported?: unknown } | undefined)?.supported;
    throw new UpstreamError('bad_answer', `${link.label} does not speak ${MODERN_VERSION} (it supports ${JSON.stringify(supported)}); the gateway cannot translate to that version`);
  }
  return { era: 'legacy' };
}
