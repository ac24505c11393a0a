import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../host/integrations/mcp/upstream/sse.js';

/* The SSE parser the HTTP link reads answers with: any split of the bytes, any line ending. */

function parse(chunks: readonly string[], max = 1 << 20): { data: string[]; oversized: number[] } {
  const data: string[] = [];
  const oversized: number[] = [];
  const parser = new SseParser(max, (d) => data.push(d), (n) => oversized.push(n));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { data, oversized };
}

describe('SseParser', () => {
  it('reads events whatever the line endings and however the stream is cut', () => {
    const payloads = fc.array(fc.string({ maxLength: 30 }).filter((s) => !/[\r\n]/.test(s)), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(payloads, fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(), { maxLength: 6 }), (events, eol, cuts) => {
        const text = events.map((e) => `: comment${eol}event: message${eol}id: 7${eol}data: ${e}${eol}${eol}`).join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let last = 0;
        for (const p of points) {
          chunks.push(text.slice(last, p));
          last = p;
        }
        chunks.push(text.slice(last));
        expect(parse(chunks).data).toEqual(events);
      }),
      { numRuns: 500 },
    );
  });

  it('joins multi-line data with \\n, and skips an event over the cap (reporting its size)', () => {
    expect(parse(['data: a\ndata: b\n\n']).data).toEqual(['a\nb']);
    const big = parse([`data: ${'x'.repeat(100)}\n\ndata: ok\n\n`], 50);
    expect(big.data).toEqual(['ok']);
    expect(big.oversized).toHaveLength(1);
  });
});
