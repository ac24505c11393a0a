/**
 * The chain against a small reference model: random hook sequences (events, matchers, policies,
 * behaviours) at both events, random calls. The outcome, `modified`/`replaced`, what each hook was
 * shown and the trail must equal the model's; never `allow` where the model says `deny`. Most hooks
 * are interceptors (cheap, so many runs); WAT component hooks and real subprocess hooks take part in
 * their own properties, with fewer runs.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  componentTransport,
  HookRunner,
  interceptorTransport,
  subprocessTransport,
  type FailureCode,
  type HookCall,
  type HookDefinition,
  type HookRequest,
  type JsonValue,
  type Outcome,
  type Transport,
} from '../../host/index.js';
import { parseToolInput } from '../../host/codec/index.js';
import { failureReason } from '../../host/runner/failure-reason.js';
import { DENY_REASON, WRAPPED_REASON } from '../conformance/behaviours.js';
import { TEST_CACHE_DIR, WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';

type Event = 'pre_tool_use' | 'post_tool_use';

/** What a hook answers, as the model sees it. */
type Answer =
  | { readonly kind: 'allow' }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'modify'; readonly input: JsonValue; readonly reason?: string }
  | { readonly kind: 'replace'; readonly output: JsonValue; readonly is_error?: boolean; readonly reason?: string }
  | { readonly kind: 'fail'; readonly code: FailureCode };

/** Where the call stands when a hook runs (what the hook is shown). */
interface State {
  readonly event: Event;
  readonly input: JsonValue;
  readonly output?: JsonValue;
  readonly is_error?: boolean;
}

/** One hook of a generated chain: its declaration, and how it answers the state it is shown. */
interface ModelHook {
  readonly name: string;
  readonly event: Event;
  readonly tools: readonly string[] | undefined;
  readonly on_failure: 'deny' | 'allow' | undefined;
  readonly answer: (state: State) => Answer;
  readonly transport: () => Transport;
  /** What the hook was shown, when it records it (interceptors do; real hooks are checked by their answers). */
  readonly seen: State[];
  readonly records: boolean;
}

interface TrailLine {
  hook: string;
  decision: string;
  reason?: string;
  failure?: string;
  policy?: string;
}

type ModelOutcome =
  | { readonly event: 'pre_tool_use'; readonly decision: 'allow'; readonly input: JsonValue; readonly modified: boolean; readonly trail: TrailLine[] }
  | { readonly event: 'pre_tool_use'; readonly decision: 'deny'; readonly reason: string; readonly trail: TrailLine[] }
  | { readonly event: 'post_tool_use'; readonly decision: 'allow' | 'deny'; readonly output: JsonValue; readonly is_error: boolean; readonly replaced: boolean; readonly trail: TrailLine[] };

function matches(tools: readonly string[] | undefined, tool: string): boolean {
  return tools === undefined || tools.includes(tool);
}

/** The contract's chain, written down as plainly as possible (independent of host/runner). */
function model(call: HookCall, hooks: readonly ModelHook[]): { outcome: ModelOutcome; seen: Map<string, State> } {
  const seen = new Map<string, State>();
  const event = call.event;
  let input = parseToolInput(call.input);
  let output: JsonValue | undefined = event === 'post_tool_use' ? call.output : undefined;
  let isError = event === 'post_tool_use' ? call.is_error : undefined;
  let modified = false;
  let replaced = false;
  const trail: TrailLine[] = [];
  const deny = (reason: string): ModelOutcome =>
    event === 'pre_tool_use'
      ? { event, decision: 'deny', reason, trail }
      : { event, decision: 'deny', output: reason, is_error: true, replaced, trail };
  for (const hook of hooks) {
    if (hook.event !== event || !matches(hook.tools, call.tool_name)) continue;
    const state: State = event === 'pre_tool_use' ? { event, input } : { event, input, output: output ?? null, is_error: isError ?? false };
    seen.set(hook.name, state);
    let answer = hook.answer(state);
    if (answer.kind === 'modify' && event === 'post_tool_use') answer = { kind: 'fail', code: 'wrong_decision_for_event' };
    if (answer.kind === 'replace' && event === 'pre_tool_use') answer = { kind: 'fail', code: 'wrong_decision_for_event' };
    switch (answer.kind) {
      case 'fail': {
        const policy = hook.on_failure ?? 'deny';
        trail.push({ hook: hook.name, decision: policy, failure: answer.code, policy });
        if (policy === 'deny') return { outcome: deny(failureReason(hook.name, answer.code, event)), seen };
        break;
      }
      case 'allow':
        trail.push({ hook: hook.name, decision: 'allow' });
        break;
      case 'deny':
        trail.push({ hook: hook.name, decision: 'deny', reason: answer.reason });
        return { outcome: deny(answer.reason), seen };
      case 'modify':
        trail.push({ hook: hook.name, decision: 'modify', ...(answer.reason === undefined ? {} : { reason: answer.reason }) });
        input = answer.input;
        modified = true;
        break;
      case 'replace':
        trail.push({ hook: hook.name, decision: 'replace', ...(answer.reason === undefined ? {} : { reason: answer.reason }) });
        output = answer.output;
        if (answer.is_error !== undefined) isError = answer.is_error;
        replaced = true;
        break;
    }
  }
  return {
    outcome:
      event === 'pre_tool_use'
        ? { event, decision: 'allow', input, modified, trail }
        : { event, decision: 'allow', output: output ?? null, is_error: isError ?? false, replaced, trail },
    seen,
  };
}

function comparable(outcome: Outcome): unknown {
  const trail = outcome.trail.map((e) => {
    const line: TrailLine = { hook: e.hook, decision: e.decision };
    if (e.reason !== undefined) line.reason = e.reason;
    if (e.failure !== undefined) line.failure = e.failure.code;
    if (e.policy !== undefined) line.policy = e.policy;
    return line;
  });
  const { tool_call_id: _id, ...rest } = outcome;
  return { ...rest, trail };
}

// ── generators ──────────────────────────────────────────────────────────────────────────────────

/** JSON values as they come back from JSON text (no -0), small. */
const json: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);
const reason = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
const tools = fc.constantFrom<readonly string[] | undefined>(undefined, ['shell'], ['other'], ['shell', 'git']);
const policy = fc.constantFrom<'deny' | 'allow' | undefined>(undefined, 'deny', 'allow');
const event = fc.constantFrom<Event>('pre_tool_use', 'post_tool_use');

/** A static answer for an interceptor. */
const answer: fc.Arbitrary<Answer> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Answer>({ kind: 'allow' }) },
  { weight: 2, arbitrary: reason.map((r): Answer => ({ kind: 'deny', reason: r })) },
  { weight: 3, arbitrary: fc.record({ input: json, reason: fc.option(reason, { nil: undefined }) }).map((a): Answer => ({ kind: 'modify', input: a.input, ...(a.reason === undefined ? {} : { reason: a.reason }) })) },
  {
    weight: 3,
    arbitrary: fc.record({ output: json, is_error: fc.option(fc.boolean(), { nil: undefined }), reason: fc.option(reason, { nil: undefined }) }).map(
      (a): Answer => ({ kind: 'replace', output: a.output, ...(a.is_error === undefined ? {} : { is_error: a.is_error }), ...(a.reason === undefined ? {} : { reason: a.reason }) }),
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom<FailureCode>('interceptor_error', 'malformed_response', 'timeout').map((code): Answer => ({ kind: 'fail', code })) },
);

function toResponse(a: Exclude<Answer, { kind: 'fail' }>): unknown {
  switch (a.kind) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      return { decision: 'deny', reason: a.reason };
    case 'modify':
      return { decision: 'modify', input: a.input, ...(a.reason === undefined ? {} : { reason: a.reason }) };
    case 'replace':
      return { decision: 'replace', output: a.output, ...(a.is_error === undefined ? {} : { is_error: a.is_error }), ...(a.reason === undefined ? {} : { reason: a.reason }) };
  }
}

function stateOf(request: HookRequest): State {
  return request.event === 'pre_tool_use'
    ? { event: request.event, input: request.input }
    : { event: request.event, input: request.input, output: request.output, is_error: request.is_error };
}

/** A real interceptor that answers `a` and records what it was shown. */
function interceptorHook(name: string, ev: Event, t: readonly string[] | undefined, p: 'deny' | 'allow' | undefined, a: Answer): ModelHook {
  const seen: State[] = [];
  return {
    name,
    event: ev,
    tools: t,
    on_failure: p,
    answer: () => a,
    seen,
    records: true,
    transport: () =>
      interceptorTransport(
        (request) => {
          seen.push(stateOf(request));
          if (a.kind !== 'fail') return toResponse(a) as never;
          if (a.code === 'interceptor_error') throw new Error('the interceptor failed');
          if (a.code === 'timeout') return new Promise<never>(() => {});
          return { decision: 'maybe' } as never;
        },
        { timeout_ms: 20 },
      ),
  };
}

const callArb = (ev: Event): fc.Arbitrary<HookCall> =>
  fc
    .record({
      tool: fc.constantFrom('shell', 'git', 'other'),
      input: fc.oneof(json, fc.string({ maxLength: 8 }), json.map((v) => JSON.stringify(v))),
      output: json,
      is_error: fc.boolean(),
    })
    .map((c): HookCall => {
      const base = { workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: c.tool, input: c.input };
      return ev === 'pre_tool_use' ? { ...base, event: ev } : { ...base, event: ev, output: c.output, is_error: c.is_error };
    });

async function check(call: HookCall, hooks: readonly ModelHook[]): Promise<void> {
  const defs: HookDefinition[] = hooks.map((h) => ({ name: h.name, event: h.event, tools: h.tools, on_failure: h.on_failure, transport: h.transport() }));
  const runner = new HookRunner(defs);
  const outcome = await runner.run(call);
  const expected = model(call, hooks);
  expect(comparable(outcome)).toEqual(expected.outcome);
  if (expected.outcome.decision === 'deny') expect(outcome.decision).toBe('deny');
  // Every interceptor that ran was shown the state as rewritten so far — and none that did not run.
  for (const hook of hooks) {
    if (!hook.records) continue;
    const shown = expected.seen.get(hook.name);
    expect(hook.seen).toEqual(shown === undefined ? [] : [shown]);
  }
}

describe('the chain equals the reference model', () => {
  it('interceptor chains, both events (500 runs)', async () => {
    const hooksArb = fc.array(fc.record({ event, tools, policy, answer }), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(event.chain((ev) => fc.tuple(callArb(ev), hooksArb)), async ([call, specs]) => {
        const hooks = specs.map((s, i) => interceptorHook(`h${i}`, s.event, s.tools, s.policy, s.answer));
        await check(call, hooks);
      }),
      { numRuns: 500 },
    );
  });

  describe('with real hooks in the chain', () => {
    const components = new Map<string, Transport>();
    const subprocesses = new Map<string, Transport>();
    const CONFORMANCE_HOOK = fileURLToPath(new URL('../fixtures/subprocess/conformance-hook.mjs', import.meta.url));

    /** Conformance behaviours as model answers (test/conformance/behaviours.ts). */
    const REAL: Record<string, { answer: (s: State) => Answer; crash?: FailureCode }> = {
      allow: { answer: () => ({ kind: 'allow' }) },
      deny: { answer: () => ({ kind: 'deny', reason: DENY_REASON }) },
      'modify-wrap': { answer: (s) => ({ kind: 'modify', input: { wrapped: s.input }, reason: 'wrapped input' }) },
      'replace-wrap': { answer: (s) => ({ kind: 'replace', output: { wrapped: s.output ?? null }, reason: 'wrapped output' }) },
      'replace-error': { answer: () => ({ kind: 'replace', output: 'replaced as error', is_error: true }) },
      'replace-ok': { answer: () => ({ kind: 'replace', output: 'replaced as ok', is_error: false }) },
      'deny-if-wrapped': {
        answer: (s) => {
          const v = s.event === 'pre_tool_use' ? s.input : s.output;
          return v !== null && typeof v === 'object' && !Array.isArray(v) && 'wrapped' in v ? { kind: 'deny', reason: WRAPPED_REASON } : { kind: 'allow' };
        },
      },
      malformed: { answer: () => ({ kind: 'fail', code: 'malformed_response' }) },
    };

    beforeAll(async () => {
      await ensureWatGuestsBuilt();
      for (const behaviour of Object.keys(REAL)) {
        const t = componentTransport({ path: join(WAT_CONFORMANCE_DIR, `${behaviour}.wasm`), cache_dir: TEST_CACHE_DIR });
        await t.load();
        components.set(behaviour, t);
        subprocesses.set(behaviour, subprocessTransport({ command: [process.execPath, CONFORMANCE_HOOK, behaviour], timeout_ms: 20_000 }));
      }
    });
    afterAll(async () => {
      await Promise.all([...components.values(), ...subprocesses.values()].map((t) => t.close?.()));
    });

    function realHook(kind: 'component' | 'subprocess', name: string, ev: Event, t: readonly string[] | undefined, p: 'deny' | 'allow' | undefined, behaviour: string): ModelHook {
      const transport = (kind === 'component' ? components : subprocesses).get(behaviour);
      if (transport === undefined) throw new Error(`no ${kind} for ${behaviour}`);
      const spec = REAL[behaviour];
      if (spec === undefined) throw new Error(behaviour);
      // A shared transport: the runner must not close it (these runners are never closed).
      return { name, event: ev, tools: t, on_failure: p, answer: spec.answer, seen: [], records: false, transport: () => transport };
    }

    const realArb = fc.constantFrom(...Object.keys(REAL));
    /**
     * Interceptors (any event, any matcher) with `minReal`..`maxReal` real hooks placed among them that
     * do run: declared for the call's event, with a matcher that takes the call's tool.
     */
    const mixed = (kind: 'component' | 'subprocess', ev: Event, minReal: number, maxReal: number) =>
      fc
        .tuple(
          fc.array(fc.record({ event, tools, policy, answer }), { maxLength: 3 }),
          fc.array(fc.record({ tools: fc.constantFrom<readonly string[] | undefined>(undefined, ['shell', 'git', 'other']), policy, real: realArb, at: fc.nat() }), {
            minLength: minReal,
            maxLength: maxReal,
          }),
        )
        .map(([plain, reals]) => {
          const specs: Array<{ real?: string; event: Event; tools: readonly string[] | undefined; policy: 'deny' | 'allow' | undefined; answer?: Answer }> = [...plain];
          for (const r of reals) specs.splice(r.at % (specs.length + 1), 0, { real: r.real, event: ev, tools: r.tools, policy: r.policy });
          return specs.map((spec, i) =>
            spec.real !== undefined
              ? realHook(kind, `h${i}`, spec.event, spec.tools, spec.policy, spec.real)
              : interceptorHook(`h${i}`, spec.event, spec.tools, spec.policy, spec.answer ?? { kind: 'allow' }),
          );
        });

    it('WAT component hooks (metered) among interceptors (150 runs)', async () => {
      await fc.assert(
        fc.asyncProperty(event.chain((ev) => fc.tuple(callArb(ev), mixed('component', ev, 1, 4))), async ([call, hooks]) => check(call, hooks)),
        { numRuns: 150 },
      );
    });

    it('real subprocess hooks among interceptors (16 runs, 1–2 per chain)', async () => {
      await fc.assert(
        fc.asyncProperty(event.chain((ev) => fc.tuple(callArb(ev), mixed('subprocess', ev, 1, 2))), async ([call, hooks]) => check(call, hooks)),
        { numRuns: 16 },
      );
    }, 120_000);
  });
});
