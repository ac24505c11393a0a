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

/**
 * How an operand's value is measured for its charge (× {@link SIZE_COST}), by what the operation does
 * with it: `top` its characters, elements or entries; `deep` everything in it (an equality or a `join`
 * reads all of it: characters of every string, every element and entry — at most its JSON text);
 * `deep-list` deep when a list or a string, nothing when a map (`in` a map is one look-up); `count`
 * a string's characters or a map's keys, nothing for a list (`size()`: a list knows its length);
 * `keys` a map's keys, nothing otherwise (a comprehension over a map lists its keys first).
 */
export type SizeMode = 'top' | 'deep' | 'deep-list' | 'count' | 'keys';

/**
 * The cost of a `matches` on a text of `textLength` characters. Every match pays what `contains` would
 * (0.1 per character, and 1: the literal fast paths of pattern.ts read the text once); a match the
 * linear-time engine runs (`engine`) pays that again times {@link MATCH_WEIGHT_COST} × the pattern's
 * weight, the size of the automaton the engine runs per character (never less than the pattern's
 * length: pattern.ts). cel-go charges the text's cost times a quarter of the pattern's *length*; V8's
 * linear-time engine is slower than RE2 per character and automaton state (docs/policies.md, figures),
 * so the weight, not the length, is what is priced.
 */
export function matchCost(textLength: number, weight: number, engine: boolean): number {
  const scan = Math.ceil(SIZE_COST * (1 + textLength));
  return engine ? scan * (1 + Math.ceil(MATCH_WEIGHT_COST * weight)) : scan;
}

/** What a match on the engine costs per character of the text (× 0.1) and unit of the pattern's weight. */
export const MATCH_WEIGHT_COST = 1;

/**
 * An upper bound of a pattern's weight per character of its source (counting one more), for a pattern known only when the
 * call runs: V8's linear-time engine copies a repeated part at most 16 times over (it refuses the
 * pattern beyond that), and the heaviest atom, `\S`, weighs 18 per character (a property test holds
 * the weights of random patterns to this bound: test/transports/cel/regex.test.ts).
 */
export const MAX_WEIGHT_PER_CHAR = 320;

/** Where the meter charges as an expression runs (see meter.ts). */
export interface MeterPlan {
  /** Charged once when the expression starts: every operation outside a comprehension's body. */
  readonly top: number;
  /** Each comprehension's body → its charge per element, and the comprehension. */
  readonly steps: ReadonlyMap<CelNode, { readonly units: number; readonly comprehension: Comprehension }>;
  /** Operands whose value's size is charged (× {@link SIZE_COST}) each time they are evaluated, and how it is measured. */
  readonly sized: ReadonlyMap<CelNode, SizeMode>;
  /** `matches` calls, run on the linear-time regular-expression engine: each charges {@link matchCost} before it runs. */
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
  readonly #sized = new Map<CelNode, SizeMode>();
  readonly #steps = new Map<CelNode, { readonly units: number; readonly comprehension: Comprehension }>();
  readonly #matches: CelNode[] = [];
  /**
   * Variables in reach whose value is one of a few strings known now (a comprehension over a literal
   * list of strings, a `cel.bind` to a string literal): a `matches` on one is priced by their weights.
   */
  #constants = new Map<string, readonly string[] | undefined>();
  /** The static charge of the region being walked: the top, or the body of the innermost comprehension. */
  #region = 0;
  #elements = 0;

  constructor(
    private readonly where: string,
    /** The weight of a literal `matches` pattern (compiled at load), or undefined when it does not compile. */
    private readonly weightOf: (pattern: string) => number | undefined,
  ) {}

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
        const b = collection === undefined ? undefined : literalList ? this.#literalOperand(collection, scope) : this.#operand(collection, scope, 'deep-list');
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
          return this.#sizedOperation(node, children, scope, 'scalar', 'deep');
        }
        throw this.#refuse(node, `its cost cannot be estimated (operator ${JSON.stringify(node.op)} is not one this version knows)`);
    }
  }

  /** An operand whose size the operation pays for: charged at run time (measured as `mode` says), or now when it is a literal. */
  #operand(node: CelNode, scope: ReadonlyMap<string, Poly>, mode: SizeMode = 'top'): Estimate {
    const inner = this.walk(node, scope);
    const literal = (node.meta.alternate ?? node).op === 'value';
    if (literal) this.#region += SIZE_COST * literalSize(node.args);
    else this.#sized.set(node, mode);
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
  #sizedOperation(node: CelNode, children: readonly CelNode[], scope: ReadonlyMap<string, Poly>, result: 'sum' | 'scalar', mode: SizeMode = 'top'): Estimate {
    const parts = children.map((child) => this.#operand(child, scope, mode));
    return { cost: add(ONE, ...parts.map((p) => p.cost)), size: result === 'sum' ? add(...parts.map((p) => p.size)) : ONE };
  }

  #call(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const { name, receiver, args } = callParts(node);
    const operandsOf = receiver === undefined ? args : [receiver, ...args];
    const [argument] = args;
    // x.startsWith('lit') reads at most the literal's length of x: a cost known now.
    if (PREFIX_BOUND.has(name) && receiver !== undefined && argument !== undefined && args.length === 1 && isLiteral(argument)) return this.#boundedBy(argument, operandsOf, scope);
    if (name === 'matches' && receiver !== undefined && argument !== undefined) return this.#matchesCall(node, receiver, argument, scope);
    const scans = SCANNING.has(name);
    // size(): a string's characters or a map's keys are counted (a list knows its length); join reads every element.
    const mode: SizeMode = name === 'size' ? 'count' : name === 'join' ? 'deep' : 'top';
    const parts = operandsOf.map((child) => (scans || name === 'size' ? this.#operand(child, scope, mode) : this.walk(child, scope)));
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

  /**
   * `text.matches(pattern)`: {@link matchCost}, charged by the call itself before the engine runs (the
   * text is not an operand charged apart). A literal pattern's weight is known now; another's is at
   * most {@link MAX_WEIGHT_PER_CHAR} per character, and its text is charged as it is compiled.
   */
  #matchesCall(node: CelNode, receiver: CelNode, pattern: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    this.#matches.push(node);
    const text = this.walk(receiver, scope);
    const target = pattern.meta.alternate ?? pattern;
    const known = target.op === 'value' && typeof target.args === 'string' ? [target.args] : target.op === 'id' ? this.#constants.get(String(target.args)) : undefined;
    const weights = known?.map((source) => this.weightOf(source));
    const literal = weights === undefined || weights.some((w) => w === undefined) ? undefined : Math.max(...(weights as number[]));
    const compiledPattern = literal === undefined ? this.#operand(pattern, scope) : this.walk(pattern, scope);
    // What one character of the text costs on the engine: 1 + ⌈weight⌉ (ceilings bounded by + 1).
    const perUnit = literal === undefined ? add(scale(compiledPattern.size, MATCH_WEIGHT_COST * MAX_WEIGHT_PER_CHAR), constant(MATCH_WEIGHT_COST * MAX_WEIGHT_PER_CHAR + 2)) : constant(1 + Math.ceil(MATCH_WEIGHT_COST * literal));
    // ceil(0.1·(1 + L)) ≤ 0.1·L + 1.1
    const perText = add(scale(text.size, SIZE_COST), constant(1 + SIZE_COST));
    return { cost: add(ONE, text.cost, compiledPattern.cost, mul(perText, perUnit)), size: ONE };
  }

  #comprehension(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const c = comprehensionOf(node);
    // Over a map, the keys are listed before the first step: charged as the iterable is evaluated.
    const iterable = this.#operand(c.iterable, scope, 'keys');
    const init = this.walk(c.init, scope);
    const element = `e${++this.#elements}`;
    const inner = new Map(scope).set(c.iterVarName, variable(element));
    const outer = this.#region;
    this.#region = 0;
    const step = this.#with(c.iterVarName, stringsOf(c.iterable), () => this.walk(c.step, inner));
    // The body's charge per element, and one more for the iteration itself.
    this.#steps.set(c.step, { units: this.#region + 1, comprehension: c });
    this.#region = outer;
    // A literal list has as many elements as it is written with (its size also counts what they hold).
    const literalList = (c.iterable.meta.alternate ?? c.iterable).op === 'list';
    const count = literalList ? constant(operands(c.iterable.meta.alternate ?? c.iterable).length) : iterable.size;
    const cost = add(ONE, iterable.cost, init.cost, sumOver(add(step.cost, ONE), element, iterable.size, count));
    if (c.kind === 'quantifier') return { cost, size: ONE };
    // map/filter: a list of at most as many elements, each at most what the body pushes.
    return { cost, size: add(iterable.size, sumOver(step.size, element, iterable.size)) };
  }

  #macro(node: CelNode, scope: ReadonlyMap<string, Poly>): Estimate {
    const macro = node.meta.macro ?? {};
    this.#region += 1;
    if (macro.val !== undefined && macro.exp !== undefined && typeof macro.var === 'string') {
      const value = this.walk(macro.val, scope);
      const bound = macro.val.meta.alternate ?? macro.val;
      const strings = bound.op === 'value' && typeof bound.args === 'string' ? [bound.args] : undefined;
      const body = this.#with(macro.var, strings, () => this.walk(macro.exp as CelNode, new Map(scope).set(macro.var as string, value.size)));
      return { cost: add(ONE, value.cost, body.cost), size: body.size };
    }
    if (Array.isArray(macro.args)) {
      // has(a.b.c): reads the fields, one by one.
      const parts = macro.args.filter(isCelNode).map((child) => this.walk(child, scope));
      return { cost: add(ONE, ...parts.map((p) => p.cost)), size: ONE };
    }
    throw this.#refuse(node, 'its cost cannot be estimated (a macro this version does not know)');
  }

  /** Walk with `name` bound to one of `strings` (or to nothing known, shadowing an outer binding). */
  #with<T>(name: string, strings: readonly string[] | undefined, walk: () => T): T {
    const outer = this.#constants;
    this.#constants = new Map(outer).set(name, strings);
    try {
      return walk();
    } finally {
      this.#constants = outer;
    }
  }

  #refuse(node: CelNode, why: string): PolicyError {
    return new PolicyError(`${this.where}: ${why}`, { problem: 'cost_limit', location: { rule: this.where, column: node.start + 1 } });
  }
}

/** The strings of a literal list of string literals, else undefined. */
function stringsOf(node: CelNode): readonly string[] | undefined {
  const target = node.meta.alternate ?? node;
  if (target.op !== 'list') return undefined;
  const strings: string[] = [];
  for (const item of operands(target)) {
    const value = item.meta.alternate ?? item;
    if (value.op !== 'value' || typeof value.args !== 'string') return undefined;
    strings.push(value.args);
  }
  return strings.length === 0 ? undefined : strings;
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
export function estimateCost(root: CelNode, where: string, weightOf: (pattern: string) => number | undefined = () => undefined): CostEstimate {
  const estimator = new Estimator(where, weightOf);
  const { cost } = estimator.walk(root, requestScope());
  return { cost, plan: estimator.plan(estimator.region) };
}
