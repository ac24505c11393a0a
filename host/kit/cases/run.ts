import type { HookEvent } from '../../contract/event.js';
import type { JsonValue } from '../../contract/json.js';
import type { AuditSink } from '../../runner/audit.js';
import { HookRunner } from '../../runner/runner.js';
import type { Outcome } from '../../contract/outcome.js';
import { actualOf, judgeChain, type Actual } from '../../cases/actual.js';
import { comparable, meets } from '../../cases/compare.js';
import type { LocatedCase } from '../../cases/parse.js';
import type { Expectation } from '../../cases/schema.js';
import type { ChainUnderTest, OpenedTarget } from './target.js';

/** The `hook` of a result for a case run through a config's whole chain. */
export const CHAIN = '(chain)';

/** How one case went. */
export type CaseResult =
  | {
      readonly name: string;
      readonly line: number;
      readonly status: 'pass' | 'fail';
      /** The hook under test; `(chain)` for a case run through a config's whole chain (see `chain`). */
      readonly hook: string;
      /** For a case that names no hook, against a config of several: the hooks of the chain at its event, in order. */
      readonly chain?: readonly string[];
      readonly event: HookEvent;
      readonly expect: Expectation;
      /** The hook's answer (the chain's outcome), restricted to what was compared (all of it when the decision differs). */
      readonly actual: Record<string, JsonValue>;
      /** False when the hook's tool matcher (every hook's of the chain) did not select the call (config hooks only). */
      readonly ran: boolean;
      readonly ms: number;
      /** What the hook wrote to stdout (a component guest) and stderr during the case, as the trail keeps it. */
      readonly stdout?: string;
      readonly stderr?: string;
    }
  | { readonly name: string; readonly line: number; readonly status: 'skip'; readonly reason: string }
  | { readonly name: string; readonly line: number; readonly status: 'error'; readonly reason: string };

/** What {@link runCases} found. `ok` when at least one case ran and none failed. */
export interface TestReport {
  readonly ok: boolean;
  readonly target: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly results: readonly CaseResult[];
}

/** Options of {@link runCases}. */
export interface RunCasesOptions {
  /** Run only the cases at this event; the others are skipped. */
  readonly event?: HookEvent;
  /** Told of each result as soon as it is known (for streaming output). */
  readonly onResult?: (result: CaseResult) => void;
  /** Where each case's audit events go (`basis-hooks test --audit`); the sink is not closed here. */
  readonly audit?: AuditSink;
}

/**
 * Run every case through a {@link HookRunner} holding just the hook under test, registered at the
 * case's own event — so a guest's off-event behaviour is exercised, and an answer for the wrong event
 * is the failure it is in production (`wrong_decision_for_event`). Cases run one after the other, in
 * file order, each against the same loaded hook.
 *
 * @example
 * const target = await openTarget({ kind: 'component', path: 'build/guard.wasm' });
 * try {
 *   const report = await runCases(target, parsed.cases);
 *   process.exitCode = report.ok ? 0 : 1;
 * } finally {
 *   await target.close();
 * }
 */
export async function runCases(target: OpenedTarget, cases: readonly LocatedCase[], options: RunCasesOptions = {}): Promise<TestReport> {
  const results: CaseResult[] = [];
  for (const { case: c, line } of cases) {
    const result = await runOne(target, c, line, options.event, options.audit);
    results.push(result);
    options.onResult?.(result);
  }
  const passed = results.filter((r) => r.status === 'pass').length;
  const failed = results.filter((r) => r.status === 'fail' || r.status === 'error').length;
  const skipped = results.filter((r) => r.status === 'skip').length;
  return { ok: failed === 0 && passed > 0, target: target.label, passed, failed, skipped, results };
}

async function runOne(target: OpenedTarget, c: LocatedCase['case'], line: number, event: HookEvent | undefined, audit: AuditSink | undefined): Promise<CaseResult> {
  if (event !== undefined && c.call.event !== event) return { name: c.name, line, status: 'skip', reason: `at ${c.call.event} (--event ${event})` };
  const picked = target.pick(c);
  if ('skip' in picked) return { name: c.name, line, status: 'skip', reason: picked.skip };
  if ('error' in picked) return { name: c.name, line, status: 'error', reason: picked.error };
  if ('chain' in picked) return runChain(picked.chain, c, line, audit);
  const { hook } = picked;
  // The runner must not close the shared transport: it outlives every case.
  const runner = new HookRunner([
    {
      name: hook.name,
      event: c.call.event,
      tools: hook.tools,
      when: hook.when,
      on_failure: hook.on_failure,
      transport: { kind: hook.transport.kind, invoke: (request, context) => hook.transport.invoke(request, context) },
    },
  ], audit === undefined ? {} : { audit });
  const started = performance.now();
  const outcome = await runner.run(c.call);
  const ms = performance.now() - started;
  const answered = actualOf(outcome, hook.name);
  const actual: Actual = answered ?? { decision: 'allow' };
  const entry = outcome.trail.find((e) => e.hook === hook.name);
  return {
    name: c.name,
    line,
    status: meets(actual, c.expect) ? 'pass' : 'fail',
    hook: hook.name,
    event: c.call.event,
    expect: c.expect,
    actual: comparable(actual, c.expect),
    ran: answered !== undefined,
    ms,
    ...(entry?.stdout === undefined ? {} : { stdout: entry.stdout }),
    ...(entry?.stderr === undefined ? {} : { stderr: entry.stderr }),
  };
}

/** The trail's stdout or stderr of every hook that wrote some, each line after its hook's name. */
function chainLog(outcome: Outcome, stream: 'stdout' | 'stderr'): string | undefined {
  const parts = outcome.trail.flatMap((e) => {
    const text = e[stream];
    return text === undefined || text === '' ? [] : [text.replace(/\n$/, '').split('\n').map((l) => `${e.hook}: ${l}`).join('\n')];
  });
  return parts.length === 0 ? undefined : `${parts.join('\n')}\n`;
}

/**
 * A case that names no hook, against a config of several: through the config's whole chain — every
 * hook in order, at its own event, with its tools, policy and mode, and the config's budget — judged on
 * the chain's outcome, exactly as `basis-hooks check --cases` judges it. Shadow hooks are waited for.
 */
async function runChain(chain: ChainUnderTest, c: LocatedCase['case'], line: number, audit: AuditSink | undefined): Promise<CaseResult> {
  // The runner must not close the shared transports: they outlive every case.
  const hooks = chain.hooks.map((h) => ({ ...h, transport: { kind: h.transport.kind, invoke: h.transport.invoke.bind(h.transport) } }));
  const runner = new HookRunner(hooks, { ...chain.options, ...(audit === undefined ? {} : { audit }) });
  const started = performance.now();
  const outcome = await runner.run(c.call, { wait_for_shadows: true });
  const ms = performance.now() - started;
  const verdict = judgeChain(outcome, c.expect);
  const stdout = chainLog(outcome, 'stdout');
  const stderr = chainLog(outcome, 'stderr');
  return {
    name: c.name,
    line,
    status: verdict.pass ? 'pass' : 'fail',
    hook: CHAIN,
    chain: chain.hooks.filter((h) => h.event === c.call.event).map((h) => h.name),
    event: c.call.event,
    expect: c.expect,
    actual: verdict.actual,
    ran: outcome.trail.length > 0,
    ms,
    ...(stdout === undefined ? {} : { stdout }),
    ...(stderr === undefined ? {} : { stderr }),
  };
}
