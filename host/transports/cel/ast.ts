/**
 * The parts of `@marcbachmann/cel-js`'s parsed tree this transport reads: each node's operator, its
 * operands and source range, and (through `meta`, not in the library's declarations) what a macro
 * expands to. Read once at load by the cost estimator and the instrumenter; checked by
 * {@link isCelNode}, so a library version shaped otherwise is refused at load, never misread.
 */

/** How a node is evaluated: the library calls `node.evaluate(evaluator, node, context)`. */
export type EvalFn = (evaluator: CelEvaluator, node: CelNode, context: unknown) => unknown;

/** The library's evaluator, as far as a wrapped node uses it: run a child node. */
export interface CelEvaluator {
  run(node: CelNode, context: unknown): unknown;
}

/** A comprehension (what `all`, `exists`, `exists_one`, `map` and `filter` expand to). */
export interface Comprehension {
  readonly iterable: CelNode;
  readonly init: CelNode;
  readonly step: CelNode;
  readonly iterVarName: string;
  /** `quantifier` for all/exists/exists_one (a bool); absent for map/filter (a list). */
  readonly kind?: string;
  /** all/exists: whether to go on, given the value so far (the loop ends when it says false). */
  readonly condition?: (accumulated: unknown) => boolean;
  /** Whether an error in the body ends the loop (map, filter, exists_one) or is held (all, exists). */
  readonly errorsAreFatal?: boolean;
}

/** A macro kept as a macro (`has`, `cel.bind`). */
export interface CelMacro {
  readonly args?: readonly CelNode[];
  /** `cel.bind(var, val, exp)`. */
  readonly var?: string;
  readonly val?: CelNode;
  readonly exp?: CelNode;
  evaluate?: EvalFn;
}

export interface CelNode {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
  readonly meta: { readonly alternate?: CelNode; readonly macro?: CelMacro; readonly evaluate?: EvalFn };
  evaluate: EvalFn;
}

/** Whether a value from the library is a node of the shape above. */
export function isCelNode(value: unknown): value is CelNode {
  if (value === null || typeof value !== 'object') return false;
  const node = value as Partial<CelNode>;
  return typeof node.op === 'string' && typeof node.start === 'number' && typeof node.end === 'number' && node.meta !== null && typeof node.meta === 'object';
}

/** A node's operands as nodes (for the operators whose `args` is a list of nodes, or one node). */
export function operands(node: CelNode): CelNode[] {
  const args = node.args;
  if (Array.isArray(args)) return args.filter(isCelNode);
  return isCelNode(args) ? [args] : [];
}

/** `rcall`/`call`: the function's name, its receiver (rcall) and its arguments. */
export function callParts(node: CelNode): { readonly name: string; readonly receiver: CelNode | undefined; readonly args: readonly CelNode[] } {
  const args = node.args as readonly unknown[];
  if (node.op === 'rcall') {
    return { name: String(args[0]), receiver: isCelNode(args[1]) ? args[1] : undefined, args: Array.isArray(args[2]) ? (args[2] as unknown[]).filter(isCelNode) : [] };
  }
  return { name: String(args[0]), receiver: undefined, args: Array.isArray(args[1]) ? (args[1] as unknown[]).filter(isCelNode) : [] };
}

/** The comprehension a `comprehension` node holds. */
export function comprehensionOf(node: CelNode): Comprehension {
  return node.args as Comprehension;
}
