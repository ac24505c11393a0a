/**
 * The fast validators agree with zod, the arbiter: on a large generated corpus of valid and invalid
 * values, whatever a fast path accepts zod accepts too, with the same result (same keys, same JSON
 * text); and the `parse*` wrappers return exactly zod's verdict (success or not) for every value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WitDecision, WitHookRequest } from '../../host/codec/wit.js';
import { HookCall } from '../../host/contract/call.js';
import { fastHookCall, fastHookResponse, isPlainJson, parseHookCall, parseHookResponse } from '../../host/contract/fast/index.js';
import { JsonValue } from '../../host/contract/json.js';
import { JSON_LIMITS } from '../../host/contract/limits.js';
import { HookResponse } from '../../host/contract/response.js';
import { fastInvokeMessage, fastWorkerToHost, parseHostToWorker, parseWorkerToHost } from '../../host/engine/executor/fast-messages.js';
import { HostToWorker, WorkerToHost } from '../../host/engine/executor/messages.js';
import { HookResultSchema, fastHookResult, fastWitDecision, fastWitHookRequest } from '../../host/transports/component/codec.js';

const RUNS = 4000;

interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

/**
 * The same result: the same JSON text, and the same keys at the top (an optional key present with
 * `undefined` counts). JSON values inside are compared as JSON: zod's copy drops what JSON drops
 * (extra properties on an array), the fast path hands the value on as it is.
 */
function expectSame(fast: unknown, zod: unknown): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(zod);
  } catch {
    // Not JSON (a bigint, a cycle) where the schema takes any value (an outcome's `value`, which
    // the codec checks later): both hand it on as it is.
    expect(fast).toStrictEqual(zod);
    return;
  }
  expect(JSON.stringify(fast)).toBe(text);
  expect(Object.keys(fast as object)).toStrictEqual(Object.keys(zod as object));
  expect(JSON.parse(JSON.stringify(fast))).toStrictEqual(JSON.parse(JSON.stringify(zod)));
}

/** The property: fast accepts ⇒ zod accepts the same value with the same result. */
function agrees(schema: Schema, fast: (v: unknown) => unknown, value: unknown): boolean {
  const verdict = fast(value);
  if (verdict === undefined) return true;
  const zod = schema.safeParse(value);
  expect(zod.success, `fast accepted what zod rejects: ${safeShow(value)}`).toBe(true);
  expectSame(verdict, zod.data);
  return true;
}

function safeShow(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

// ── corpus ─────────────────────────────────────────────────────────────────────────────────────────

/** Strings including non-ASCII, lone surrogates, blanks and empties. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', ' ', '\t\n', 'git push --force origin main', 'é', '\u{1F600}', '\uD800'),
);

/** Odd values that are not JSON or that only zod may judge. */
function oddities(): fc.Arbitrary<unknown> {
  return fc.constantFrom<unknown>(
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    1n,
    Symbol('s'),
    () => 1,
    new Date(0),
    new Map(),
    [1, , 3], // eslint-disable-line no-sparse-arrays
    [undefined],
    Object.create(null) as object,
    Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }),
    JSON.parse('{"__proto__":{"x":1}}') as unknown,
    { u: undefined },
    Object.assign([1, 2], { extra: 3 }),
    new Number(3),
    new String('s'),
    (() => {
      const cycle: Record<string, unknown> = {};
      cycle['self'] = cycle;
      return cycle;
    })(),
    JSON.parse(`${'['.repeat(80)}1${']'.repeat(80)}`) as unknown,
    JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) as unknown,
  );
}

const json = fc.oneof({ weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) }, { weight: 1, arbitrary: oddities() });
/** Almost JSON: a JSON value with an odd value planted somewhere inside. */
const nearlyJson = fc.tuple(fc.jsonValue({ maxDepth: 3 }), oddities(), fc.string({ maxLength: 3 })).map(([v, odd, key]) => ({ v, nested: [odd, { [key]: odd }] }));
const jsonish = fc.oneof(json, nearlyJson);

/** A field value: usually right, sometimes of another type or missing. */
function field<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: fc.oneof(oddities(), fc.integer(), fc.boolean(), fc.constant(null), text) });
}

/** Build a record from optional entries (undefined entries are left out, or kept as `undefined` when `keepUndefined`). */
function entries(arb: fc.Arbitrary<Array<[string, unknown, boolean]>>, extra: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(arb, extra, fc.boolean()).map(([list, more, odd]) => {
    const out: Record<string, unknown> = odd ? (Object.create(null) as Record<string, unknown>) : {};
    for (const [k, v, present] of list) if (present) out[k] = v;
    return Object.assign(out, more);
  });
}

const extraKeys = fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 2 }) });
const present = fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });

const calls = entries(
  fc.tuple(
    fc.tuple(fc.constant('event'), field(fc.constantFrom('pre_tool_use', 'post_tool_use', 'pre-tool-use')), present),
    fc.tuple(fc.constant('workspace'), field(text), present),
    fc.tuple(fc.constant('agent_id'), field(text), present),
    fc.tuple(fc.constant('tool_call_id'), field(text), present),
    fc.tuple(fc.constant('tool_name'), field(text), present),
    fc.tuple(fc.constant('input'), jsonish, present),
    fc.tuple(fc.constant('output'), jsonish, fc.boolean()),
    fc.tuple(fc.constant('is_error'), field(fc.boolean()), fc.boolean()),
  ).map((t) => [...t]),
  extraKeys,
);

const responses = entries(
  fc.tuple(
    fc.tuple(fc.constant('decision'), field(fc.constantFrom('allow', 'deny', 'modify', 'replace', 'maybe')), present),
    fc.tuple(fc.constant('reason'), field(text), fc.boolean()),
    fc.tuple(fc.constant('input'), jsonish, fc.boolean()),
    fc.tuple(fc.constant('output'), jsonish, fc.boolean()),
    fc.tuple(fc.constant('is_error'), field(fc.boolean()), fc.boolean()),
  ).map((t) => [...t]),
  extraKeys,
);

const witRequests = entries(
  fc.tuple(
    fc.tuple(fc.constant('hookSchema'), field(fc.oneof(fc.nat(3), fc.constantFrom(-1, 1.5, 2 ** 60))), present),
    fc.tuple(fc.constant('event'), field(fc.constantFrom('pre-tool-use', 'post-tool-use', 'pre_tool_use')), present),
    fc.tuple(fc.constant('workspace'), field(text), present),
    fc.tuple(fc.constant('agentId'), field(text), present),
    fc.tuple(fc.constant('toolCallId'), field(text), present),
    fc.tuple(fc.constant('toolName'), field(text), present),
    fc.tuple(fc.constant('input'), field(text), present),
    fc.tuple(fc.constant('output'), fc.option(field(text), { nil: undefined }), fc.boolean()),
    fc.tuple(fc.constant('isError'), fc.option(field(fc.boolean()), { nil: undefined }), fc.boolean()),
  ).map((t) => [...t]),
  extraKeys,
);

const witDecisions = fc.oneof(
  fc.record({ tag: field(fc.constantFrom('allow', 'deny', 'modify', 'replace', 'nope')) }),
  fc.record({ tag: field(fc.constantFrom('deny', 'allow')), val: field(text) }),
  fc.record(
    { tag: fc.constant('modify'), val: fc.record({ input: field(text), reason: fc.option(field(text), { nil: undefined }) }, { requiredKeys: ['input'] }) },
    { requiredKeys: ['tag'] },
  ),
  fc.record(
    {
      tag: fc.constant('replace'),
      val: fc.record({ output: field(text), isError: field(fc.boolean()), reason: field(text), junk: fc.integer() }, { requiredKeys: [] }),
    },
    { requiredKeys: ['tag'] },
  ),
  oddities(),
);

const logs = fc.oneof(fc.record({ stdout: field(text), stderr: field(text) }, { requiredKeys: [] }), oddities());
const ids = field(fc.oneof(fc.integer(), fc.constantFrom(1.5, 2 ** 60)));
const outcomes = fc.oneof(
  fc.record({ type: fc.constant('ok'), value: fc.oneof(witDecisions, fc.anything()), logs }),
  fc.record({ type: fc.constant('timeout'), reason: field(fc.constantFrom('deadline', 'fuel', 'aborted', 'boom')), phase: field(fc.constantFrom('call', 'instantiate', 'boom')), message: field(text), logs }),
  fc.record({ type: fc.constant('limit'), what: field(fc.constantFrom('memory', 'resources', 'host-call', 'result', 'boom')), message: field(text), bytes: ids, logs }, { requiredKeys: ['type', 'what', 'message', 'logs'] }),
  fc.record({ type: fc.constant('load-failure'), message: field(text), logs }),
  fc.record(
    {
      type: fc.constant('trap'),
      kind: field(fc.constantFrom('trap', 'stack-overflow', 'exit', 'abi', 'crash', 'boom')),
      violation: field(fc.constantFrom('bounds', 'utf8', 'boom')),
      message: field(text),
      memoryAtLimit: field(fc.boolean()),
      logs,
    },
    { requiredKeys: ['type', 'kind', 'message', 'memoryAtLimit', 'logs'] },
  ),
  fc.record({ type: fc.constantFrom('ok', 'unknown'), extra: fc.integer(), logs }),
);
const workerMessages = fc.oneof(
  fc.record({ type: fc.constant('ready') }),
  fc.record({ type: fc.constant('ready'), id: ids }),
  fc.record({ type: fc.constant('init-failed'), message: field(text) }),
  fc.record({ type: fc.constant('reply'), id: ids, outcome: outcomes }),
  fc.record({ type: fc.constantFrom('reply', 'result'), id: ids, outcome: outcomes, extra: fc.integer() }),
);
const bytes = fc.oneof(fc.uint8Array({ maxLength: 16 }), fc.constantFrom<unknown>('bytes', [1, 2], new Uint16Array(2)));
const invokes = fc.oneof(
  fc.record({ type: fc.constant('invoke'), id: ids, bytes }),
  fc.record({ type: fc.constant('invoke'), id: ids, bytes, extra: fc.integer() }),
  fc.record({ type: fc.constant('init'), glueUrl: text }),
);
const hookResults = fc.oneof(
  fc.record({ tag: fc.constant('ok'), decision: witDecisions }),
  fc.record({ tag: fc.constant('err'), message: field(text) }),
  fc.record({ tag: fc.constant('too-large'), bytes: ids }),
  fc.record({ tag: fc.constantFrom('ok', 'err', 'boom'), decision: witDecisions, message: field(text) }),
);

// ── properties ─────────────────────────────────────────────────────────────────────────────────────

describe('isPlainJson', () => {
  it('accepts only values z.json() accepts, and these serialize alike', () => {
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.anything()), (value) => {
        if (!isPlainJson(value)) return true;
        const zod = JsonValue.safeParse(value);
        expect(zod.success).toBe(true);
        expect(JSON.stringify(value)).toBe(JSON.stringify(zod.data));
        return true;
      }),
      { numRuns: RUNS },
    );
  });

  it('accepts the plain JSON values a caller normally passes (it is a fast path, not a no-op)', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }).filter((v) => !JSON.stringify(v).includes('"__proto__"')), (value) => isPlainJson(value)));
    expect(isPlainJson({ command: 'git push', args: [1, 2.5, null, true, { 'é': '\u{1F600}' }] })).toBe(true);
    expect(isPlainJson(JSON.parse('{"__proto__":1}'))).toBe(false);
    expect(isPlainJson(Number.NaN)).toBe(false);
  });
});

// Normal traffic: what a runtime, a hook and our own worker send. The fast path must take all of it.
const plainText = fc.string({ unit: 'grapheme', maxLength: 16 });
const nonEmpty = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }).filter((s) => s.length > 0);
const plainJson = fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const cleanCalls = fc.oneof(
  fc.record({ event: fc.constant('pre_tool_use'), workspace: plainText, agent_id: plainText, tool_call_id: nonEmpty, tool_name: nonEmpty, input: plainJson }),
  fc.record({ event: fc.constant('post_tool_use'), workspace: plainText, agent_id: plainText, tool_call_id: nonEmpty, tool_name: nonEmpty, input: plainJson, output: plainJson, is_error: fc.boolean() }),
);
const reasonText = fc.string({ unit: 'grapheme', maxLength: 16 }).map((s) => `r${s}`);
const cleanResponses = fc.oneof(
  fc.constant({ decision: 'allow' }),
  fc.record({ decision: fc.constant('deny'), reason: reasonText }),
  fc.record({ decision: fc.constant('modify'), input: plainJson, reason: reasonText }, { requiredKeys: ['decision', 'input'] }),
  fc.record({ decision: fc.constant('replace'), output: plainJson, is_error: fc.boolean(), reason: reasonText }, { requiredKeys: ['decision', 'output'] }),
);
const cleanWitRequests = fc.oneof(
  fc.record({ hookSchema: fc.constant(1), event: fc.constant('pre-tool-use'), workspace: plainText, agentId: plainText, toolCallId: plainText, toolName: plainText, input: plainText }),
  fc.record({ hookSchema: fc.constant(1), event: fc.constant('post-tool-use'), workspace: plainText, agentId: plainText, toolCallId: plainText, toolName: plainText, input: plainText, output: plainText, isError: fc.boolean() }),
);
const cleanWitDecisions = fc.oneof(
  fc.constant({ tag: 'allow' }),
  fc.record({ tag: fc.constant('deny'), val: plainText }),
  fc.record({ tag: fc.constant('modify'), val: fc.record({ input: plainText, reason: plainText }, { requiredKeys: ['input'] }) }),
  fc.record({ tag: fc.constant('replace'), val: fc.record({ output: plainText, isError: fc.boolean(), reason: plainText }, { requiredKeys: ['output'] }) }),
);
const cleanLogs = fc.record({ stdout: plainText, stderr: plainText }, { requiredKeys: [] });
const cleanOutcomes = fc.oneof(
  fc.record({ type: fc.constant('ok'), value: fc.oneof(cleanWitDecisions, plainJson.filter((v) => v !== undefined)), logs: cleanLogs }),
  fc.record({ type: fc.constant('timeout'), reason: fc.constantFrom('deadline', 'fuel', 'aborted'), phase: fc.constantFrom('call', 'instantiate'), message: plainText, logs: cleanLogs }),
  fc.record({ type: fc.constant('limit'), what: fc.constantFrom('memory', 'resources', 'host-call', 'result'), message: plainText, bytes: fc.nat(), logs: cleanLogs }, { requiredKeys: ['type', 'what', 'message', 'logs'] }),
  fc.record({ type: fc.constant('load-failure'), message: plainText, logs: cleanLogs }),
  fc.record(
    { type: fc.constant('trap'), kind: fc.constantFrom('trap', 'stack-overflow', 'exit', 'abi', 'crash'), violation: fc.constantFrom('bounds', 'alignment', 'utf8'), message: plainText, memoryAtLimit: fc.boolean(), logs: cleanLogs },
    { requiredKeys: ['type', 'kind', 'message', 'memoryAtLimit', 'logs'] },
  ),
);
const cleanWorkerMessages = fc.oneof(fc.constant({ type: 'ready' }), fc.record({ type: fc.constant('reply'), id: fc.nat(), outcome: cleanOutcomes }));
// A literal, as the pool makes it (fc.record may make a null-prototype object).
const cleanInvokes = fc.record({ type: fc.constant('invoke'), id: fc.nat(), bytes: fc.uint8Array({ maxLength: 64 }) }).map(({ type, id, bytes }) => ({ type, id, bytes }));
const cleanHookResults = fc.oneof(
  fc.record({ tag: fc.constant('ok'), decision: cleanWitDecisions }),
  fc.record({ tag: fc.constant('err'), message: plainText }),
  fc.record({ tag: fc.constant('too-large'), bytes: fc.nat() }),
);

/**
 * Plain objects, as JSON.parse or an object literal makes them (fc.record may make null-prototype
 * ones). A `"__proto__"` key is not normal traffic: the fast path leaves it to zod on purpose.
 */
function asParsed(arb: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return arb.filter((v) => !JSON.stringify(v).includes('"__proto__"')).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
}

const cases: Array<{ name: string; schema: Schema; fast: (v: unknown) => unknown; corpus: fc.Arbitrary<unknown>; clean: fc.Arbitrary<unknown> }> = [
  { name: 'HookCall', schema: HookCall, fast: fastHookCall, corpus: fc.oneof(calls, cleanCalls), clean: asParsed(cleanCalls) },
  { name: 'HookResponse', schema: HookResponse, fast: fastHookResponse, corpus: fc.oneof(responses, cleanResponses), clean: asParsed(cleanResponses) },
  { name: 'WitHookRequest', schema: WitHookRequest, fast: fastWitHookRequest, corpus: fc.oneof(witRequests, cleanWitRequests), clean: asParsed(cleanWitRequests) },
  { name: 'WitDecision', schema: WitDecision, fast: fastWitDecision, corpus: fc.oneof(witDecisions, cleanWitDecisions), clean: asParsed(cleanWitDecisions) },
  { name: 'WorkerToHost', schema: WorkerToHost, fast: fastWorkerToHost, corpus: fc.oneof(workerMessages, cleanWorkerMessages), clean: asParsed(cleanWorkerMessages) },
  // Bytes do not survive a JSON round trip: the invokes are taken as made.
  { name: 'HostToWorker (invoke)', schema: HostToWorker, fast: fastInvokeMessage, corpus: fc.oneof(invokes, cleanInvokes), clean: cleanInvokes },
  { name: 'HookResult', schema: HookResultSchema, fast: fastHookResult, corpus: fc.oneof(hookResults, cleanHookResults), clean: asParsed(cleanHookResults) },
];

describe.each(cases)('fast $name', ({ schema, fast, corpus, clean }) => {
  it('accepts nothing zod rejects, and returns what zod returns', () => {
    fc.assert(fc.property(corpus, (value) => agrees(schema, fast, value)), { numRuns: RUNS });
  });

  it('takes the fast path for all normal traffic (else it would be a no-op)', () => {
    fc.assert(
      fc.property(clean, (value) => {
        expect(schema.safeParse(value).success).toBe(true);
        expect(fast(value)).not.toBeUndefined();
        return agrees(schema, fast, value);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parse wrappers', () => {
  type Parse = (v: unknown) => { success: boolean; data?: unknown; error?: unknown };
  const wrappers: Array<[string, Schema, Parse, (v: unknown) => unknown, fc.Arbitrary<unknown>]> = [
    ['parseHookCall', HookCall, parseHookCall, fastHookCall, calls],
    ['parseHookResponse', HookResponse, parseHookResponse, fastHookResponse, responses],
    ['parseWorkerToHost', WorkerToHost, parseWorkerToHost, fastWorkerToHost, workerMessages],
    ['parseHostToWorker', HostToWorker, parseHostToWorker, fastInvokeMessage, invokes],
  ];
  it.each(wrappers)('%s gives zod’s verdict for every value, and zod’s error when it fails', (_name, schema, parse, fastOf, corpus) => {
    fc.assert(
      fc.property(corpus, (value) => {
        const ours = parse(value);
        const zod = schema.safeParse(value);
        expect(ours.success).toBe(zod.success);
        if (!zod.success) expect(ours.error).toStrictEqual((zod as { error?: unknown }).error);
        // zod's own result when zod decided (a cycle included); the fast result otherwise.
        else if (fastOf(value) === undefined) expect(ours.data).toStrictEqual(zod.data);
        else expectSame(ours.data, zod.data);
        return true;
      }),
      { numRuns: RUNS },
    );
  });
});

describe('hand-picked cases', () => {
  const call = { event: 'pre_tool_use', workspace: '/repo', agent_id: 'a', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'ls' } };
  it('a plain call takes the fast path and is a fresh object', () => {
    const fast = fastHookCall(call);
    expect(fast).toStrictEqual(HookCall.parse(call));
    expect(fast).not.toBe(call);
  });
  it.each([
    ['an extra key', { ...call, extra: 1 }],
    ['an empty tool name', { ...call, tool_name: '' }],
    ['output before the call', { ...call, output: 'x' }],
    ['a NaN inside the input', { ...call, input: { n: Number.NaN } }],
    ['a null-prototype call', Object.assign(Object.create(null) as object, call)],
  ])('%s is left to zod', (_what, value) => {
    expect(fastHookCall(value)).toBeUndefined();
  });
  it('values near JSON_LIMITS.max_length: the fast path takes only what surely fits, zod counts the rest exactly', () => {
    const limit = JSON_LIMITS.max_length;
    // Surely within: even at six characters per character it fits.
    const small = { ...call, input: 'a'.repeat(Math.floor(limit / 6) - 10) };
    expect(fastHookCall(small)).toBeDefined();
    // Within, but only an exact count knows: left to zod, which accepts.
    const near = { ...call, input: 'a'.repeat(Math.floor(limit / 2)) };
    expect(fastHookCall(near)).toBeUndefined();
    expect(parseHookCall(near).success).toBe(true);
    // Past the limit: zod refuses, and the fast path never accepted it.
    const over = { ...call, input: 'a'.repeat(limit) };
    expect(fastHookCall(over)).toBeUndefined();
    expect(parseHookCall(over).success).toBe(false);
    expect(fastHookResponse({ decision: 'replace', output: 'b'.repeat(limit) })).toBeUndefined();
    expect(parseHookResponse({ decision: 'replace', output: 'b'.repeat(limit) }).success).toBe(false);
  });

  it('a blank deny reason, a modify with reason: undefined and an allow with extras', () => {
    expect(fastHookResponse({ decision: 'deny', reason: ' \n' })).toBeUndefined();
    expect(HookResponse.safeParse({ decision: 'deny', reason: ' \n' }).success).toBe(false);
    expect(fastHookResponse({ decision: 'modify', input: 1, reason: undefined })).toBeUndefined();
    expect(fastHookResponse({ decision: 'allow', reason: 'x', whatever: [1] })).toStrictEqual({ decision: 'allow' });
  });
});
