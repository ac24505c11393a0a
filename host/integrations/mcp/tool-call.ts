import { ContentBlockSchema, type CallToolResult, type ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonValue } from '../../contract/json.js';
import type { PostToolUseOutcome } from '../../contract/outcome.js';

/*
 * The mapping between MCP's tools/call and the basis contract (CLIENTS.md, "Mapping for the gateway").
 * Pure functions, so every row of the table is tested on its own.
 */

/**
 * The basis `output` of a tool result: `structuredContent` when present; else the text when
 * `content` is exactly one text item; else the `content` array.
 */
export function outputOf(result: CallToolResult): JsonValue {
  if (result.structuredContent !== undefined) return result.structuredContent as JsonValue;
  const [only, ...rest] = result.content;
  if (only !== undefined && rest.length === 0 && only.type === 'text') return only.text;
  return result.content as JsonValue;
}

/** The result a client receives for a call a hook refused (before it ran, or after): the reason, as a tool error. */
export function refusal(reason: string): CallToolResult {
  return { content: [{ type: 'text', text: reason }], isError: true };
}

const ContentBlocks = z.array(ContentBlockSchema).min(1);

/**
 * The result a client receives when hooks replaced a tool's output:
 *
 * - a string → one text item;
 * - an object → `structuredContent`, plus one text item holding its JSON (clients that only read
 *   `content` see the same data);
 * - an array of MCP content blocks (what `outputOf` gives a hook for a multi-item result) → `content`
 *   as is, so a hook can rewrite a mixed result and hand it back in the shape it got it;
 * - any other value (another array, a number, a boolean, null) → one text item holding its JSON.
 *
 * `isError` is the chain's final claim (the tool's own, unless a hook's replace said otherwise).
 */
export function replacedResult(outcome: PostToolUseOutcome): CallToolResult {
  const { output } = outcome;
  const isError = outcome.is_error;
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }], isError };
  if (output !== null && typeof output === 'object' && !Array.isArray(output)) {
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output, isError };
  }
  if (Array.isArray(output)) {
    const blocks = ContentBlocks.safeParse(output);
    if (blocks.success) return { content: blocks.data as ContentBlock[], isError };
  }
  return { content: [{ type: 'text', text: JSON.stringify(output) }], isError };
}

/** What the client receives once the post chain ran; `undefined` = the server's result, unchanged. */
export function resultAfterHooks(outcome: PostToolUseOutcome): CallToolResult | undefined {
  if (outcome.decision === 'deny') return refusal(typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output));
  return outcome.replaced ? replacedResult(outcome) : undefined;
}
