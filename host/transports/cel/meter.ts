/**
 * The runtime side of CEL's cost limit: an expression's nodes are wrapped (once, at load) so that it
 * charges, as it runs, what cost.ts estimated — its operations outside comprehensions once, each
 * comprehension's body once per element, and 0.1 per character or element of every operand an
 * operation scans — and stops when the charge passes the limit.
 *
 * One meter per process is enough: an evaluation runs synchronously from start to end (the library
 * registers no async function here), so evaluations never interleave.
 */
import { callParts, type CelEvaluator, type CelNode, type EvalFn } from './ast.js';
import { matchCost, SIZE_COST, type MeterPlan, type SizeMode } from './cost.js';
import { patternAtRunTime, type CompiledPattern, type MatchesPattern } from './regex.js';

let spent = 0;
let limit = Number.POSITIVE_INFINITY;
let over = false;

/** Thrown inside an evaluation when the limit is passed (CEL's `||`/`&&` may absorb it: see {@link endMeter}). */
class CostExceeded extends Error {
  override readonly name = 'CostExceeded';
}
const EXCEEDED = new CostExceeded('the cost limit was exceeded');

function charge(units: number): void {
  spent += units;
  if (spent > limit) {
    over = true;
    throw EXCEEDED;
  }
}

/** Start metering an evaluation: its fixed charge now, the rest as it runs. */
export function startMeter(costLimit: number, fixed: number): void {
  spent = 0;
  limit = costLimit;
  over = false;
  charge(fixed);
}

/**
 * End an evaluation: whether it passed the limit at any point — even if CEL's error-absorbing
 * `||`/`&&` or a quantifier swallowed the stop, the evaluation is over its limit and its value is not
 * used. What it spent stays readable ({@link lastCost}) until the next evaluation starts.
 */
export function endMeter(): boolean {
  limit = Number.POSITIVE_INFINITY;
  return over;
}

/** Record what an evaluation answered without the meter spent (fast.ts's plain test): the cost it would have charged. */
export function recordCost(units: number): void {
  spent = units;
  over = false;
}

/** What the last evaluation spent (for its failure message, and tests). */
export function lastCost(): number {
  return spent;
}

/** Whether an error thrown by an evaluation is the meter's stop. */
export function isCostExceeded(error: unknown): boolean {
  return error === EXCEEDED;
}

/** A value's size as the cost model counts it: characters, elements or entries. */
export function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return 0;
}

function isMap(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof Set);
}

/**
 * Everything in a value, as its charge counts it — a string's characters, and for a list or a map one
 * for each element or entry plus what it holds (keys included): never more than its JSON text. The walk
 * stops once it has counted more than `within` (the charge then stops the evaluation anyway), so it
 * costs no more than what the evaluation may still spend.
 */
export function deepSize(value: unknown, within: number): number {
  let total = 0;
  const pending: object[] = [];
  // Strings and scalars are counted where they are met; only containers wait their turn.
  const count = (item: unknown): void => {
    if (typeof item === 'string') total += item.length;
    else if (item instanceof Uint8Array) total += item.length;
    else if (item !== null && typeof item === 'object') {
      total += 1;
      pending.push(item);
    } else total += 1;
  };
  count(value);
  while (pending.length > 0 && total <= within) {
    const item = pending.pop() as object;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length && total <= within; i++) {
        total += 1;
        count(item[i]);
      }
    } else if (item instanceof Map) {
      for (const [key, entry] of item) {
        if (total > within) break;
        total += 1;
        count(key);
        count(entry);
      }
    } else if (item instanceof Set) {
      for (const entry of item) {
        if (total > within) break;
        total += 1;
        count(entry);
      }
    } else {
      for (const key in item) {
        if (total > within) break;
        if (!Object.hasOwn(item, key)) continue;
        total += 1 + key.length;
        count((item as Record<string, unknown>)[key]);
      }
    }
  }
  return total;
}

/** A value's size measured as `mode` says (see {@link SizeMode}), counting no further than `within`. */
export function measure(value: unknown, mode: SizeMode, within: number): number {
  switch (mode) {
    case 'top':
      return sizeOf(value);
    case 'deep':
      return deepSize(value, within);
    case 'deep-list':
      return isMap(value) || value instanceof Map ? 0 : deepSize(value, within);
    case 'count':
      return Array.isArray(value) ? 0 : sizeOf(value);
    case 'keys':
      return isMap(value) || value instanceof Map ? sizeOf(value) : 0;
  }
}

/** A failure of `matches` on a call: the receiver or the pattern is not a string, or the pattern cannot run. */
export class MatchesError extends Error {
  override readonly name = 'MatchesError';
  constructor(
    message: string,
    readonly node: CelNode,
  ) {
    super(message);
  }
}

/** How a node evaluates, as the library would have it, whatever it has been wrapped in since. */
function evaluationOf(node: CelNode): EvalFn {
  if (Object.hasOwn(node, 'evaluate')) return node.evaluate;
  const { alternate, macro, evaluate } = node.meta;
  if (alternate !== undefined) return (ev, _node, context) => alternate.evaluate(ev, alternate, context);
  if (macro?.evaluate !== undefined) {
    const run = macro.evaluate;
    return (ev, _node, context) => run.call(macro, ev, macro as unknown as CelNode, context);
  }
  if (evaluate === undefined) throw new Error(`cel node ${node.op} has no evaluation`);
  return (ev, self, context) => evaluate.call(node, ev, self, context);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'map' : typeof value === 'bigint' ? 'int' : typeof value;
}

/**
 * Wrap the nodes of a parsed (and type-checked) expression as `plan` says. `literalPatterns` holds the
 * `matches` calls whose pattern was a string literal, compiled at load; the others compile their
 * pattern when they run.
 */
export function instrument(plan: MeterPlan, literalPatterns: ReadonlyMap<CelNode, MatchesPattern>): void {
  // `matches` first: a call that is also an operand keeps its replacement inside the operand's wrapper.
  for (const node of plan.matches) {
    const { receiver, args } = callParts(node);
    const [pattern] = args;
    if (receiver === undefined || pattern === undefined) continue;
    const literal = literalPatterns.get(node);
    node.evaluate = (ev: CelEvaluator, _self, context) => {
      const text = ev.run(receiver, context);
      const source = literal ?? ev.run(pattern, context);
      if (typeof text !== 'string') throw new MatchesError(`matches: the text is a ${typeName(text)}, not a string`, node);
      let compiled = literal;
      if (compiled === undefined) {
        if (typeof source !== 'string') throw new MatchesError(`matches: the pattern is a ${typeName(source)}, not a string`, node);
        const atRunTime: CompiledPattern = patternAtRunTime(source);
        if (!atRunTime.ok) throw new MatchesError(`matches: ${atRunTime.why}`, node);
        compiled = atRunTime.pattern;
      }
      // Paid before the engine runs: a match the limit cannot afford never starts.
      const quick = compiled.quick(text);
      charge(matchCost(text.length, compiled.weight, quick === undefined));
      return quick ?? compiled.engine(text);
    };
  }
  for (const [node, mode] of plan.sized) {
    const own = Object.hasOwn(node, 'evaluate') || node.meta.alternate !== undefined || node.meta.macro !== undefined;
    const plain = node.meta.evaluate;
    if (mode !== 'top') {
      const inner = evaluationOf(node);
      node.evaluate = (ev, self, context) => {
        const value = inner(ev, self, context);
        charge(SIZE_COST * measure(value, mode, (limit - spent) / SIZE_COST));
        return value;
      };
      continue;
    }
    if (!own && plain !== undefined) {
      // The usual operand (a field, a variable): its own evaluation called directly, no extra hop.
      node.evaluate = function (this: CelNode, ev, self, context) {
        const value = plain.call(this, ev, self, context);
        spent += SIZE_COST * sizeOf(value);
        if (spent > limit) charge(0);
        return value;
      };
      continue;
    }
    const inner = evaluationOf(node);
    node.evaluate = (ev, self, context) => {
      const value = inner(ev, self, context);
      charge(SIZE_COST * sizeOf(value));
      return value;
    };
  }
  for (const [node, { units, comprehension }] of plan.steps) {
    const inner = evaluationOf(node);
    // `all` and `exists` hold a body's error and go on to the next element; past the limit, the body
    // answers at once the value that ends their loop (the evaluation is over its limit: its value is
    // not used), so a long list cannot keep a stopped evaluation running.
    const condition = comprehension.condition;
    const stop = comprehension.errorsAreFatal === true || condition === undefined ? undefined : [true, false].find((value) => !condition(value));
    node.evaluate = (ev, self, context) => {
      if (over && stop !== undefined) return stop;
      charge(units);
      return inner(ev, self, context);
    };
  }
}
