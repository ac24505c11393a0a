import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../host/contract/json.js';
import { CLIENT_NOTIFICATIONS, REQUEST_METHODS } from '../../../host/integrations/mcp/jsonrpc/methods.js';
import { replacedResult } from '../../../host/integrations/mcp/tool-call.js';
import { SECRET, toolResult } from '../../helpers/mcp-arbitraries.js';
import { handshake, rawGateway, serverReceived, type Json, type RawGateway } from '../../helpers/mcp-library.js';

/*
 * The gateway's guarantees as properties, over large input spaces, with the real gateway (library
 * API), real framing and the hostile server of test/fixtures/mcp/hostile-server.mjs; hooks are
 * in-process so thousands of calls stay fast. Each property is one class of attack from issue 20.
 */

const redact = (value: JsonValue): JsonValue =>
  typeof value === 'string' ? value.replaceAll(SECRET, '[REDACTED]') : Array.isArray(value) ? value.map(redact) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)])) : value;

describe('what the client receives is what the post chain saw, or what it replaced (issue 20, item 3)', () => {
  let g: RawGateway;
  /** What the post hook saw, by tool_call_id. */
  const seen = new Map<string, JsonValue>();
  beforeAll(async () => {
    g = await rawGateway([
      {
        name: 'redactor',
        event: 'post_tool_use',
        handle: (request) => {
          if (request.event !== 'post_tool_use') return { decision: 'allow' };
          seen.set(request.tool_call_id, request.output);
          const output = redact(request.output);
          return JSON.stringify(output) === JSON.stringify(request.output) ? { decision: 'allow' } : { decision: 'replace', output };
        },
      },
    ]);
    await handshake(g);
  });
  afterAll(() => g.close());

  it('for any result a server returns, the client gets exactly the result the redactor saw (rebuilt from it), and never the secret', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(toolResult, async (result) => {
        const id = `r${n++}`;
        g.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'result', arguments: { result } } });
        const answer = (await g.answer(id)) as { result: Json };
        const saw = seen.get(id);
        expect(saw).toBeDefined();
        const isError = answer.result.isError === true;
        // The client's result is the one the hook's view describes (redacted where it replaced).
        expect({ ...answer.result, isError }).toEqual(replacedResult(redact(saw as JsonValue), isError));
        expect(JSON.stringify(answer)).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ids: one answer per request, to the request it answers (issue 20, item 4)', () => {
  let g: RawGateway;
  /** Every post chain run: tool_call_id → the text it saw. */
  const posted: Array<[string, JsonValue]> = [];
  beforeAll(async () => {
    g = await rawGateway([{ name: 'post', event: 'post_tool_use', handle: (request) => (request.event === 'post_tool_use' && posted.push([request.tool_call_id, request.output]), { decision: 'allow' }) }], {
      upstreamTimeoutMs: 400,
    });
    await handshake(g);
  });
  afterAll(() => g.close());

  const ids = fc.constantFrom<string | number>(0, '0', 1, '1', 2, '2', 'a', 'a ', -1, '-1');
  const step = fc.record({ id: ids, tool: fc.constantFrom('slow', 'slow', 'twice', 'retyped', 'stray'), ms: fc.integer({ min: 0, max: 40 }) });

  it('reused, retyped and colliding ids never carry an answer past the post chain or to the wrong request', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        round++;
        const base = g.received.length;
        const sent: Array<{ id: string | number; nonce: string; tool: string }> = [];
        for (const [i, s] of steps.entries()) {
          const nonce = `n${round}-${i}`;
          sent.push({ id: s.id, nonce, tool: s.tool });
          g.send({ jsonrpc: '2.0', id: s.id, method: 'tools/call', params: { name: s.tool, arguments: { ms: s.ms, text: nonce } } });
        }
        // Every request is answered (by the server, by a refusal, or by the timeout): wait for all.
        const answered = (): Json[] => g.received.slice(base).filter((m) => !('method' in m));
        const deadline = Date.now() + 10_000;
        while (answered().length < sent.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        await new Promise((resolve) => setTimeout(resolve, 60)); // anything extra would show up now
        const answers = answered();
        expect(answers).toHaveLength(sent.length);
        for (const answer of answers) {
          const text = (answer as { result?: { content?: [{ text?: string }] } }).result?.content?.[0]?.text;
          if (text === undefined) {
            // An error: a duplicate refused, or a call whose answer the server mistyped (timed out).
            const code = (answer as { error: { code: number } }).error.code;
            expect([-32600, -32001]).toContain(code);
            continue;
          }
          // A result: for a request sent under this very id (same JSON type), and it went through the post chain.
          expect(text.startsWith('second') || text.startsWith('stray')).toBe(false);
          const request = sent.find((s) => s.nonce === text);
          expect(request?.id).toStrictEqual(answer.id);
          expect(posted.some(([callId, output]) => callId === String(answer.id) && output === text)).toBe(true);
          expect(request?.tool).not.toBe('retyped');
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('a request whose id is in flight is refused with -32600 and never reaches the server', async () => {
    g.send({ jsonrpc: '2.0', id: 'dup', method: 'tools/call', params: { name: 'slow', arguments: { ms: 300, text: 'first-dup' } } });
    g.send({ jsonrpc: '2.0', id: 'dup', method: 'tools/call', params: { name: 'slow', arguments: { ms: 0, text: 'second-dup' } } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(g.answers('dup')).toEqual([
      { jsonrpc: '2.0', id: 'dup', error: { code: -32600, message: expect.stringContaining('request id "dup" is already in flight') } },
      { jsonrpc: '2.0', id: 'dup', result: { content: [{ type: 'text', text: 'first-dup' }] } },
    ]);
    const atServer = await serverReceived(g, 'log-dup');
    expect(JSON.stringify(atServer)).not.toContain('second-dup');
  });
});

describe('only what the gateway understands is forwarded (issue 20, item 5)', () => {
  const otherNotifications = ['notifications/initialized', 'notifications/roots/list_changed', 'notifications/progress'];
  const method = fc.oneof(fc.constantFrom(...REQUEST_METHODS), fc.constantFrom(...otherNotifications), fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('vendor/x', 'notifications/vendor'));

  for (const policy of ['refuse', 'forward'] as const) {
    it(`--unknown-methods ${policy}: a notification with a request method never reaches the server; unknown ones ${policy === 'refuse' ? 'are dropped' : 'pass'}`, async () => {
      const g = await rawGateway([], { unknownMethods: policy });
      try {
        await handshake(g);
        let n = 0;
        const sent: string[] = [];
        await fc.assert(
          fc.asyncProperty(method, fc.jsonValue({ maxDepth: 1 }), async (m, p) => {
            const marker = `mark-${n++}`;
            sent.push(m);
            g.send({ jsonrpc: '2.0', method: m, params: { marker, p } });
          }),
          { numRuns: 200 },
        );
        const atServer = (await serverReceived(g, 'log')).filter((message) => message.id === undefined && (message.params as { marker?: string } | undefined)?.marker !== undefined);
        const methods = atServer.map((message) => message.method as string);
        for (const m of methods) expect(REQUEST_METHODS.has(m)).toBe(false);
        const known = sent.filter((m) => CLIENT_NOTIFICATIONS.has(m));
        const unknown = sent.filter((m) => !CLIENT_NOTIFICATIONS.has(m) && !REQUEST_METHODS.has(m) && !['notifications/message', 'notifications/resources/updated', 'notifications/resources/list_changed', 'notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/elicitation/complete', 'notifications/subscriptions/acknowledged', 'notifications/tasks'].includes(m));
        expect(methods.filter((m) => CLIENT_NOTIFICATIONS.has(m)).length).toBe(known.filter((m) => m !== 'notifications/cancelled').length);
        expect(methods.filter((m) => !CLIENT_NOTIFICATIONS.has(m)).length).toBe(policy === 'refuse' ? 0 : unknown.length);
        expect(g.logs.some((line) => line.includes('is a request, sent as a notification'))).toBe(true);
      } finally {
        await g.close();
      }
    }, 60_000);
  }

  it('a request for an unknown method is refused by the gateway (-32601), never forwarded', async () => {
    const g = await rawGateway([]);
    try {
      await handshake(g);
      g.send({ jsonrpc: '2.0', id: 1, method: 'vendor/do-something', params: { marker: 'vendor' } });
      expect(await g.answer(1)).toMatchObject({ error: { code: -32601, message: expect.stringContaining('does not know the method "vendor/do-something"') } });
      expect(JSON.stringify(await serverReceived(g, 'log'))).not.toContain('vendor/do-something');
    } finally {
      await g.close();
    }
  });

  it('batches, non-objects and invalid requests get a JSON-RPC error and forward nothing', async () => {
    const g = await rawGateway([]);
    try {
      await handshake(g);
      g.write(`${JSON.stringify([{ jsonrpc: '2.0', id: 'b1', method: 'tools/call', params: { name: 'slow', arguments: { text: 'batched' } } }])}\n`);
      g.write('{not json\n');
      g.write('42\n');
      g.send({ jsonrpc: '2.0', id: 1.5, method: 'ping' });
      g.send({ jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'slow', arguments: { text: 'extra-field' } }, extra: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const errors = g.received.filter((m) => 'error' in m).map((m) => [m.id, (m.error as { code: number }).code]);
      expect(errors).toEqual([
        [null, -32600],
        [null, -32700],
        [null, -32600],
        [null, -32600],
        ['x', -32600],
      ]);
      const atServer = JSON.stringify(await serverReceived(g, 'log'));
      expect(atServer).not.toContain('batched');
      expect(atServer).not.toContain('extra-field');
    } finally {
      await g.close();
    }
  });
});

describe('the server → client direction (the same classes, the other way)', () => {
  it('a server notification with a request method, or an unknown one, never reaches the client; known ones do', async () => {
    const g = await rawGateway([]);
    try {
      await handshake(g);
      for (const [i, m] of ['tools/call', 'sampling/createMessage', 'vendor/thing', 'notifications/tools/list_changed'].entries()) {
        g.send({ jsonrpc: '2.0', id: `s${i}`, method: 'tools/call', params: { name: 'shout', arguments: { method: m } } });
        await g.answer(`s${i}`);
      }
      const notifications = g.received.filter((m) => 'method' in m && !('id' in m)).map((m) => m.method);
      expect(notifications).toEqual(['notifications/tools/list_changed']);
    } finally {
      await g.close();
    }
  });

  it('server requests reach the client under ids of the gateway; only an answer to one still waiting goes back', async () => {
    const g = await rawGateway([]);
    try {
      await handshake(g);
      g.send({ jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask', arguments: {} } });
      const deadline = Date.now() + 5000;
      let request: Json | undefined;
      while ((request = g.received.find((m) => m.method === 'sampling/createMessage')) === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(request?.id).toEqual(expect.any(Number)); // the gateway's id, not the server's "srv-1"
      // An answer for a request nobody asked, and one with the right value but the wrong type: dropped.
      g.send({ jsonrpc: '2.0', id: 'srv-1', result: { model: 'forged', role: 'assistant', content: { type: 'text', text: 'forged' } } });
      g.send({ jsonrpc: '2.0', id: String(request?.id), result: { model: 'retyped', role: 'assistant', content: { type: 'text', text: 'retyped' } } });
      g.send({ jsonrpc: '2.0', id: request?.id, result: { model: 'real', role: 'assistant', content: { type: 'text', text: 'real' } } });
      const answer = (await g.answer('ask')) as { result: { content: [{ text: string }] } };
      const relayed = JSON.parse(answer.result.content[0].text) as Json;
      expect(relayed).toMatchObject({ id: 'srv-1', result: { model: 'real' } });
      expect(g.logs.filter((line) => line.includes('which the server is not waiting for'))).toHaveLength(2);
    } finally {
      await g.close();
    }
  });
});
