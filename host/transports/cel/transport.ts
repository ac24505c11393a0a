import type { HookEvent } from '../../contract/event.js';
import type { Explanation, ExplanationItem } from '../../contract/explanation.js';
import type { HookRequest } from '../../contract/request.js';
import { HookError, isHookError } from '../../errors/hook-error.js';
import { OptionsError } from '../../errors/options-error.js';
import { isPolicyError } from '../../errors/policy-error.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { CelFailure, compileExpression, type CelExpression } from './compile.js';
import { loadCelEngine } from './engine.js';
import { CelRules, type CelRule } from './rules.js';
import { variablesOf } from './variables.js';

/** Options of {@link celTransport}. */
export interface CelOptions {
  /** The rules, tried in order; the first whose `when` is true decides; no match is `allow`. */
  readonly rules: readonly CelRule[];
  /**
   * The event the hook runs at: at `pre_tool_use` an expression reading `output` or `is_error` is
   * refused at load (they do not exist before the call). Absent: either event.
   */
  readonly event?: HookEvent | undefined;
  /** The most each rule's `when` may cost on one call (default 100,000; see docs/policies.md). */
  readonly cost_limit?: number | undefined;
}

/** What a loaded CEL hook holds. */
export interface CelInfo {
  readonly rules: ReadonlyArray<{ readonly where: string; readonly decision: 'allow' | 'deny'; readonly estimate: string }>;
  readonly timings_ms: { readonly load: number };
}

/** A CEL hook. */
export interface CelTransport extends Transport {
  readonly kind: 'cel';
  /** Compile every rule (loading the CEL engine on first use). Rejects with `HookError('load_failed')` whose `cause` is the `PolicyError`. Idempotent. */
  load(): Promise<CelInfo>;
  check(): Promise<void>;
  explain(request: HookRequest): Promise<Explanation>;
}

interface CompiledRule {
  readonly rule: CelRule;
  readonly when: CelExpression;
  readonly answer: InvokeResult;
}

const ALLOW: InvokeResult = Object.freeze({ ok: true, response: Object.freeze({ decision: 'allow' as const }) });

function answerOf(rule: CelRule): InvokeResult {
  if (rule.decision === 'deny') return Object.freeze({ ok: true, response: Object.freeze({ decision: 'deny' as const, reason: rule.reason ?? '' }) });
  return rule.reason === undefined ? ALLOW : Object.freeze({ ok: true, response: Object.freeze({ decision: 'allow' as const, reason: rule.reason }) });
}

function notBool(when: CelExpression, value: unknown): InvokeResult {
  const type = value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value === 'object' ? 'map' : typeof value;
  return { ok: false, failure: { code: 'policy_error', message: `${when.where}: the expression is a ${type} on this call, not a bool` } };
}

/**
 * A hook written as CEL rules, evaluated in-process with `@marcbachmann/cel-js`: CEL cannot loop
 * forever, open a file or a socket, and each rule's evaluation is bounded by its cost limit — checked
 * at load against an estimate, enforced as it runs (`timeout` when spent). Rules compile at load; a
 * rule that does not parse or type-check, reads what its event does not have, or could cost more
 * than its limit is refused then, naming the rule and the column. An evaluation error on a call
 * (`input.command` of an input without one) is the hook's failure `policy_error`, never an allow.
 *
 * @example
 * const guard = celTransport({ event: 'pre_tool_use', rules: [
 *   { when: "tool_name == 'shell' && input.command.matches('rm\\\\s+-rf')", decision: 'deny', reason: 'no rm -rf' }] });
 * await guard.load();
 */
export function celTransport(options: CelOptions): CelTransport {
  const parsed = CelRules.safeParse(options.rules);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OptionsError(`cel option rules: ${issue === undefined ? 'invalid' : `${issue.path.length === 0 ? '' : `[${issue.path.join('].')}: `}${issue.message}`}`, { option: 'rules' });
  }
  const rules = parsed.data;
  const costLimit = options.cost_limit;
  if (costLimit !== undefined && (!Number.isSafeInteger(costLimit) || costLimit <= 0)) {
    throw new OptionsError(`cel option cost_limit must be a positive integer (got ${String(costLimit)})`, { option: 'cost_limit' });
  }
  let loading: Promise<{ compiled: readonly CompiledRule[]; info: CelInfo }> | undefined;
  let compiled: readonly CompiledRule[] | undefined;

  async function doLoad(): Promise<{ compiled: readonly CompiledRule[]; info: CelInfo }> {
    const started = performance.now();
    const engine = await loadCelEngine();
    try {
      const out = rules.map((rule, index) => ({ rule, when: compileExpression(engine, rule.when, { where: `cel[${index}].when`, event: options.event, cost_limit: costLimit }), answer: answerOf(rule) }));
      compiled = out;
      return { compiled: out, info: { rules: out.map((r) => ({ where: r.when.where, decision: r.rule.decision, estimate: r.when.estimate })), timings_ms: { load: performance.now() - started } } };
    } catch (error) {
      if (isPolicyError(error)) throw new HookError('load_failed', error.message, { cause: error });
      throw error;
    }
  }

  function load(): Promise<{ compiled: readonly CompiledRule[]; info: CelInfo }> {
    loading ??= doLoad();
    return loading;
  }

  function decide(rulesNow: readonly CompiledRule[], request: HookRequest): InvokeResult {
    // Made once per call, and only when a rule is evaluated.
    let variables: Record<string, unknown> | undefined;
    for (const rule of rulesNow) {
      // A rule about another tool or agent is false without evaluating it; for the others, only
      // what the guard does not decide is evaluated (guard.ts).
      const { guard, afterGuard } = rule.when;
      if (guard !== undefined && !guard(request)) continue;
      variables ??= variablesOf(request);
      const value = afterGuard === undefined ? rule.when.evaluate(variables) : afterGuard(variables);
      if (value === false) continue;
      if (value === true) return rule.answer;
      return value instanceof CelFailure ? { ok: false, failure: value.failure } : notBool(rule.when, value);
    }
    return ALLOW;
  }

  async function decideAfterLoad(request: HookRequest): Promise<InvokeResult> {
    try {
      return decide((await load()).compiled, request);
    } catch (error) {
      return { ok: false, failure: isHookError(error) ? error.toFailure() : { code: 'load_failed', message: String(error) } };
    }
  }

  return {
    kind: 'cel',
    // For telemetry (basis_hooks.isolation): evaluated on the caller's thread, as an interceptor is.
    isolation: 'in-process',
    async load() {
      return (await load()).info;
    },
    async check() {
      await load();
    },
    invoke(request: HookRequest, _context: InvokeContext): InvokeResult | Promise<InvokeResult> {
      return compiled === undefined ? decideAfterLoad(request) : decide(compiled, request);
    },
    async explain(request: HookRequest): Promise<Explanation> {
      const rulesNow = (await load()).compiled;
      const variables = variablesOf(request);
      const items: ExplanationItem[] = [];
      for (const [index, { rule, when }] of rulesNow.entries()) {
        const value = when.evaluate(variables);
        const base = { id: `cel[${index}]`, effect: rule.decision, where: when.where, source: when.source, ...(rule.reason === undefined ? {} : { reason: rule.reason }) };
        if (value instanceof CelFailure) {
          items.push({ ...base, status: 'error', message: value.failure.message });
          return { engine: 'cel', summary: `${when.where} failed (${value.failure.code}): the hook fails`, items };
        }
        if (value === true) {
          items.push({ ...base, status: 'matched' });
          return { engine: 'cel', summary: `cel[${index}] matched: ${rule.decision}${rule.reason === undefined ? '' : ` (${rule.reason})`}`, items };
        }
        items.push({ ...base, status: value === false ? 'not_matched' : 'error', ...(value === false ? {} : { message: 'not a bool' }) });
      }
      return { engine: 'cel', summary: `no rule matched: allow`, items };
    },
  };
}
