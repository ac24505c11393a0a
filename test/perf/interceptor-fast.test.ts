/**
 * The interceptor fast path (host/transports/in-process/fast-invoke.ts): the whole conformance suite
 * through a transport built on it, plus what is particular to it — a synchronous answer comes back
 * synchronously with no timer armed, the copy is deep and the interceptor cannot reach the chain's
 * state, a pending promise still times out and aborts, and every listener and timer is removed.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { HookRequest, HookResponse, JsonValue, Transport } from '../../host/index.js';
import { copyJson, copyRequest, invokeInterceptor, type InterceptorCall } from '../../host/transports/in-process/fast-invoke.js';
import { DENY_REASON, WRAPPED_REASON, type Behaviour } from '../conformance/behaviours.js';
import { runTransportSuite } from '../conformance/suite.js';

function fastTransport(handle: InterceptorCall, timeoutMs: number): Transport {
  return {
    kind: 'interceptor',
    invoke: async (request, context) => invokeInterceptor(handle, request, timeoutMs, context.signal),
  };
}

function isWrapped(value: JsonValue | undefined): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'wrapped' in value;
}

/** The conformance behaviours, as test/conformance/in-process.test.ts writes them. */
function answer(behaviour: Behaviour, req: HookRequest): HookResponse | Promise<HookResponse> {
  switch (behaviour) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      return { decision: 'deny', reason: DENY_REASON };
    case 'modify-wrap':
      return { decision: 'modify', input: { wrapped: req.input }, reason: 'wrapped input' };
    case 'replace-wrap':
      return { decision: 'replace', output: { wrapped: req.event === 'post_tool_use' ? req.output : null }, reason: 'wrapped output' };
    case 'replace-error':
      return { decision: 'replace', output: 'replaced as error', is_error: true };
    case 'replace-ok':
      return { decision: 'replace', output: 'replaced as ok', is_error: false };
    case 'deny-if-wrapped':
      return isWrapped(req.event === 'pre_tool_use' ? req.input : req.output) ? { decision: 'deny', reason: WRAPPED_REASON } : { decision: 'allow' };
    case 'probe': {
      const seen = { hook_schema: req.hook_schema, event: req.event, has_output: 'output' in req, has_is_error: 'is_error' in req, input: req.input };
      return req.event === 'pre_tool_use' ? { decision: 'modify', input: seen } : { decision: 'replace', output: { ...seen, output: req.output, is_error: req.is_error } };
    }
    case 'empty-deny-reason':
      return { decision: 'deny', reason: '' };
    case 'malformed':
      return { decision: 'maybe' } as unknown as HookResponse;
    case 'hang':
      return new Promise<HookResponse>(() => {});
    case 'crash':
      throw new Error('interceptor crashed');
    case 'silent':
    case 'oversized':
      throw new Error(`behaviour ${behaviour} is not expressible in-process`);
  }
}

runTransportSuite('interceptor fast path', {
  crashCode: 'interceptor_error',
  unsupported: {
    silent: 'an interceptor returns a value; there is no stdout to leave empty',
    oversized: 'an interceptor answer is an in-memory object; there is no output stream to cap',
  },
  create: (behaviour, limits) => fastTransport((req) => answer(behaviour, req), limits.timeout_ms),
});

const PRE: HookRequest = {
  hook_schema: 1,
  event: 'pre_tool_use',
  workspace: '/repo',
  agent_id: 'a',
  tool_call_id: 'c1',
  tool_name: 'shell',
  input: { command: 'git push', args: ['--force', { deep: [1, 2, { é: '\u{1F600}' }] }], n: null },
};
const POST: HookRequest = { ...PRE, event: 'post_tool_use', output: { lines: ['a', 'b'] }, is_error: false };

function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

describe('invokeInterceptor', () => {
  it('answers a synchronous interceptor synchronously, without arming a timer', () => {
    const before = timers();
    const result = invokeInterceptor(() => ({ decision: 'deny', reason: 'no' }), PRE, 1000);
    expect(result).toStrictEqual({ ok: true, response: { decision: 'deny', reason: 'no' } });
    expect(timers()).toBe(before);
  });

  it('turns a synchronous throw into interceptor_error, synchronously', () => {
    const result = invokeInterceptor(() => {
      throw new TypeError('boom');
    }, PRE, 1000);
    expect(result).toMatchObject({ ok: false, failure: { code: 'interceptor_error' } });
  });

  it('checks a synchronous answer against the contract (zod words what the fast path does not take)', () => {
    const result = invokeInterceptor(() => ({ decision: 'deny', reason: '  ' }), PRE, 1000);
    expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    expect(JSON.stringify(result)).toContain('reason');
    expect(invokeInterceptor(() => undefined as unknown as HookResponse, PRE, 1000)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  });

  it('arms a timer only for a promise, and removes it and the abort listener when it settles', async () => {
    const controller = new AbortController();
    const before = timers();
    const pending = invokeInterceptor(async () => ({ decision: 'allow' }), PRE, 1000, controller.signal);
    expect(pending).toBeInstanceOf(Promise);
    expect(timers()).toBe(before + 1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(await pending).toStrictEqual({ ok: true, response: { decision: 'allow' } });
    expect(timers()).toBe(before);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('times out a promise that never settles, and stops on abort', async () => {
    const never: InterceptorCall = () => new Promise<HookResponse>(() => {});
    const started = performance.now();
    expect(await invokeInterceptor(never, PRE, 50)).toMatchObject({ ok: false, failure: { code: 'timeout', message: 'interceptor did not answer within 50 ms' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    const controller = new AbortController();
    const pending = invokeInterceptor(never, PRE, 60_000, controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, failure: { code: 'timeout', message: 'interceptor aborted' } });
    const aborted = new AbortController();
    aborted.abort();
    expect(await invokeInterceptor(never, PRE, 60_000, aborted.signal)).toMatchObject({ ok: false, failure: { code: 'timeout' } });
  });

  it('turns a rejection, and a thenable whose then throws, into interceptor_error', async () => {
    expect(await invokeInterceptor(() => Promise.reject(new Error('nope')), PRE, 1000)).toMatchObject({ ok: false, failure: { code: 'interceptor_error', message: 'interceptor threw Error: nope' } });
    const evil = {
      then() {
        throw new Error('then threw');
      },
    } as unknown as Promise<HookResponse>;
    expect(await invokeInterceptor(() => evil, PRE, 1000)).toMatchObject({ ok: false, failure: { code: 'interceptor_error' } });
  });

  it('hands the interceptor a deep copy it may mutate without touching the chain state', () => {
    const original = structuredClone(POST);
    let seen: HookRequest | undefined;
    invokeInterceptor((req) => {
      seen = req;
      if (req.event !== 'post_tool_use') throw new Error('expected post');
      ((req.input as { args: unknown[] }).args[1] as { deep: unknown[] }).deep.push('mutated');
      (req.output as { lines: string[] }).lines.length = 0;
      (req as { workspace: string }).workspace = '/elsewhere';
      return { decision: 'allow' };
    }, POST, 1000);
    expect(POST).toStrictEqual(original);
    expect(seen).not.toBe(POST);
  });
});

describe('copyJson / copyRequest', () => {
  it('copies deeply: equal, sharing no object', () => {
    const value = JSON.parse('{"a":[1,{"b":[true,null,"x"]}],"__proto__":{"kept":1},"c":{}}') as JsonValue;
    const copy = copyJson(value);
    expect(copy).toStrictEqual(value);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    const objects = (v: unknown, out: object[] = []): object[] => {
      if (typeof v === 'object' && v !== null) {
        out.push(v);
        for (const x of Object.values(v)) objects(x, out);
      }
      return out;
    };
    const mine = new Set(objects(value));
    for (const o of objects(copy)) expect(mine.has(o)).toBe(false);
  });

  it('copies values nested deeper than its own recursion limit', () => {
    const deep = JSON.parse(`${'['.repeat(2000)}1${']'.repeat(2000)}`) as JsonValue;
    expect(JSON.stringify(copyJson(deep))).toBe(JSON.stringify(deep));
  });

  it('keeps output/is_error absent before the call and present after', () => {
    expect(Object.keys(copyRequest(PRE)).sort()).toStrictEqual(Object.keys(PRE).sort());
    expect(copyRequest(POST)).toStrictEqual(POST);
  });
});
