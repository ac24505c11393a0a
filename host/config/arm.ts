import { performance } from 'node:perf_hooks';
import { percentile } from '../audit/stats.js';
import type { FailureCode, HookFailure } from '../contract/failure.js';
import type { HookEvent } from '../contract/event.js';
import type { JsonValue } from '../contract/json.js';
import type { HookMode } from '../contract/mode.js';
import type { Outcome, TrailEntry } from '../contract/outcome.js';
import { actualOf, judgeChain, type Actual } from '../cases/actual.js';
import { comparable, meets } from '../cases/compare.js';
import type { LocatedCase } from '../cases/parse.js';
import type { Expectation, TestCase } from '../cases/schema.js';
import type { AuditSink } from '../runner/audit.js';
import { HookRunner } from '../runner/runner.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import { hookDigest } from './pin.js';
import { hookKind, type HooksConfig } from './schema.js';

/** Options of {@link armRunner} and {@link armConfig}. */
export interface ArmOptions {
  /**
   * Extra passes over the cases after the first, to measure warm latency (default 2). Every pass's
   * verdicts count: a case that passes once and fails later fails.
   */
  readonly warm_passes?: number;
  /** Told of each case once its first pass is done (for streaming output). */
  readonly onCase?: (result: ArmCaseResult) => void;
}

/** How one canary went. */
export interface ArmCaseResult {
  readonly name: string;
  /** Line in the cases file, when the cases came from one. */
  readonly line?: number;
  /** The hook the case is about; absent: the case is about the chain's outcome. */
  readonly hook?: string;
  readonly event: HookEvent;
  readonly status: 'pass' | 'fail';
  readonly expect: Expectation;
  /** What happened, restricted to what was compared (everything when the decision differs). */
  readonly actual: Record<string, JsonValue>;
  /** Why it failed beyond the diff (the hook did not run; a later pass answered differently). */
  readonly note?: string;
  /** The first pass's time through the whole chain, ms. */
  readonly ms: number;
}

/** One hook's verdict: does it load, and does it answer? */
export interface HookArmReport {
  readonly name: string;
  readonly event: HookEvent;
  readonly mode: HookMode;
  /** `command`, `component`, or the transport's kind for hooks not built from a config. */
  readonly kind: string;
  readonly loaded: boolean;
  /** Time to build and load it (configs only). */
  readonly load_ms?: number;
  /** Why it did not load. */
  readonly load_failure?: HookFailure;
  /** The digest of its pinned file (configs only; see `pinTarget`), and whether the config pins it. */
  readonly sha256?: string;
  readonly pinned?: boolean;
  /** Times it ran over every pass, and how many of those it answered (no failure). */
  readonly calls: number;
  readonly answered: number;
  readonly failures: Readonly<Partial<Record<FailureCode, number>>>;
  /** The cases naming this hook. */
  readonly cases: { readonly passed: number; readonly failed: number };
  /** Its first call's time (after loading), and the median of its later calls, in ms. */
  readonly first_call_ms?: number;
  readonly warm_ms?: number;
  /** What is wrong with it; empty when `ok`. */
  readonly problems: readonly string[];
  readonly ok: boolean;
}

/** What {@link armRunner} found: `ok` when every hook loaded and answered, and every case passed. */
export interface ArmReport {
  readonly ok: boolean;
  readonly passes: number;
  readonly hooks: readonly HookArmReport[];
  readonly cases: readonly ArmCaseResult[];
}

/** The hooks a report is about: from a runner (already loaded) or a config (loaded here). */
interface ArmHook {
  readonly name: string;
  readonly event: HookEvent;
  readonly mode: HookMode;
  readonly kind: string;
  readonly load?: { readonly ms: number; readonly failure?: HookFailure };
  readonly sha256?: string;
  readonly pinned?: boolean;
}

const DEFAULT_WARM_PASSES = 2;

/**
 * Run canary cases through a runner's real chain — every hook of the call's event, in order, with
 * their tools, policies, modes and the runner's budget — so a runtime can refuse to start with a hook
 * that cannot answer:
 *
 * - a case naming a `hook` is about that hook's answer inside the chain (its trail entry; for a shadow
 *   hook, what it proposed) — and fails when the chain never reached it;
 * - a case without one is about the chain's outcome in the cases' vocabulary: before the call
 *   `allow`, `modify` (with the final input) or `deny` (with the reason the model is told); after it
 *   `allow`, `replace` (with the final output and error flag) or `deny`; a `failure` expectation
 *   needs some hook to have failed with that code.
 *
 * Each hook is judged on every call it made: it must have been reached by at least one canary and
 * must never have failed where no case expected it to. The cases run once for the verdicts, then
 * `warm_passes` more times for warm latency (a case must pass every time). Shadow hooks are waited
 * for. The runner is not closed.
 *
 * @example
 * const runner = await createRunner(await loadConfig('hooks.json'));
 * const report = await armRunner(runner, parsed.cases);
 * if (!report.ok) { await runner.close(); throw new Error('a hook cannot answer: refusing to start'); }
 */
export async function armRunner(runner: HookRunner, cases: readonly (TestCase | LocatedCase)[], options: ArmOptions = {}): Promise<ArmReport> {
  const hooks: ArmHook[] = runner.hooks.map((h) => ({ name: h.name, event: h.event, mode: h.mode ?? 'enforce', kind: h.transport.kind }));
  return arm(runner, hooks, cases, options);
}

/** Options of {@link armConfig}. */
export interface ArmConfigOptions extends ArmOptions, BuildOptions {
  /** Where the canaries' audit events go (a config's own `audit` file is not used: canaries are not live traffic). */
  readonly audit?: AuditSink | readonly AuditSink[];
}

/**
 * {@link armRunner} for a config: build and load each hook (timing each load, recording each failure
 * with its code — a pin mismatch is `load_failed` naming both digests — without stopping at the
 * first), compute each hook's digest, then, when every hook loaded, run the cases through a runner of
 * all of them (with the config's budget and audit_payloads). Everything built is closed before it
 * resolves. Never rejects for a hook's problem.
 */
export async function armConfig(config: HooksConfig, cases: readonly (TestCase | LocatedCase)[], options: ArmConfigOptions = {}): Promise<ArmReport> {
  const built: BuiltHook[] = [];
  const hooks: ArmHook[] = [];
  try {
    for (const hook of config.hooks) {
      const kind = hookKind(hook);
      const started = performance.now();
      let failure: HookFailure | undefined;
      try {
        const one = await buildHook(hook, options);
        built.push(one);
        await one.load?.();
        await one.definition.transport.check?.();
      } catch (error) {
        failure = namedHookError(error, hook.name, kind === 'command' ? 'spawn_failed' : 'load_failed').toFailure();
      }
      const ms = performance.now() - started;
      const digest = await hookDigest(hook);
      hooks.push({
        name: hook.name,
        event: hook.event,
        mode: hook.mode ?? 'enforce',
        kind,
        load: failure === undefined ? { ms } : { ms, failure },
        ...('sha256' in digest ? { sha256: digest.sha256 } : {}),
        pinned: hook.sha256 !== undefined,
      });
    }
    if (hooks.some((h) => h.load?.failure !== undefined)) return unarmed(hooks, cases);
    const runner = new HookRunner(
      built.map((b) => b.definition),
      { budget_ms: config.budget_ms, audit_payloads: config.audit_payloads, audit: options.audit, telemetry_payloads: config.telemetry_payloads, telemetry_reasons: config.telemetry_reasons },
    );
    try {
      return await arm(runner, hooks, cases, options);
    } finally {
      // Closes the transports (again, below, for hooks built before a failure: close is idempotent) and the audit sinks.
      await runner.close();
    }
  } finally {
    await Promise.allSettled(built.map((b) => b.definition.transport.close?.()));
  }
}

function located(cases: readonly (TestCase | LocatedCase)[]): Array<{ readonly case: TestCase; readonly line?: number }> {
  return cases.map((c) => ('case' in c && 'line' in c ? c : { case: c as TestCase }));
}

/** A report for hooks some of which did not load: no canary runs through an incomplete chain. */
function unarmed(hooks: readonly ArmHook[], cases: readonly (TestCase | LocatedCase)[]): ArmReport {
  void cases;
  return {
    ok: false,
    passes: 0,
    cases: [],
    hooks: hooks.map((h) => {
      const failure = h.load?.failure;
      const problems = failure === undefined ? ['not run: another hook did not load, so the chain is incomplete'] : [`does not load: ${failure.code}: ${failure.message}`];
      return {
        ...report(h),
        loaded: failure === undefined,
        ...(failure === undefined ? {} : { load_failure: failure }),
        calls: 0,
        answered: 0,
        failures: {},
        cases: { passed: 0, failed: 0 },
        problems,
        ok: false,
      };
    }),
  };
}

function report(h: ArmHook): Pick<HookArmReport, 'name' | 'event' | 'mode' | 'kind' | 'load_ms' | 'sha256' | 'pinned'> {
  return {
    name: h.name,
    event: h.event,
    mode: h.mode,
    kind: h.kind,
    ...(h.load === undefined ? {} : { load_ms: h.load.ms }),
    ...(h.sha256 === undefined ? {} : { sha256: h.sha256 }),
    ...(h.pinned === undefined ? {} : { pinned: h.pinned }),
  };
}

interface Tally {
  readonly ms: number[];
  answered: number;
  readonly failures: Partial<Record<FailureCode, number>>;
  /** Failures no case expected, one message per case and code. */
  readonly unexpected: Map<string, string>;
  passed: number;
  failed: number;
}

async function arm(runner: HookRunner, hooks: readonly ArmHook[], input: readonly (TestCase | LocatedCase)[], options: ArmOptions): Promise<ArmReport> {
  const cases = located(input);
  const names = new Set(hooks.map((h) => h.name));
  const tallies = new Map<string, Tally>(hooks.map((h) => [h.name, { ms: [], answered: 0, failures: {}, unexpected: new Map(), passed: 0, failed: 0 }]));
  const warm = Math.max(0, Math.floor(options.warm_passes ?? DEFAULT_WARM_PASSES));
  const results: ArmCaseResult[] = [];

  for (let pass = 0; pass <= warm; pass++) {
    for (const [index, { case: c, line }] of cases.entries()) {
      const started = performance.now();
      const outcome = await runner.run(c.call, { wait_for_shadows: true });
      const ms = performance.now() - started;
      let verdict = judge(c, outcome, names);
      for (const entry of outcome.trail) {
        const tally = tallies.get(entry.hook);
        if (tally === undefined) continue;
        tally.ms.push(entry.ms);
        if (entry.failure === undefined) tally.answered += 1;
        else {
          tally.failures[entry.failure.code] = (tally.failures[entry.failure.code] ?? 0) + 1;
          const key = `${index}\0${entry.failure.code}`;
          if (!expectsFailure(c, entry) && !tally.unexpected.has(key)) {
            const when = pass === 0 ? '' : ` (on pass ${pass + 1})`;
            tally.unexpected.set(key, `failed in case "${c.name}"${when}: ${entry.failure.code}: ${entry.failure.message}`);
          }
        }
      }
      if (pass === 0) {
        const result: ArmCaseResult = {
          name: c.name,
          ...(line === undefined ? {} : { line }),
          ...(c.hook === undefined ? {} : { hook: c.hook }),
          event: c.call.event,
          status: verdict.pass ? 'pass' : 'fail',
          expect: c.expect,
          actual: verdict.actual,
          ...(verdict.note === undefined ? {} : { note: verdict.note }),
          ms,
        };
        results.push(result);
        options.onCase?.(result);
      } else {
        const first = results[index];
        if (first !== undefined && first.status === 'pass' && !verdict.pass) {
          verdict = { ...verdict, note: `passed on the first pass, failed on pass ${pass + 1}` };
          results[index] = { ...first, status: 'fail', actual: verdict.actual, note: verdict.note ?? '' };
        }
      }
    }
  }

  for (const result of results) {
    const tally = result.hook === undefined ? undefined : tallies.get(result.hook);
    if (tally === undefined) continue;
    if (result.status === 'pass') tally.passed += 1;
    else tally.failed += 1;
  }

  const hookReports = hooks.map((h): HookArmReport => {
    const tally = tallies.get(h.name) as Tally;
    const problems: string[] = [];
    if (tally.ms.length === 0) problems.push('no canary reached it (add a case whose call it matches)');
    problems.push(...tally.unexpected.values());
    if (tally.failed > 0) problems.push(`${tally.failed} of its cases failed`);
    const [first, ...later] = tally.ms;
    const warmMs = percentile(later, 50);
    return {
      ...report(h),
      loaded: true,
      calls: tally.ms.length,
      answered: tally.answered,
      failures: tally.failures,
      cases: { passed: tally.passed, failed: tally.failed },
      ...(first === undefined ? {} : { first_call_ms: first }),
      ...(warmMs === undefined ? {} : { warm_ms: warmMs }),
      problems,
      ok: problems.length === 0,
    };
  });
  const ok = hookReports.every((h) => h.ok) && results.every((r) => r.status === 'pass');
  return { ok, passes: warm + 1, hooks: hookReports, cases: results };
}

/** Did this case expect this trail entry's failure? */
function expectsFailure(c: TestCase, entry: TrailEntry): boolean {
  if (!('failure' in c.expect) || entry.failure === undefined) return false;
  if (c.hook !== undefined) return c.hook === entry.hook && c.expect.failure === entry.failure.code;
  return c.expect.failure === entry.failure.code;
}

interface Verdict {
  readonly pass: boolean;
  readonly actual: Record<string, JsonValue>;
  readonly note?: string;
}

function judge(c: TestCase, outcome: Outcome, names: ReadonlySet<string>): Verdict {
  if (c.hook !== undefined) {
    if (!names.has(c.hook)) return { pass: false, actual: {}, note: `there is no hook "${c.hook}" (hooks: ${[...names].join(', ')})` };
    const actual = hookActual(outcome, c.hook);
    if (actual === undefined) {
      return { pass: false, actual: {}, note: `hook "${c.hook}" did not run in this chain (its event or tools do not match the call, or an earlier hook denied it)` };
    }
    return { pass: meets(actual, c.expect), actual: comparable(actual, c.expect) };
  }
  return judgeChain(outcome, c.expect);
}

/** A hook's answer inside a chain; a shadow's proposed rewrite is on its own trail entry. */
function hookActual(outcome: Outcome, hook: string): Actual | undefined {
  const entry = outcome.trail.find((e) => e.hook === hook);
  if (entry?.shadow !== true || entry.failure !== undefined) return actualOf(outcome, hook);
  const reason = entry.reason === undefined ? {} : { reason: entry.reason };
  switch (entry.decision) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      return { decision: 'deny', reason: entry.reason ?? '' };
    case 'modify':
      return { decision: 'modify', input: entry.input ?? null, ...reason };
    case 'replace': {
      const isError = entry.is_error ?? (outcome.event === 'post_tool_use' ? outcome.is_error : false);
      return { decision: 'replace', output: entry.output ?? null, is_error: isError, ...reason };
    }
  }
}
