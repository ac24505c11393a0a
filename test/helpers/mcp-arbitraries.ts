/**
 * fast-check arbitraries for MCP tool results: every kind of content block (with and without
 * annotations and `_meta`), `structuredContent`, a result-level `_meta`, extra fields a server may
 * add — the input space of "what a server can answer a tools/call with".
 */
import fc from 'fast-check';

const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<unknown>;
const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 });
const base64 = fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('base64'));
const annotations = fc.record({ audience: fc.constantFrom(['user'], ['assistant'], ['user', 'assistant']), priority: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: [] });

/** Optional keys every block may carry. */
function withExtras<T extends object>(block: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.tuple(block, fc.option(annotations, { nil: undefined }), fc.option(jsonObject, { nil: undefined })).map(([b, a, m]) => ({
    ...b,
    ...(a === undefined ? {} : { annotations: a }),
    ...(m === undefined ? {} : { _meta: m }),
  }));
}

/** A text that may hold a secret the redactor knows (a GitHub token). */
export const SECRET = `ghp_${'Z9y8X7w6V5'.repeat(3)}abcdef`;
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ maxLength: 10 }).map((s) => `${s} ${SECRET} ${s}`));

export const textBlock = withExtras(fc.record({ type: fc.constant('text' as const), text }));
export const contentBlock = fc.oneof(
  textBlock,
  withExtras(fc.record({ type: fc.constant('image' as const), data: base64, mimeType: fc.constantFrom('image/png', 'image/jpeg') })),
  withExtras(fc.record({ type: fc.constant('audio' as const), data: base64, mimeType: fc.constant('audio/wav') })),
  withExtras(fc.record({ type: fc.constant('resource_link' as const), uri: fc.constantFrom('file:///a.txt', 'demo://x'), name: fc.string({ minLength: 1, maxLength: 8 }) })),
  withExtras(
    fc.record({
      type: fc.constant('resource' as const),
      resource: fc.oneof(fc.record({ uri: fc.constant('file:///r.txt'), text }), fc.record({ uri: fc.constant('file:///r.bin'), blob: base64 })),
    }),
  ),
);

/** A valid `tools/call` result (2025-11-25 shapes). */
export const toolResult = fc
  .record(
    {
      content: fc.array(contentBlock, { maxLength: 4 }),
      structuredContent: jsonObject,
      isError: fc.boolean(),
      _meta: jsonObject,
      // A field no schema knows: a server may send it, and a client app may show it.
      note: text,
    },
    { requiredKeys: ['content'] },
  )
  .map((r) => r as { [key: string]: unknown });
