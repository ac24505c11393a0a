import { ContentBlockSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { JsonValue } from '../../contract/json.js';
import type { PostToolUseOutcome } from '../../contract/outcome.js';

/*
 * The mapping between an MCP tool result and the basis contract's `output` (docs/mcp-gateway.md,
 * "How a call maps onto the contract"). Pure functions, so every rule is tested on its own.
 *
 * The rule that matters: the hooks see the whole result the client will receive, and the client
 * receives exactly what the hooks saw — or what they replaced it with. Nothing the server sent is
 * kept back from the hooks and then relayed.
 */

/** A `tools/call` result as JSON, exactly as the server sent it. */
export type ToolResult = { readonly [key: string]: unknown };

/**
 * Fields of a result that are protocol, not tool output: `isError` (the hooks get it as `is_error`)
 * and 2026-07-28's `resultType` (always `complete` for a result the hooks see).
 */
const PROTOCOL_FIELDS: ReadonlySet<string> = new Set(['isError', 'resultType']);

/** The result without its protocol fields: everything the model (or the client app) can read. */
function readable(result: ToolResult): { [key: string]: unknown } {
  const rest: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(result)) if (!PROTOCOL_FIELDS.has(key)) rest[key] = value;
  return rest;
}

const isObject = (value: unknown): value is { [key: string]: unknown } => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The text of a result that is one text item and nothing else — `{"content":[{"type":"text","text":…}]}`,
 * no annotations, no `_meta`, no `structuredContent` — or `undefined`.
 */
function plainText(rest: { [key: string]: unknown }): string | undefined {
  const keys = Object.keys(rest);
  if (keys.length !== 1 || keys[0] !== 'content') return undefined;
  const content = rest.content;
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const [item] = content as unknown[];
  if (!isObject(item) || item.type !== 'text' || typeof item.text !== 'string' || Object.keys(item).length !== 2) return undefined;
  return item.text;
}

/**
 * The basis `output` of a tool result: the whole result the client will receive, minus `isError`
 * (that is `is_error`) and `resultType`:
 *
 * - a result that is one plain text item and nothing else → that text, a string (the common case,
 *   and what a text redactor expects);
 * - anything else → the result object itself: every content item (text, images, audio, resource
 *   links, embedded resources, with their annotations and `_meta`), `structuredContent`, the
 *   result's `_meta`, and any other field the server put there.
 *
 * @example
 * outputOf({ content: [{ type: 'text', text: 'hi' }] }) // 'hi'
 * outputOf({ content: [{ type: 'text', text: '{"t":36}' }], structuredContent: { t: 36 } })
 * // { content: [{ type: 'text', text: '{"t":36}' }], structuredContent: { t: 36 } }
 */
export function outputOf(result: ToolResult): JsonValue {
  const rest = readable(result);
  return (plainText(rest) ?? rest) as JsonValue;
}

/** The basis `is_error` of a tool result: `isError ?? false`. */
export function isErrorOf(result: ToolResult): boolean {
  return result.isError === true;
}

/** The result a client receives for a call a hook refused (before it ran, or after): the reason, as a tool error. */
export function refusal(reason: string): CallToolResult {
  return { content: [{ type: 'text', text: reason }], isError: true };
}

const ContentBlocks = z.array(ContentBlockSchema);

/** Whether `value` is a list of valid MCP content blocks (checked only: the blocks are kept as given). */
function isContentBlocks(value: unknown): value is unknown[] {
  return Array.isArray(value) && ContentBlocks.safeParse(value).success;
}

/** Options of {@link replacedResult}. */
export interface ResultShapeOptions {
  /**
   * Whether `structuredContent` may be any JSON value (2026-07-28) rather than only an object
   * (2025-11-25 and earlier). Default false.
   */
  readonly anyStructuredContent?: boolean;
}

/**
 * Whether `value` reads as a whole tool result: an object whose `content` is a list of valid content
 * blocks (and whose `structuredContent`, when present, is what the protocol version allows). This is
 * the shape {@link outputOf} gives a hook for every result that is not plain text, so a hook that
 * rewrites some strings in it and hands it back gets that result, in that shape.
 */
function isWholeResult(value: { [key: string]: unknown }, options: ResultShapeOptions): boolean {
  if (!isContentBlocks(value.content)) return false;
  if ('structuredContent' in value && !options.anyStructuredContent && !isObject(value.structuredContent)) return false;
  return true;
}

/**
 * The result a client receives when hooks replaced a tool's output — one consistent result:
 *
 * - a string → one text item (plain text stays plain text);
 * - a whole result (an object whose `content` is a list of content blocks: the shape {@link outputOf}
 *   gives for every other result) → that result, every field as the hook left it;
 * - any other object → `structuredContent`, plus one text item holding its JSON (clients that only
 *   read `content` see the same data);
 * - a list of content blocks → that `content`;
 * - any other value (another array, a number, a boolean, null) → one text item holding its JSON.
 *
 * `isError` is the chain's final claim (the tool's own, unless a hook's replace said otherwise).
 */
export function replacedResult(output: JsonValue, isError: boolean, options: ResultShapeOptions = {}): ToolResult {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }], isError };
  if (isObject(output)) {
    if (isWholeResult(output, options)) return { ...readable(output), isError };
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output, isError };
  }
  if (isContentBlocks(output)) return { content: output, isError };
  return { content: [{ type: 'text', text: JSON.stringify(output) }], isError };
}

/**
 * What the client receives once the post chain ran: `undefined` means the server's own result,
 * unchanged — which is exactly what the hooks saw ({@link outputOf} hides nothing but `isError`).
 */
export function resultAfterHooks(outcome: PostToolUseOutcome, options: ResultShapeOptions = {}): ToolResult | undefined {
  if (outcome.decision === 'deny') return refusal(typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output));
  return outcome.replaced ? replacedResult(outcome.output, outcome.is_error, options) : undefined;
}

/**
 * Whether a server's answer to a tool call can be read as a tool result at all: an object whose
 * `content`, when present, is a list of content blocks, whose `structuredContent` is what the
 * protocol version allows and whose `isError` is a boolean. What is not is withheld when post hooks
 * apply (fail closed): the hooks could not say what the client would make of it.
 */
export function isToolResult(value: unknown, options: ResultShapeOptions = {}): value is ToolResult {
  if (!isObject(value)) return false;
  if ('content' in value && !isContentBlocks(value.content)) return false;
  if ('structuredContent' in value && !options.anyStructuredContent && !isObject(value.structuredContent)) return false;
  if ('isError' in value && typeof value.isError !== 'boolean') return false;
  return true;
}
