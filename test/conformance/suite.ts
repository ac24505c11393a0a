import { afterAll, describe, expect, it } from 'vitest';
import {
  HookRunner,
  type FailureCode,
  type HookDefinition,
  type Outcome,
  type Transport,
} from '../../host/index.js';
import { failureReason } from '../../host/runner/failure-reason.js';
import { BEHAVIOURS, type Behaviour } from './behaviours.js';
import { VECTORS, hookName, type ExpectedOutcome, type ExpectedTrailEntry } from './vectors.js';

/** Limits every fixture applies to the hooks it makes, so failure vectors finish quickly. */
export interface FixtureLimits {
  readonly timeout_ms: number;
  readonly max_output_bytes: number;
}

export const SUITE_LIMITS: FixtureLimits = { timeout_ms: 750, max_output_bytes: 64 * 1024 };

/**
 * A `hang` hook's limits: the same but a shorter deadline. It can only end as `timeout` whatever the
 * deadline, and a component that hangs spins a core until then — with ~50 hang vectors across the
 * guests, 750 ms each was ~40 s of the suite's CPU.
 */
export const HANG_LIMITS: FixtureLimits = { ...SUITE_LIMITS, timeout_ms: 200 };

/** How one transport (or one guest language of it) takes part in the conformance suite. */
export interface TransportFixture {
  /** Make a real hook that does `behaviour`, with the suite's limits. */
  create(behaviour: Behaviour, limits: FixtureLimits): Transport | Promise<Transport>;
  /** The failure code this transport's `crash` behaviour produces. */
  readonly crashCode: FailureCode;
  /** Behaviours this transport cannot express, each with the reason (vectors using them are skipped). */
  readonly unsupported?: Partial<Record<Behaviour, string>>;
  /**
   * Unsupported behaviours played by another transport (an in-process interceptor) so that the chain
   * vectors mixing them with this transport's hooks still run: a policy hook, which can only allow or
   * deny, is tested refusing an earlier hook's rewrite. A vector none of whose hooks is this
   * transport's is skipped (it would test nothing of it).
   */
  readonly borrowed?: { readonly behaviours: readonly Behaviour[]; create(behaviour: Behaviour, limits: FixtureLimits): Transport | Promise<Transport> };
  /** Called once after the suite. */
  teardown?(): Promise<void>;
}

function resolve(code: FailureCode | 'crash', fixture: TransportFixture): FailureCode {
  return code === 'crash' ? fixture.crashCode : code;
}

function comparableTrail(outcome: Outcome): ExpectedTrailEntry[] {
  return outcome.trail.map((entry) => {
    const out: { -readonly [K in keyof ExpectedTrailEntry]: ExpectedTrailEntry[K] } = { hook: entry.hook, decision: entry.decision };
    if (entry.reason !== undefined) out.reason = entry.reason;
    if (entry.failure !== undefined) out.failure = entry.failure.code;
    if (entry.policy !== undefined) out.policy = entry.policy;
    return out;
  });
}

function expectOutcome(outcome: Outcome, expected: ExpectedOutcome, fixture: TransportFixture): void {
  const trail = expected.trail.map((e) => (e.failure === undefined ? e : { ...e, failure: resolve(e.failure, fixture) }));
  expect(comparableTrail(outcome)).toEqual(trail);
  for (const entry of outcome.trail) expect(entry.ms).toBeGreaterThanOrEqual(0);
  expect(outcome.decision).toBe(expected.decision);
  const includes = (text: unknown, fragments: readonly string[]): void => {
    expect(typeof text).toBe('string');
    for (const f of fragments) expect(text).toContain(f === 'crash' ? fixture.crashCode : f);
  };
  if ('input' in expected) {
    expect(outcome.event).toBe('pre_tool_use');
    expect(outcome).toMatchObject({ input: expected.input, modified: expected.modified });
  } else if ('reason' in expected) {
    expect(outcome.event).toBe('pre_tool_use');
    if (outcome.decision !== 'deny' || !('reason' in outcome)) throw new Error('expected a pre deny');
    if (typeof expected.reason === 'string') expect(outcome.reason).toBe(expected.reason);
    else includes(outcome.reason, expected.reason.includes);
  } else {
    if (outcome.event !== 'post_tool_use') throw new Error(`expected a post outcome, got ${outcome.event}`);
    const out = expected.output;
    if (out !== null && typeof out === 'object' && !Array.isArray(out) && 'includes' in out && Array.isArray(out.includes)) {
      includes(outcome.output, out.includes as string[]);
    } else {
      expect(outcome.output).toEqual(out);
    }
    expect(outcome.is_error).toBe(expected.is_error);
    expect(outcome.replaced).toBe(expected.replaced);
  }
  // A hook that failed closed: the model is told its name, the code and the code's fixed description —
  // never the failure's message (which may quote stderr, paths or the request).
  const failed = outcome.trail.at(-1);
  if (outcome.decision === 'deny' && failed?.failure !== undefined && failed.policy === 'deny') {
    const told = outcome.event === 'pre_tool_use' ? (outcome as { reason: string }).reason : outcome.output;
    expect(told).toBe(failureReason(failed.hook, failed.failure.code, outcome.event));
  }
  if (outcome.event === 'pre_tool_use' && outcome.decision === 'allow') {
    expect(Object.keys(outcome).sort()).toEqual(['decision', 'event', 'input', 'modified', 'tool_call_id', 'trail']);
  }
}

/**
 * Run every conformance vector against one transport. Every transport and every guest language calls
 * this with its own fixture; the vectors and the expected outcomes are the same for all.
 */
export function runTransportSuite(name: string, fixture: TransportFixture): void {
  describe(`conformance: ${name}`, () => {
    const runners: HookRunner[] = [];
    afterAll(async () => {
      await Promise.all(runners.map((r) => r.close()));
      await fixture.teardown?.();
    });

    it('implements or explicitly skips every behaviour', () => {
      for (const b of Object.keys(fixture.unsupported ?? {})) expect(BEHAVIOURS).toContain(b);
      // Only what a transport cannot express is borrowed.
      for (const b of fixture.borrowed?.behaviours ?? []) expect(fixture.unsupported?.[b]).toBeDefined();
    });

    const borrowed = new Set(fixture.borrowed?.behaviours ?? []);
    for (const vector of VECTORS) {
      const missing = vector.hooks.find((h) => fixture.unsupported?.[h.behaviour] !== undefined && !borrowed.has(h.behaviour));
      if (missing) {
        it.skip(`${vector.name} — skipped: ${fixture.unsupported?.[missing.behaviour] ?? ''}`, () => {});
        continue;
      }
      if (vector.hooks.every((h) => borrowed.has(h.behaviour))) {
        it.skip(`${vector.name} — skipped: every hook of it is borrowed (${fixture.unsupported?.[vector.hooks[0]?.behaviour ?? 'allow'] ?? ''})`, () => {});
        continue;
      }
      it(vector.name, async () => {
        const hooks: HookDefinition[] = [];
        for (const [index, hook] of vector.hooks.entries()) {
          hooks.push({
            name: hookName(index, hook.behaviour),
            event: hook.event ?? vector.call.event,
            tools: hook.tools,
            on_failure: hook.on_failure,
            transport: await (borrowed.has(hook.behaviour) && fixture.borrowed !== undefined ? fixture.borrowed : fixture).create(hook.behaviour, hook.behaviour === 'hang' ? HANG_LIMITS : SUITE_LIMITS),
          });
        }
        const runner = new HookRunner(hooks);
        runners.push(runner);
        const outcome = await runner.run(vector.call);
        expectOutcome(outcome, vector.expect, fixture);
      });
    }
  });
}
