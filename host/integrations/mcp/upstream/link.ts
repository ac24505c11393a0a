import type { JSONRPCNotification, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { RpcErrorBody } from '../jsonrpc/errors.js';

/** The server's answer to one request: its result, or its JSON-RPC error. */
export type Answer = { readonly result: { readonly [key: string]: unknown } } | { readonly error: RpcErrorBody };

/** A message the server sent about one request, before answering it (progress, logs, its own requests). */
export type Related = JSONRPCNotification | JSONRPCRequest;

/** One request sent to the server. */
export interface UpstreamCall {
  /** The request; its `id` is ignored (the link sends it under an id of its own). */
  readonly request: Omit<JSONRPCRequest, 'id'> & { readonly id?: RequestId };
  /**
   * Aborted when the client gave up (cancelled, disconnected): the link tells the server (the way
   * its protocol says) and the call rejects with `cancelled`.
   */
  readonly signal?: AbortSignal;
  /** Messages the server sent about this request before answering (progress, with the client's own token back). */
  readonly onRelated?: (message: Related) => void;
  /** HTTP only: request headers beyond the transport's own (2026-07-28's mirrored `Mcp-*` headers). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Why a call to the server got no answer. Closed: the relay maps each to a JSON-RPC error. */
export type UpstreamErrorCode =
  /** The server went away (exited, closed the connection) before answering. */
  | 'closed'
  /** It did not answer within the link's timeout. */
  | 'timeout'
  /** The client gave up on the call. */
  | 'cancelled'
  /** It could not be reached (connection refused, DNS, TLS) or the request could not be written. */
  | 'unreachable'
  /** It answered with something that is not an answer (an HTTP error without a JSON-RPC body, an oversized or unreadable answer). */
  | 'bad_answer';

/** A call to the server that got no answer; `message` says why in words a client can be shown. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError' as const;
  readonly code: UpstreamErrorCode;
  /** HTTP only: the status the server answered with. */
  readonly status: number | undefined;

  constructor(code: UpstreamErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

/** True when `value` is an {@link UpstreamError} (by name, so it works across realms). */
export function isUpstreamError(value: unknown): value is UpstreamError {
  return value instanceof Error && value.name === 'UpstreamError' && typeof (value as { code?: unknown }).code === 'string';
}

/**
 * One connection to the MCP server, as the relay uses it. The link owns its id space: every request
 * goes out under an id the link chose, and an answer is matched only to a request still waiting
 * under that id — an answer for anything else is dropped and logged, never relayed.
 */
export interface UpstreamLink {
  /** What it connects to, for messages (`the MCP server "node server.js"`). */
  readonly label: string;
  /** Send a request and wait for its answer. Rejects with an {@link UpstreamError} when there is none. */
  call(call: UpstreamCall): Promise<Answer>;
  /** Send a notification. */
  notify(message: JSONRPCNotification): Promise<void>;
  /** Answer a request the server sent (under the id the server gave it). */
  answer(id: RequestId, answer: Answer): Promise<void>;
  /** Requests and notifications the server sent that belong to no call of ours. */
  onServerMessage: ((message: Related) => void) | undefined;
  /** Diagnostics: something was dropped, and why. */
  onLog: ((line: string) => void) | undefined;
}
