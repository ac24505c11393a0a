import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../host/contract/json.js';
import type { PostToolUseOutcome } from '../../../host/contract/outcome.js';
import { outputOf, replacedResult, resultAfterHooks } from '../../../host/integrations/mcp/tool-call.js';

/* Each row of the gateway's mapping (CLIENTS.md) on its own. */

function outcome(output: JsonValue, overrides: Partial<PostToolUseOutcome> = {}): PostToolUseOutcome {
  return { event: 'post_tool_use', tool_call_id: '1', decision: 'allow', output, is_error: false, replaced: true, trail: [], ...overrides };
}

describe('output: what post hooks see of a tool result', () => {
  it('structuredContent when present', () => {
    expect(outputOf({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } })).toEqual({ a: 1 });
  });
  it('the text when content is exactly one text item', () => {
    expect(outputOf({ content: [{ type: 'text', text: 'hello' }] })).toBe('hello');
  });
  it('the content array otherwise (several items, or one that is not text, or none)', () => {
    const two = [{ type: 'text' as const, text: 'a' }, { type: 'image' as const, data: 'AA==', mimeType: 'image/png' }];
    expect(outputOf({ content: two })).toEqual(two);
    expect(outputOf({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] })).toEqual([{ type: 'image', data: 'AA==', mimeType: 'image/png' }]);
    expect(outputOf({ content: [] })).toEqual([]);
  });
});

describe('a replaced output: what the client receives', () => {
  it('a string → one text item', () => {
    expect(replacedResult(outcome('redacted'))).toEqual({ content: [{ type: 'text', text: 'redacted' }], isError: false });
  });
  it('an object → structuredContent plus one text item holding its JSON', () => {
    expect(replacedResult(outcome({ content: '[REDACTED]' }))).toEqual({
      content: [{ type: 'text', text: '{"content":"[REDACTED]"}' }],
      structuredContent: { content: '[REDACTED]' },
      isError: false,
    });
  });
  it('an array of MCP content blocks → that content (the shape a hook was given back)', () => {
    const blocks = [{ type: 'text', text: 'a' }, { type: 'resource_link', uri: 'demo://x', name: 'x' }];
    expect(replacedResult(outcome(blocks))).toEqual({ content: blocks, isError: false });
  });
  it('any other array, a number, a boolean or null → one text item holding its JSON', () => {
    expect(replacedResult(outcome([1, 2]))).toEqual({ content: [{ type: 'text', text: '[1,2]' }], isError: false });
    expect(replacedResult(outcome([]))).toEqual({ content: [{ type: 'text', text: '[]' }], isError: false });
    expect(replacedResult(outcome([{ type: 'text' }]))).toEqual({ content: [{ type: 'text', text: '[{"type":"text"}]' }], isError: false });
    expect(replacedResult(outcome(42))).toEqual({ content: [{ type: 'text', text: '42' }], isError: false });
    expect(replacedResult(outcome(null))).toEqual({ content: [{ type: 'text', text: 'null' }], isError: false });
  });
  it('isError is the chain\'s final claim', () => {
    expect(replacedResult(outcome('x', { is_error: true })).isError).toBe(true);
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
