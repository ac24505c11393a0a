/**
 * Compile one CEL expression at load: parse it, type-check it against the request's fields, refuse
 * what could not run well on every call (a `pre_tool_use` expression reading `output`, a `matches`
 * pattern that cannot run in linear time, a cost over the limit or growing faster than the call), and
 * instrument it for the runtime meter. Every refusal is a {@link PolicyError} naming the rule or
 * expression, the line and the column.
 */
import type { HookEvent } from '../../contract/event.js';
import type { HookFailure } from '../../contract/failure.js';
import type { HookRequest } from '../../contract/request.js';
import { PolicyError, type PolicyLocation, type PolicyProblem } from '../../errors/policy-error.js';
import { callParts, comprehensionOf, isCelNode, operands, type CelNode } from './ast.js';
import { estimateCost, N } from './cost.js';
import { allNodes, installFastPaths, plainTest } from './fast.js';
import { guardOf, residualSource } from './guard.js';
import { POST_ONLY_VARIABLES, REQUEST_VARIABLES, type CelEngine } from './engine.js';
import { endMeter, instrument, isCostExceeded, lastCost, MatchesError, startMeter } from './meter.js';
import { degree, formatPoly, valueAt, type Poly } from './poly.js';
import { compilePattern, patternAtRunTime, type MatchesPattern } from './regex.js';

/** The default cost limit of an expression: see docs/policies.md for what it buys. */
export const DEFAULT_COST_LIMIT = 100_000;

/** The call size the load-time check holds the estimate to: an expression over its limit for a call of 1 KiB is refused. */
export const REFERENCE_CALL_SIZE = 1024;

/** What an expression is compiled for. */
export interface CompileOptions {
  /** Names the expression in every message: `cel[2].when`, `when`, `tools[1].cel`. */
  readonly where: string;
  /** The event the hook runs at (`pre_tool_use`: `output` and `is_error` do not exist); absent: either. */
  readonly event?: HookEvent | undefined;
  /** The most the expression may cost on one call (default {@link DEFAULT_COST_LIMIT}). */
  readonly cost_limit?: number | undefined;
  /** The only request variables it may read (a `tools` entry: `tool_name`); absent: all of them. */
  readonly variables?: readonly string[] | undefined;
}

/** A compiled expression. */
export interface CelExpression {
  readonly source: string;
  readonly where: string;
  /** The load-time estimate, a polynomial in the call's size `n`: `3 + 0.2·n`. */
  readonly estimate: string;
  /** The same estimate as a polynomial (see poly.ts). */
  readonly bound: Poly;
  /**
   * When false for a request, the expression is false on it (guard.ts): a cheap test of its top-level
   * `tool_name == '…'`-like conditions, checked before evaluating. Absent: no such condition.
   */
  readonly guard: ((request: HookRequest) => boolean) | undefined;
  /**
   * On a request whose guard holds, the expression's value: the rest of it evaluated alone (or
   * nothing to evaluate), its failures reported as the whole expression's (re-evaluated for the
   * message, so the rule and column are the written ones). Absent without a guard.
   */
  readonly afterGuard: ((variables: Readonly<Record<string, unknown>>) => unknown) | undefined;
  readonly cost_limit: number;
  /**
   * Evaluate on the request's variables: the expression's value, or a {@link CelFailure} —
   * `policy_error` naming the expression, its line and column and the engine's message; `timeout`
   * when it spent its cost limit. (No result object per evaluation: a hook evaluates many.)
   */
  evaluate(variables: Readonly<Record<string, unknown>>): unknown;
}

/** An evaluation that failed (see {@link CelExpression.evaluate}). */
export class CelFailure {
  constructor(readonly failure: HookFailure) {}
}

/** 1-based line and column of an offset in `source`. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, Math.max(0, offset)).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function at(source: string, where: string, offset: number | undefined): { text: string; location: PolicyLocation } {
  if (offset === undefined) return { text: where, location: { rule: where } };
  const { line, column } = positionOf(source, offset);
  const text = source.includes('\n') ? `${where}, line ${line} column ${column}` : `${where}, column ${column}`;
  return { text, location: { rule: where, line, column } };
}

/** The library's one-line summary of an error (its message adds a source excerpt). */
function summary(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { summary?: unknown }).summary;
    return typeof short === 'string' && short !== '' ? short : (error.message.split('\n')[0] ?? error.message);
  }
  return String(error);
}

function offsetOf(error: unknown): number | undefined {
  const range = (error as { range?: { start?: unknown } } | null)?.range;
  return typeof range?.start === 'number' ? range.start : undefined;
}

function refuse(source: string, where: string, problem: PolicyProblem, offset: number | undefined, message: string, cause?: unknown): PolicyError {
  const place = at(source, where, offset);
  return new PolicyError(`${place.text}: ${message}`, { problem, location: place.location, ...(cause === undefined ? {} : { cause }) });
}

/** Every `id` node reading one of `names` (not a comprehension's or bind's own variable of that name). */
function readsOf(root: CelNode, names: readonly string[]): CelNode[] {
  const found: CelNode[] = [];
  const visit = (node: CelNode, bound: ReadonlySet<string>): void => {
    const { alternate, macro } = node.meta;
    if (alternate !== undefined) return visit(alternate, bound);
    if (macro !== undefined) {
      if (macro.val !== undefined && macro.exp !== undefined && typeof macro.var === 'string') {
        visit(macro.val, bound);
        visit(macro.exp, new Set(bound).add(macro.var));
      }
      for (const child of macro.args?.filter(isCelNode) ?? []) visit(child, bound);
      return;
    }
    if (node.op === 'id') {
      const name = String(node.args);
      if (names.includes(name) && !bound.has(name)) found.push(node);
      return;
    }
    if (node.op === 'comprehension') {
      const c = comprehensionOf(node);
      visit(c.iterable, bound);
      visit(c.init, bound);
      visit(c.step, new Set(bound).add(c.iterVarName));
      return;
    }
    if (node.op === 'call' || node.op === 'rcall') {
      const { receiver, args } = callParts(node);
      for (const child of receiver === undefined ? args : [receiver, ...args]) visit(child, bound);
      return;
    }
    if (node.op === 'map') {
      for (const entry of node.args as unknown[]) if (Array.isArray(entry)) for (const child of entry.filter(isCelNode)) visit(child, bound);
      return;
    }
    for (const child of operands(node)) visit(child, bound);
  };
  visit(root, new Set());
  return found;
}

/** The literal pattern of each `matches` call of the tree (macro expansions included). */
function matchesLiterals(root: CelNode): Array<{ readonly call: CelNode; readonly literal: CelNode & { readonly args: string } }> {
  const out: Array<{ readonly call: CelNode; readonly literal: CelNode & { readonly args: string } }> = [];
  for (const node of allNodes(root)) {
    if (node.op !== 'rcall' || callParts(node).name !== 'matches') continue;
    const pattern = callParts(node).args[0];
    const literal = pattern === undefined ? undefined : (pattern.meta.alternate ?? pattern);
    if (literal?.op === 'value' && typeof literal.args === 'string') out.push({ call: node, literal: literal as CelNode & { readonly args: string } });
  }
  return out;
}

/** Every literal `matches` pattern compiled now, by its text (a bad one is refused, with its column). */
function literalPatterns(source: string, where: string, root: CelNode): Map<string, MatchesPattern> {
  const out = new Map<string, MatchesPattern>();
  for (const { literal } of matchesLiterals(root)) {
    if (out.has(literal.args)) continue;
    const compiled = compilePattern(literal.args);
    if (!compiled.ok) throw refuse(source, where, 'regex', literal.start, `matches: ${compiled.why}`);
    out.set(literal.args, compiled.pattern);
  }
  return out;
}

function checkCost(source: string, where: string, cost: Poly, limit: number): void {
  const estimate = formatPoly(cost, N);
  if (degree(cost, N) >= 2) {
    throw refuse(source, where, 'cost_limit', undefined, `its cost grows faster than the call (estimated ${estimate}, n = the size of the call's values): a comprehension over the call inside another, or one whose body scans the whole call for every element; scan each element instead`);
  }
  const reference = valueAt(cost, N, REFERENCE_CALL_SIZE);
  if (reference > limit) {
    throw refuse(source, where, 'cost_limit', undefined, `its estimated cost ${estimate} is ${Math.ceil(reference)} for a call of ${REFERENCE_CALL_SIZE} characters, over its cost limit ${limit}`);
  }
}

/**
 * Compile `source` in `engine`'s environment for the hook's `event`. The expression must be a bool
 * (or `dyn`, checked when it runs). Throws a {@link PolicyError}: `syntax` (does not parse),
 * `validation` (does not type-check, or is not a bool), `absent_field`, `regex`, `cost_limit`.
 *
 * @example
 * const rule = compileExpression(engine, "tool_name == 'shell' && input.command.contains('rm -rf')", { where: 'cel[0].when', event: 'pre_tool_use' });
 * rule.evaluate({ tool_name: 'shell', input: { command: 'ls' }, ... }) // { ok: true, value: false }
 */
export function compileExpression(engine: CelEngine, source: string, options: CompileOptions): CelExpression {
  const { where } = options;
  const limit = options.cost_limit ?? DEFAULT_COST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit <= 0) throw refuse(source, where, 'cost_limit', undefined, `the cost limit must be a positive integer (got ${String(options.cost_limit)})`);
  if (source.trim() === '') throw refuse(source, where, 'syntax', undefined, 'the expression is empty');
  let parsed: ReturnType<CelEngine['env']['parse']>;
  try {
    parsed = engine.env.parse(source);
  } catch (error) {
    throw refuse(source, where, 'syntax', offsetOf(error), summary(error), error);
  }
  const checked = parsed.check();
  if (!checked.valid) throw refuse(source, where, 'validation', offsetOf(checked.error), summary(checked.error), checked.error);
  if (checked.type !== 'bool' && checked.type !== 'dyn') throw refuse(source, where, 'validation', 0, `the expression is a ${String(checked.type)}; it must be a bool`);
  const root: unknown = parsed.ast;
  if (!isCelNode(root)) throw refuse(source, where, 'syntax', undefined, 'the CEL library returned a tree this version cannot read (an unsupported @marcbachmann/cel-js version)');
  if (options.variables !== undefined) {
    const others = Object.keys(REQUEST_VARIABLES).filter((name) => !options.variables?.includes(name));
    const [read] = readsOf(root, others);
    if (read !== undefined) throw refuse(source, where, 'validation', read.start, `${String(read.args)} cannot be read here: only ${options.variables.join(', ')} (match on the rest of the call with the hook's "when")`);
  }
  if (options.event === 'pre_tool_use') {
    const [read] = readsOf(root, POST_ONLY_VARIABLES);
    if (read !== undefined) throw refuse(source, where, 'absent_field', read.start, `${String(read.args)} does not exist before the call (this hook runs at pre_tool_use)`);
  }
  // Patterns first: a literal one's weight is part of the estimate.
  const byText = literalPatterns(source, where, root);
  // A pattern known now but not written as the call's argument (a literal list's element, a bound
  // literal) is weighed too: compiled when the call runs, it is the same pattern.
  const weightOf = (pattern: string): number | undefined => {
    const known = byText.get(pattern) ?? patternAtRunTime(pattern);
    return 'weight' in known ? known.weight : known.ok ? known.pattern.weight : undefined;
  };
  const { cost, plan } = estimateCost(root, where, weightOf);
  checkCost(source, where, cost, limit);
  const guard = guardOf(root);
  // Printed before instrumenting (the printer reads the tree as the parser made it).
  const rest = guard === undefined ? undefined : residualSource(root, (node) => engine.serialize(node));
  // The fast paths first: the meter's wrappers (instrument) then wrap them where they meter a node.
  installFastPaths(allNodes(root));
  const patterns = new Map<CelNode, MatchesPattern>();
  for (const { call, literal } of matchesLiterals(root)) {
    const compiled = byText.get(literal.args);
    if (compiled !== undefined) patterns.set(call, compiled);
  }
  instrument(plan, patterns);
  const plain = plainTest(root, (call) => patterns.get(call), plan.top, limit);
  const estimate = formatPoly(cost, N);

  const failed = (error: unknown): CelFailure => {
    const node = error instanceof MatchesError ? error.node : undefined;
    const place = at(source, where, node?.start ?? offsetOf(error));
    return new CelFailure({ code: 'policy_error', message: `${place.text}: ${error instanceof MatchesError ? error.message : summary(error)}` });
  };
  const overLimit = (spent: number): CelFailure =>
    new CelFailure({ code: 'timeout', message: `${where}: the expression passed its cost limit ${limit} (spent ${Math.ceil(spent)}; estimated ${estimate}, n = the size of the call's values)` });
  const self: CelExpression = {
    source,
    where,
    estimate,
    bound: cost,
    guard,
    afterGuard: undefined,
    cost_limit: limit,
    evaluate(variables) {
      // The commonest shape answered in plain JavaScript, when the request has it (fast.ts).
      if (plain !== undefined) {
        const answer = plain(variables);
        if (answer !== undefined) return answer;
      }
      let value: unknown;
      try {
        startMeter(limit, plan.top);
        value = parsed(variables);
      } catch (error) {
        return endMeter() || isCostExceeded(error) ? overLimit(lastCost()) : failed(error);
      }
      return endMeter() ? overLimit(lastCost()) : value;
    },
  };
  if (rest === undefined) return self;
  if (rest === 'true') return { ...self, afterGuard: () => true };
  // The rest compiles (it is part of a program that did); its own cost is at most the whole's.
  const residual = compileExpression(engine, rest, { ...options, cost_limit: limit });
  return {
    ...self,
    afterGuard: (variables) => {
      const value = residual.evaluate(variables);
      return value instanceof CelFailure ? self.evaluate(variables) : value;
    },
  };
}
