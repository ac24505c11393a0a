import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../host/contract/json.js';
import type { PostToolUseOutcome } from '../../../host/contract/outcome.js';
import { isErrorOf, isToolResult, outputOf, replacedResult, resultAfterHooks } from '../../../host/integrations/mcp/tool-call.js';
import { SECRET, toolResult } from '../../helpers/mcp-arbitraries.js';

/* Each rule of the gateway's result mapping (docs/mcp-gateway.md) on its own, then as properties. */

function outcome(output: JsonValue, overrides: Partial<PostToolUseOutcome> = {}): PostToolUseOutcome {
  return { event: 'post_tool_use', tool_call_id: '1', decision: 'allow', output, is_error: false, replaced: true, trail: [], ...overrides };
}

describe('output: what post hooks see of a tool result', () => {
  it('a result that is one plain text item and nothing else: that text', () => {
    expect(outputOf({ content: [{ type: 'text', text: 'hello' }] })).toBe('hello');
    expect(outputOf({ content: [{ type: 'text', text: 'hello' }], isError: true })).toBe('hello');
  });
  it('any other result: the whole result but isError — every content item and structuredContent', () => {
    const structured = { content: [{ type: 'text', text: 'benign' }], structuredContent: { a: 1 } };
    expect(outputOf({ ...structured, isError: false })).toEqual(structured);
    const two = [{ type: 'text' as const, text: 'a' }, { type: 'image' as const, data: 'AA==', mimeType: 'image/png' }];
    expect(outputOf({ content: two })).toEqual({ content: two });
    expect(outputOf({ content: [] })).toEqual({ content: [] });
  });
  it('a text item with annotations or _meta, a result with _meta or other fields: the whole result (nothing is left out)', () => {
    const annotated = { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] };
    expect(outputOf(annotated)).toEqual(annotated);
    expect(outputOf({ content: [{ type: 'text', text: 'x' }], _meta: { k: 'v' } })).toEqual({ content: [{ type: 'text', text: 'x' }], _meta: { k: 'v' } });
    expect(outputOf({ toolResult: 'old style' })).toEqual({ toolResult: 'old style' });
  });
  it('2026-07-28\'s resultType is protocol, not output', () => {
    expect(outputOf({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }] })).toBe('hi');
  });
});

describe('a replaced output: what the client receives', () => {
  it('a string → one text item (plain text stays plain text)', () => {
    expect(replacedResult('redacted', false)).toEqual({ content: [{ type: 'text', text: 'redacted' }], isError: false });
  });
  it('a whole result (content blocks) → that result, in the shape the hook was given', () => {
    const whole = { content: [{ type: 'text', text: '[REDACTED]' }], structuredContent: { content: '[REDACTED]' } };
    expect(replacedResult(whole, false)).toEqual({ ...whole, isError: false });
  });
  it('any other object → structuredContent plus one text item holding its JSON', () => {
    expect(replacedResult({ temperature: 36 }, false)).toEqual({ content: [{ type: 'text', text: '{"temperature":36}' }], structuredContent: { temperature: 36 }, isError: false });
    // content that is not a list of blocks is data, not a result
    expect(replacedResult({ content: [1, 2] }, false)).toEqual({ content: [{ type: 'text', text: '{"content":[1,2]}' }], structuredContent: { content: [1, 2] }, isError: false });
  });
  it('a whole result whose structuredContent is not an object (2025-11-25) is data; 2026-07-28 allows any JSON there', () => {
    const odd = { content: [{ type: 'text', text: '5' }], structuredContent: 5 };
    expect(replacedResult(odd, false).structuredContent).toEqual(odd);
    expect(replacedResult(odd, false, { anyStructuredContent: true })).toEqual({ ...odd, isError: false });
  });
  it('an array of MCP content blocks → that content', () => {
    const blocks = [{ type: 'text', text: 'a' }, { type: 'resource_link', uri: 'demo://x', name: 'x' }];
    expect(replacedResult(blocks, false)).toEqual({ content: blocks, isError: false });
  });
  it('any other array, a number, a boolean or null → one text item holding its JSON', () => {
    expect(replacedResult([1, 2], false)).toEqual({ content: [{ type: 'text', text: '[1,2]' }], isError: false });
    expect(replacedResult([{ type: 'text' }], false)).toEqual({ content: [{ type: 'text', text: '[{"type":"text"}]' }], isError: false });
    expect(replacedResult(42, false)).toEqual({ content: [{ type: 'text', text: '42' }], isError: false });
    expect(replacedResult(null, false)).toEqual({ content: [{ type: 'text', text: 'null' }], isError: false });
  });
  it('isError is the chain\'s final claim, whatever the replacement says', () => {
    expect(replacedResult('x', true).isError).toBe(true);
    expect(replacedResult({ content: [], isError: false }, true).isError).toBe(true);
  });
});

describe('the result after the post chain', () => {
  it('allow without a replace: the server\'s own result (undefined = unchanged)', () => {
    expect(resultAfterHooks(outcome('x', { replaced: false }))).toBeUndefined();
  });
  it('deny: the reason as a tool error', () => {
    expect(resultAfterHooks(outcome('secret found', { decision: 'deny', is_error: true }))).toEqual({ content: [{ type: 'text', text: 'secret found' }], isError: true });
  });
});

describe('the mapping as properties, over every result shape', () => {
  it('nothing is hidden from the hooks: handing back the output unchanged rebuilds exactly the server\'s result', () => {
    fc.assert(
      fc.property(toolResult, (result) => {
        expect(replacedResult(outputOf(result), isErrorOf(result))).toEqual({ ...result, isError: isErrorOf(result) });
      }),
      { numRuns: 500 },
    );
  });
  it('a redactor (a secret replaced in every string of what it was given) gets one consistent result back, in the same shape', () => {
    const redact = (value: JsonValue): JsonValue =>
      typeof value === 'string'
        ? value.replaceAll(SECRET, '[REDACTED]')
        : Array.isArray(value)
          ? value.map(redact)
          : value !== null && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]))
            : value;
    fc.assert(
      fc.property(toolResult, (result) => {
        const replaced = replacedResult(redact(outputOf(result)), isErrorOf(result));
        expect(isToolResult(replaced)).toBe(true);
        expect(JSON.stringify(replaced)).not.toContain(SECRET);
        // Same shape: the same keys, the same number and kinds of content items.
        expect(Object.keys(replaced).sort()).toEqual(Object.keys({ ...result, isError: false }).sort());
        const kinds = (r: { [key: string]: unknown }): unknown[] => (r.content as { type: string }[]).map((b) => b.type);
        expect(kinds(replaced)).toEqual(kinds(result));
      }),
      { numRuns: 500 },
    );
  });
  it('any value a hook replaces with becomes a valid tool result', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (output, isError) => {
        const replaced = replacedResult(output as JsonValue, isError);
        expect(isToolResult(replaced)).toBe(true);
        expect(replaced.isError).toBe(isError);
      }),
      { numRuns: 1000 },
    );
  });
});
