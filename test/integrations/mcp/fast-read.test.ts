import fc from 'fast-check';
import { JSONRPCErrorResponseSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema, JSONRPCResultResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { fastKind, plainToolCallParams } from '../../../host/integrations/mcp/jsonrpc/fast-read.js';
import { CallToolRequestParamsSchema } from '@modelcontextprotocol/sdk/types.js';

/* The fast path in front of the SDK's schemas never accepts what they refuse, nor calls it another kind. */

const id = fc.oneof({ weight: 6, arbitrary: fc.integer() }, { weight: 6, arbitrary: fc.string({ maxLength: 4 }) }, fc.double(), fc.constant(null), fc.constant(Number.MAX_SAFE_INTEGER + 2), fc.boolean());
const meta = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom('progressToken', 'io.modelcontextprotocol/related-task', 'other', 'io.modelcontextprotocol/protocolVersion'), fc.oneof(id, fc.record({ taskId: fc.oneof(fc.string(), fc.integer()) }), fc.jsonValue({ maxDepth: 1 }))),
  fc.jsonValue({ maxDepth: 1 }),
);
const params = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, fc.constant(null), fc.jsonValue({ maxDepth: 1 }), { weight: 6, arbitrary: meta.map((m) => (m === undefined ? { name: 'x' } : { name: 'x', _meta: m })) });
const jsonrpc = fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', 2) });
const extra = fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) });
const withExtra = <T extends object>(value: T, more: unknown): T => (more === undefined ? value : { ...value, extra: more });
const request = fc.tuple(jsonrpc, id, fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), params, extra).map(([j, i, m, p, e]) => withExtra({ jsonrpc: j, id: i, method: m, ...(p === undefined ? {} : { params: p }) }, e));
const notification = fc.tuple(jsonrpc, fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), params, extra).map(([j, m, p, e]) => withExtra({ jsonrpc: j, method: m, ...(p === undefined ? {} : { params: p }) }, e));
const result = fc.tuple(jsonrpc, id, fc.oneof(fc.jsonValue({ maxDepth: 2 }), meta.map((m) => (m === undefined ? { content: [] } : { content: [], _meta: m }))), extra).map(([j, i, r, e]) => withExtra({ jsonrpc: j, id: i, result: r }, e));
const error = fc
  .tuple(jsonrpc, fc.option(id, { nil: undefined }), fc.oneof(fc.record({ code: fc.oneof(fc.integer(), fc.double(), fc.string()), message: fc.oneof(fc.string(), fc.integer()), data: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 1 })), extra)
  .map(([j, i, err, e]) => withExtra({ jsonrpc: j, ...(i === undefined ? {} : { id: i }), error: err }, e));
const message = fc.oneof(request, notification, result, error, fc.jsonValue({ maxDepth: 2 }));

function schemaKind(value: unknown): string | undefined {
  if (JSONRPCRequestSchema.safeParse(value).success) return 'request';
  if (JSONRPCNotificationSchema.safeParse(value).success) return 'notification';
  if (JSONRPCResultResponseSchema.safeParse(value).success || JSONRPCErrorResponseSchema.safeParse(value).success) return 'answer';
  return undefined;
}

describe('the fast path of readValue', () => {
  it('accepts only what the SDK schemas accept, as the same kind (20,000 generated messages)', () => {
    let decided = 0;
    fc.assert(
      fc.property(message, (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
        const fast = fastKind(value as { [key: string]: unknown });
        if (fast === undefined) return;
        decided++;
        expect(schemaKind(value)).toBe(fast);
      }),
      { numRuns: 20_000 },
    );
    expect(decided).toBeGreaterThan(2000); // it does decide, not only abstain
  });

  it('decides the messages that make up the traffic', () => {
    expect(fastKind({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: { progressToken: 3 } } })).toBe('request');
    expect(fastKind({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'a', progress: 1 } })).toBe('notification');
    expect(fastKind({ jsonrpc: '2.0', id: 'x', result: { content: [{ type: 'text', text: 'hi' }] } })).toBe('answer');
    expect(fastKind({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } })).toBe('answer');
  });

  it('takes as plain tools/call params only what the SDK schema accepts', () => {
    const callParams = fc.record({ name: fc.oneof(fc.string(), fc.integer()), arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })), fc.jsonValue({ maxDepth: 1 })), _meta: fc.record({ progressToken: fc.oneof(fc.integer(), fc.string()) }), task: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] });
    let plain = 0;
    fc.assert(
      fc.property(callParams, (params) => {
        if (!plainToolCallParams(params as { [key: string]: unknown })) return;
        plain++;
        expect(CallToolRequestParamsSchema.safeParse(params).success).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(plain).toBeGreaterThan(200);
  });
});
