import { ErrorCode, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * JSON-RPC error codes the gateway answers with. The standard ones, the SDK's `-32000`/`-32001`
 * (connection closed, request timeout: what the SDK client itself raises for those), and the MCP
 * 2026-07-28 codes from the reserved range.
 */
export const RpcCode = {
  ParseError: ErrorCode.ParseError,
  InvalidRequest: ErrorCode.InvalidRequest,
  MethodNotFound: ErrorCode.MethodNotFound,
  InvalidParams: ErrorCode.InvalidParams,
  InternalError: ErrorCode.InternalError,
  ConnectionClosed: ErrorCode.ConnectionClosed,
  RequestTimeout: ErrorCode.RequestTimeout,
  /** MCP 2026-07-28: the HTTP headers do not match the body. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: a capability the request needs was not declared. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the requested protocol version is not supported. */
  UnsupportedProtocolVersion: -32022,
} as const;
export type RpcCode = (typeof RpcCode)[keyof typeof RpcCode];

/** The body of a JSON-RPC error. */
export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A JSON-RPC error response; `id` null when the request's id could not be read. */
export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JSONRPCErrorResponse {
  const error = data === undefined ? { code, message } : { code, message, data };
  // The SDK's type has no `null` id, JSON-RPC has: an answer to a message whose id could not be read.
  return { jsonrpc: '2.0', id: id as RequestId, error };
}
