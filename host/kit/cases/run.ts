import type { HookEvent } from '../../contract/event.js';
import type { JsonValue } from '../../contract/json.js';
import type { AuditSink } from '../../runner/audit.js';
import { HookRunner } from '../../runner/runner.js';
import { actualOf, type Actual } from '../../cases/actual.js';
import { comparable, meets } from '../../cases/compare.js';
import type { LocatedCase } from '../../cases/parse.js';
import type { Expectation } from '../../cases/schema.js';
import type { OpenedTarget } from './target.js';

/** How one case went. */
export type CaseResult =
  | {
      readonly name: string;
      readonly line: number;
      readonly status: 'pass' | 'fail';
      readonly hook: string;
      readonly event: HookEvent;
      readonly expect: Expectation;
      /** The hook's answer, restricted to what was compared (all of it when the decision differs). */
      readonly actual: Record<string, JsonValue>;
      /** False when the hook's tool matcher did not select the call (config hooks only). */
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
