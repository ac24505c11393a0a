/**
 * CEL's cost model, the way cel-go's checker estimates it and its runtime tracks it: every operation
 * evaluated costs 1, and an operation that scans or builds a string, list or map costs 0.1 more per
 * character or element of its operands (a `contains` on a 1,000-character string: 101). A
 * comprehension (`all`, `exists`, `exists_one`, `map`, `filter`) pays its body once per element.
 *
 * {@link estimateCost} bounds an expression's cost as a polynomial in `n`, the size of the call's
 * values, at load; it also plans the runtime meter (meter.ts), which charges the same costs as the
 * expression runs, so the estimate is an upper bound of every charge.
 */
import { PolicyError } from '../../errors/policy-error.js';
import { callParts, comprehensionOf, isCelNode, operands, type CelNode, type Comprehension } from './ast.js';
import { REQUEST_VARIABLES } from './engine.js';
import { add, constant, max, mul, scale, sumOver, valueAt, variable, type Poly } from './poly.js';

/** The cost of one character or element an operation scans or builds. */
export const SIZE_COST = 0.1;

/** The size variable: the size of the call's values (characters of their JSON text). */
export const N = 'n';

/** Where the meter charges as an expression runs (see meter.ts). */
export interface MeterPlan {
  /** Charged once when the expression starts: every operation outside a comprehension's body. */
  readonly top: number;
  /** Each comprehension's body → its charge per element, and the comprehension. */
  readonly steps: ReadonlyMap<CelNode, { readonly units: number; readonly comprehension: Comprehension }>;
  /** Operands whose value's size is charged (× {@link SIZE_COST}) each time they are evaluated. */
  readonly sized: ReadonlySet<CelNode>;
  /** `matches` calls, run on the linear-time regular-expression engine. */
  readonly matches: readonly CelNode[];
}

/** An expression's estimated cost, and the meter's plan. */
export interface CostEstimate {
  /** An upper bound of the cost as a polynomial in {@link N}. */
  readonly cost: Poly;
  readonly plan: MeterPlan;
}

/** What a node costs and how large its value may be. */
interface Estimate {
  readonly cost: Poly;
  readonly size: Poly;
}

/** Functions whose cost grows with their operands' size (each scans, parses or copies them). */
const SCANNING = new Set(['contains', 'startsWith', 'endsWith', 'matches', 'indexOf', 'lastIndexOf', 'split', 'join', 'lowerAscii', 'upperAscii', 'trim', 'substring', 'string', 'bytes', 'json', 'base64', 'hex', 'int', 'uint', 'double', 'bool', 'timestamp', 'duration']);

/** Functions whose value is a number or a bool (size 1), whatever their operands. */
const SCALAR = new Set(['contains', 'startsWith', 'endsWith', 'matches', 'indexOf', 'lastIndexOf', 'size', 'int', 'uint', 'double', 'bool', 'at', 'type', 'hasValue']);

/** Functions whose string is at most as long as their receiver (or their one argument). */
const SHRINKING = new Set(['lowerAscii', 'upperAscii', 'trim', 'substring', 'dyn', 'value']);

/** Operators comparing or searching their operands. */
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Functions that read no more of their receiver than their (literal) argument is long. */
const PREFIX_BOUND = new Set(['startsWith', 'endsWith']);

/** Whether `node` is a literal (its size known at load). */
function isLiteral(node: CelNode): boolean {
  return (node.meta.alternate ?? node).op === 'value';
}

const ONE = constant(1);

class Estimator {
  readonly #sized = new Set<CelNode>();
  readonly #steps = new Map<CelNode, { readonly units: number; readonly comprehension: Comprehension }>();
  readonly #matches: CelNode[] = [];
  /** The static charge of the region being walked: the top, or the body of the innermost comprehension. */
  #region = 0;
  #elements = 0;

  constructor(private readonly where: string) {}

  plan(top: number): MeterPlan {
    return { top, steps: this.#steps, sized: this.#sized, matches: this.#matches };
  }

  get region(): number {
    return this.#region;
  }

  /** The cost and size of `node` with `scope` giving the size of each variable in reach. */
  walk(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const { alternate, macro } = node.meta;
    if (alternate !== undefined) return this.walk(alternate, scope);
    if (macro !== undefined) return this.#macro(node, scope);
    this.#region += 1;
    switch (node.op) {
      case 'value':
        return { cost: ONE, size: constant(literalSize(node.args)) };
      case 'id':
        return { cost: ONE, size: scope.get(String(node.args)) ?? ONE };
      case '.':
      case '.?': {
        const [object] = operands(node);
        const inner = object === undefined ? { cost: constant(0), size: ONE } : this.walk(object, scope);
        return { cost: add(inner.cost, ONE), size: inner.size };
      }
      case '[]':
      case '[?]': {
        const [object, index] = operands(node).map((child) => this.walk(child, scope));
        return { cost: add(ONE, object?.cost ?? ONE, index?.cost ?? ONE), size: object?.size ?? ONE };
      }
      case 'list': {
        const items = operands(node).map((child) => this.walk(child, scope));
        return { cost: add(ONE, ...items.map((i) => i.cost)), size: add(constant(items.length), ...items.map((i) => i.size)) };
      }
      case 'map': {
        const entries = (node.args as unknown[]).flatMap((entry) => (Array.isArray(entry) ? entry.filter(isCelNode) : [])).map((child) => this.walk(child, scope));
        return { cost: add(ONE, ...entries.map((e) => e.cost)), size: add(constant(entries.length), ...entries.map((e) => e.size)) };
      }
      case '?:': {
        const [condition, then, otherwise] = operands(node).map((child) => this.walk(child, scope));
        return { cost: add(ONE, condition?.cost ?? ONE, then?.cost ?? ONE, otherwise?.cost ?? ONE), size: max(then?.size ?? ONE, otherwise?.size ?? ONE) };
      }
      case '||':
      case '&&':
      case '!_':
      case '-_':
      case '-':
      case '*':
      case '/':
      case '%': {
        const parts = operands(node).map((child) => this.walk(child, scope));
        return { cost: add(ONE, ...parts.map((p) => p.cost)), size: ONE };
      }
      case '+':
        return this.#sizedOperation(node, operands(node), scope, 'sum');
      case 'in': {
        const [item, collection] = operands(node);
        const a = item === undefined ? undefined : this.walk(item, scope);
        // A literal list or map is searched at a cost known now; anything else is charged its size.
        const literalList = collection !== undefined && ['list', 'map'].includes((collection.meta.alternate ?? collection).op) && !this.#hasVariables(collection);
        const b = collection === undefined ? undefined : literalList ? this.#literalOperand(collection, scope) : this.#operand(collection, scope);
        return { cost: add(ONE, a?.cost ?? ONE, b?.cost ?? ONE), size: ONE };
      }
      case 'call':
      case 'rcall':
        return this.#call(node, scope);
      case 'comprehension':
        return this.#comprehension(node, scope);
      case 'accuValue':
      case 'accuInc':
        return { cost: ONE, size: ONE };
      case 'accuPush': {
        const [item] = operands(node);
        const inner = item === undefined ? { cost: ONE, size: ONE } : this.walk(item, scope);
        return { cost: add(ONE, inner.cost), size: inner.size };
      }
      default:
        if (COMPARISONS.has(node.op)) {
          const children = operands(node);
          // Against a literal, a comparison reads no more than the literal: its cost is known now.
          const literal = children.find(isLiteral);
          if (literal !== undefined && children.length === 2) return this.#boundedBy(literal, children, scope);
          return this.#sizedOperation(node, children, scope, 'scalar');
        }
        throw this.#refuse(node, `its cost cannot be estimated (operator ${JSON.stringify(node.op)} is not one this version knows)`);
    }
  }

  /** An operand whose size the operation pays for: charged at run time, or now when it is a literal. */
  #operand(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const inner = this.walk(node, scope);
    const literal = (node.meta.alternate ?? node).op === 'value';
    if (literal) this.#region += SIZE_COST * literalSize(node.args);
    else this.#sized.add(node);
    return { cost: add(inner.cost, scale(inner.size, SIZE_COST)), size: inner.size };
  }

  /** An operation whose reading is bounded by its literal operand: that literal's size, charged now. */
  #boundedBy(literal: CelNode, children: readonly CelNode[], scope: ReadonlyMap<string, Poly>): Estimate {
    const parts = children.map((child) => this.walk(child, scope));
    const size = literalSize((literal.meta.alternate ?? literal).args);
    this.#region += SIZE_COST * size;
    return { cost: add(ONE, constant(SIZE_COST * size), ...parts.map((p) => p.cost)), size: ONE };
  }

  /** A list or map literal of constants as an operand: its size, charged now. */
  #literalOperand(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const inner = this.walk(node, scope);
    const size = valueAt(inner.size, N, 0);
    this.#region += SIZE_COST * size;
    return { cost: add(inner.cost, constant(SIZE_COST * size)), size: inner.size };
  }

  /** Whether an expression reads any variable (a literal list of constants does not). */
  #hasVariables(node: CelNode): boolean {
    const target = node.meta.alternate ?? node;
    if (target.op === 'id') return true;
    if (target.meta.macro !== undefined) return true;
    const children = target.op === 'map' ? (target.args as unknown[]).flatMap((entry) => (Array.isArray(entry) ? entry.filter(isCelNode) : [])) : operands(target);
    return children.some((child) => this.#hasVariables(child));
  }

  /** `+` (its value is both operands) and comparisons (a bool), each paying for its operands' size. */
  #sizedOperation(node: CelNode, children: readonly CelNode[], scope: ReadonlyMap<string, Poly>, result: 'sum' | 'scalar'): Estimate {
    const parts = children.map((child) => this.#operand(child, scope));
    return { cost: add(ONE, ...parts.map((p) => p.cost)), size: result === 'sum' ? add(...parts.map((p) => p.size)) : ONE };
  }

  #call(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const { name, receiver, args } = callParts(node);
    const operandsOf = receiver === undefined ? args : [receiver, ...args];
    const [argument] = args;
    // x.startsWith('lit') reads at most the literal's length of x: a cost known now.
    if (PREFIX_BOUND.has(name) && receiver !== undefined && argument !== undefined && args.length === 1 && isLiteral(argument)) return this.#boundedBy(argument, operandsOf, scope);
    const scans = SCANNING.has(name);
    const parts = operandsOf.map((child) => (scans ? this.#operand(child, scope) : this.walk(child, scope)));
    if (name === 'matches') this.#matches.push(node);
    const cost = add(ONE, ...parts.map((p) => p.cost));
    const [first] = parts;
    const total = add(...parts.map((p) => p.size));
    if (SCALAR.has(name)) return { cost, size: ONE };
    if (SHRINKING.has(name)) return { cost, size: first?.size ?? ONE };
    if (name === 'split') return { cost, size: add(scale(first?.size ?? ONE, 2), ONE) };
    // join: the elements and a separator between each two (at most one per element).
    if (name === 'join') return { cost, size: mul(first?.size ?? ONE, add(ONE, parts[1]?.size ?? constant(0))) };
    if (name === 'base64' || name === 'hex') return { cost, size: scale(total, 2) };
    // string(), bytes(), json() and anything else: no larger than its operands and a number's digits.
    return { cost, size: add(total, constant(32)) };
  }

  #comprehension(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const c = comprehensionOf(node);
    const iterable = this.walk(c.iterable, scope);
    const init = this.walk(c.init, scope);
    const element = `e${++this.#elements}`;
    const inner = new Map(scope).set(c.iterVarName, variable(element));
    const outer = this.#region;
    this.#region = 0;
    const step = this.walk(c.step, inner);
    // The body's charge per element, and one more for the iteration itself.
    this.#steps.set(c.step, { units: this.#region + 1, comprehension: c });
    this.#region = outer;
    const cost = add(ONE, iterable.cost, init.cost, sumOver(add(step.cost, ONE), element, iterable.size));
    if (c.kind === 'quantifier') return { cost, size: ONE };
    // map/filter: a list of at most as many elements, each at most what the body pushes.
    return { cost, size: add(iterable.size, sumOver(step.size, element, iterable.size)) };
  }

  #macro(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const macro = node.meta.macro ?? {};
    this.#region += 1;
    if (macro.val !== undefined && macro.exp !== undefined && typeof macro.var === 'string') {
      const value = this.walk(macro.val, scope);
      const body = this.walk(macro.exp, new Map(scope).set(macro.var, value.size));
      return { cost: add(ONE, value.cost, body.cost), size: body.size };
    }
    if (Array.isArray(macro.args)) {
      // has(a.b.c): reads the fields, one by one.
      const parts = macro.args.filter(isCelNode).map((child) => this.walk(child, scope));
      return { cost: add(ONE, ...parts.map((p) => p.cost)), size: ONE };
    }
    throw this.#refuse(node, 'its cost cannot be estimated (a macro this version does not know)');
  }

  #refuse(node: CelNode, why: string): PolicyError {
    return new PolicyError(`${this.where}: ${why}`, { problem: 'cost_limit', location: { rule: this.where, column: node.start + 1 } });
  }
}

function literalSize(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.length;
  return 1;
}

/** The size of every request variable: at most the call's size (is_error: a bool). */
function requestScope(): Map<string, Poly> {
  const scope = new Map<string, Poly>();
  for (const [name, type] of Object.entries(REQUEST_VARIABLES)) scope.set(name, type === 'bool' ? ONE : variable(N));
  return scope;
}

/**
 * Estimate `root`'s cost (an upper bound, as a polynomial in the call's size {@link N}) and plan the
 * runtime meter. Throws a {@link PolicyError} (`cost_limit`) for a node it cannot estimate: an
 * expression whose cost is unknown is not run.
 */
export function estimateCost(root: CelNode, where: string): CostEstimate {
  const estimator = new Estimator(where);
  const { cost } = estimator.walk(root, requestScope());
  return { cost, plan: estimator.plan(estimator.region) };
}
