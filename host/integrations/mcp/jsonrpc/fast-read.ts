/*
 * A fast path in front of the SDK's zod schemas for the messages that make up nearly all traffic.
 * It answers only when it is sure — a shape the schemas accept for certain — and says `undefined`
 * otherwise, leaving the decision to the schemas. A property test (test/integrations/mcp/fast-read
 * .test.ts) holds it to that: whatever it accepts, the schemas accept as the same kind.
 */

type Json = { readonly [key: string]: unknown };
const isPlainObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** z.number().int() of zod 4: a safe integer. */
const isInt = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value);
const isId = (value: unknown): boolean => typeof value === 'string' || isInt(value);

/** The SDK's RequestMetaSchema: a loose object whose progressToken and related-task, when present, are well typed. */
function isMeta(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const token = value.progressToken;
  if (token !== undefined && !isId(token)) return false;
  const related = value['io.modelcontextprotocol/related-task'];
  if (related !== undefined && !(isPlainObject(related) && typeof related.taskId === 'string')) return false;
  return true;
}

/** Params of a request or notification: absent, or an object whose `_meta` (if any) is well formed. */
function isParams(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainObject(value)) return false;
  return value._meta === undefined || isMeta(value._meta);
}

/** Every key of `value` is one of `allowed` (the schemas are strict at the top level). */
function onlyKeys(value: Json, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);

/** The kind of a message the schemas certainly accept, or `undefined` (then the schemas decide). */
export function fastKind(value: Json): 'request' | 'notification' | 'answer' | undefined {
  if (value.jsonrpc !== '2.0') return undefined;
  if (typeof value.method === 'string') {
    if (!isParams(value.params)) return undefined;
    if ('id' in value) return isId(value.id) && onlyKeys(value, REQUEST_KEYS) ? 'request' : undefined;
    return onlyKeys(value, NOTIFICATION_KEYS) ? 'notification' : undefined;
  }
  if ('result' in value) {
    const result = value.result;
    if (!isId(value.id) || !isPlainObject(result) || !onlyKeys(value, RESULT_KEYS)) return undefined;
    return result._meta === undefined || isMeta(result._meta) ? 'answer' : undefined;
  }
  if ('error' in value) {
    const error = value.error;
    if ((value.id !== undefined && !isId(value.id)) || !isPlainObject(error) || !onlyKeys(value, ERROR_KEYS)) return undefined;
    return isInt(error.code) && typeof error.message === 'string' ? 'answer' : undefined;
  }
  return undefined;
}

/**
 * The common `tools/call` params the SDK's schema certainly accepts — a string name, object
 * arguments, nothing else but a `_meta` (checked with the message that carried it) — so the schema
 * is not run on them; anything else is left to it.
 */
export function plainToolCallParams(params: Json | undefined): params is Json {
  if (params === undefined || typeof params.name !== 'string') return false;
  for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return false;
  return params.arguments === undefined || isPlainObject(params.arguments);
}
