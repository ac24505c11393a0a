/**
 * Fast paths for the operations rules over tool calls are made of: a string's `contains`,
 * `startsWith` and `endsWith` of a literal, and `==`/`!=` against a string literal. Each takes the
 * common case — the operand is a string at run time — in one step, and hands anything else to the
 * library's own evaluation (which then answers, or raises its error, exactly as without the fast
 * path). The library resolves an overload on every call when an operand is `dyn` (`input.command`):
 * the fast path skips that, and gives the very same answer.
 */
import { callParts, type CelNode, type EvalFn } from './ast.js';
import { matchCost, SIZE_COST } from './cost.js';
import { recordCost } from './meter.js';
import type { MatchesPattern } from './regex.js';

function literalString(node: CelNode | undefined): string | undefined {
  const target = node === undefined ? undefined : (node.meta.alternate ?? node);
  return target?.op === 'value' && typeof target.args === 'string' ? target.args : undefined;
}

/** The library's evaluation of a node (before any wrapper of ours). */
function libraryEvaluation(node: CelNode): EvalFn | undefined {
  if (Object.hasOwn(node, 'evaluate') || node.meta.alternate !== undefined || node.meta.macro !== undefined) return undefined;
  const plain = node.meta.evaluate;
  return plain === undefined ? undefined : (ev, self, context) => plain.call(node, ev, self, context);
}

const STRING_TESTS: Readonly<Record<string, (text: string, part: string) => boolean>> = {
  contains: (text, part) => text.includes(part),
  startsWith: (text, part) => text.startsWith(part),
  endsWith: (text, part) => text.endsWith(part),
};

/** Install the fast paths on every node of `nodes` that has one; returns how many. */
export function installFastPaths(nodes: readonly CelNode[]): number {
  let installed = 0;
  for (const node of nodes) {
    const library = libraryEvaluation(node);
    if (library === undefined) continue;
    if (node.op === 'rcall') {
      const { name, receiver, args } = callParts(node);
      const test = STRING_TESTS[name];
      const part = args.length === 1 ? literalString(args[0]) : undefined;
      if (test === undefined || receiver === undefined || part === undefined) continue;
      node.evaluate = (ev, self, context) => {
        const text = ev.run(receiver, context);
        return typeof text === 'string' ? test(text, part) : library(ev, self, context);
      };
      installed++;
    } else if (node.op === '==' || node.op === '!=') {
      const [left, right] = node.args as [CelNode, CelNode];
      const leftLiteral = literalString(left);
      const rightLiteral = literalString(right);
      const literal = leftLiteral ?? rightLiteral;
      const other = leftLiteral === undefined ? left : right;
      if (literal === undefined || (leftLiteral !== undefined && rightLiteral !== undefined)) continue;
      const equal = node.op === '==';
      node.evaluate = (ev, self, context) => {
        const value = ev.run(other, context);
        return typeof value === 'string' ? (value === literal) === equal : library(ev, self, context);
      };
      installed++;
    }
  }
  return installed;
}

/** Every node of a parsed expression (macro expansions included), for {@link installFastPaths}. */
export function allNodes(root: CelNode): CelNode[] {
  const out: CelNode[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const candidate = node as Partial<CelNode>;
    if (typeof candidate.op !== 'string' || candidate.meta === undefined) return;
    const celNode = node as CelNode;
    if (out.includes(celNode)) return;
    out.push(celNode);
    const { alternate, macro } = celNode.meta;
    if (alternate !== undefined) visit(alternate);
    if (macro !== undefined) visit([macro.args, macro.val, macro.exp]);
    if (celNode.op === 'comprehension') {
      const c = celNode.args as { iterable?: unknown; init?: unknown; step?: unknown };
      visit([c.iterable, c.init, c.step]);
    } else {
      visit(celNode.args);
    }
  };
  visit(root);
  return out;
}

/**
 * The whole of an expression as a plain JavaScript test, for the commonest shape of a rule (or of what
 * is left of one after its guard): a string operation with a literal on a field of the request —
 * `input.command.contains('rm -rf')`, `input.path.startsWith('/etc')`, `input.url.matches('^http:')`.
 * It answers when the request has that shape (the fields are there, the value is a string) and its
 * cost is within the limit; otherwise `undefined`, and the expression is evaluated as usual — which
 * then answers, raises its error or reports its cost exactly as it would have.
 */
export function plainTest(
  root: CelNode,
  patternOf: (call: CelNode) => MatchesPattern | undefined,
  fixedCost: number,
  costLimit: number,
): ((variables: Readonly<Record<string, unknown>>) => boolean | undefined) | undefined {
  const call = root.meta.alternate ?? root;
  if (call.op !== 'rcall' || call.meta.macro !== undefined) return undefined;
  const { name, receiver, args } = callParts(call);
  if (receiver === undefined || args.length !== 1) return undefined;
  const literal = literalString(args[0]);
  const pattern = name === 'matches' ? patternOf(call) : undefined;
  const test: ((text: string) => boolean) | undefined =
    name === 'matches' ? (pattern === undefined ? undefined : (text) => pattern.test(text)) : literal === undefined ? undefined : STRING_TESTS[name] === undefined ? undefined : (text) => (STRING_TESTS[name] as (t: string, p: string) => boolean)(text, literal);
  if (test === undefined) return undefined;
  // The receiver: a variable, then field names (`input.a.b`).
  const path: string[] = [];
  let node: CelNode = receiver.meta.alternate ?? receiver;
  while (node.op === '.' && node.meta.macro === undefined) {
    const [object, key] = node.args as [CelNode, unknown];
    if (typeof key !== 'string') return undefined;
    path.unshift(key);
    node = object.meta.alternate ?? object;
  }
  if (node.op !== 'id' || node.meta.macro !== undefined) return undefined;
  const variable = String(node.args);
  return (variables) => {
    let value = variables[variable];
    for (const key of path) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype || !Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    // What the meter would charge: the fixed part and the scanned string (a match: its own cost).
    if (typeof value !== 'string') return undefined;
    if (pattern !== undefined) {
      const quick = pattern.quick(value);
      const cost = fixedCost + matchCost(value.length, pattern.weight, quick === undefined);
      if (cost > costLimit) return undefined;
      recordCost(cost);
      return quick ?? pattern.engine(value);
    }
    const cost = fixedCost + SIZE_COST * value.length;
    if (cost > costLimit) return undefined;
    recordCost(cost);
    return test(value);
  };
}
