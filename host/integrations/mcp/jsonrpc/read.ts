import {
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  RequestIdSchema,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { RpcCode } from './errors.js';
import { fastKind } from './fast-read.js';

/** A response from the other side: a result or an error. */
export type JSONRPCAnswer = JSONRPCResultResponse | JSONRPCErrorResponse;

/**
 * One message as the gateway reads it. Valid messages keep the JSON exactly as it arrived (checked
 * against the SDK's schemas, never replaced by their parse, which drops fields it does not know):
 * what is forwarded is what was sent, and what a hook sees is what the other side would have seen.
 */
export type Incoming =
  | { readonly kind: 'request'; readonly message: JSONRPCRequest }
  | { readonly kind: 'notification'; readonly message: JSONRPCNotification }
  | { readonly kind: 'answer'; readonly message: JSONRPCAnswer }
  /**
   * Not a JSON-RPC message. `answer` is how to reply (JSON-RPC: a parse error or an invalid request
   * gets an error response; the id when it could be read, else null) — `undefined` when the thing
   * looked like a response, which is never answered.
   */
  | { readonly kind: 'invalid'; readonly reason: string; readonly answer?: { readonly id: RequestId | null; readonly code: RpcCode } };

/** Read one JSON text (a stdio line, an HTTP body). */
export function readText(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: `not JSON (${(error as Error).message})`, answer: { id: null, code: RpcCode.ParseError } };
  }
  return readValue(value);
}

/** Read one parsed JSON value. */
export function readValue(value: unknown): Incoming {
  if (Array.isArray(value)) {
    // JSON-RPC batches were removed from MCP in 2025-06-18; no version the gateway speaks has them.
    return { kind: 'invalid', reason: 'a JSON-RPC batch (MCP has no batches since 2025-06-18: send one message at a time)', answer: { id: null, code: RpcCode.InvalidRequest } };
  }
  if (value === null || typeof value !== 'object') {
    return { kind: 'invalid', reason: 'not a JSON object', answer: { id: null, code: RpcCode.InvalidRequest } };
  }
  const object = value as Record<string, unknown>;
  // The common, certainly valid shapes skip the schemas (a test holds the two to agreeing).
  const fast = fastKind(object);
  if (fast !== undefined) return { kind: fast, message: object } as Incoming;
  if ('method' in object) {
    if ('id' in object) {
      if (JSONRPCRequestSchema.safeParse(object).success) return { kind: 'request', message: object as JSONRPCRequest };
      const id = RequestIdSchema.safeParse(object.id);
      return { kind: 'invalid', reason: 'an invalid JSON-RPC request', answer: { id: id.success ? id.data : null, code: RpcCode.InvalidRequest } };
    }
    if (JSONRPCNotificationSchema.safeParse(object).success) return { kind: 'notification', message: object as unknown as JSONRPCNotification };
    // A malformed notification has no id to answer, and JSON-RPC never answers a notification.
    return { kind: 'invalid', reason: 'an invalid JSON-RPC notification' };
  }
  if (JSONRPCResultResponseSchema.safeParse(object).success || JSONRPCErrorResponseSchema.safeParse(object).success) {
    return { kind: 'answer', message: object as unknown as JSONRPCAnswer };
  }
  return { kind: 'invalid', reason: 'neither a JSON-RPC request, notification nor response' };
}
