/**
 * Fast paths for the operations rules over tool calls are made of: a string's `contains`,
 * `startsWith` and `endsWith` of a literal, and `==`/`!=` against a string literal. Each takes the
 * common case — the operand is a string at run time — in one step, and hands anything else to the
 * library's own evaluation (which then answers, or raises its error, exactly as without the fast
 * path). The library resolves an overload on every call when an operand is `dyn` (`input.command`):
 * the fast path skips that, and gives the very same answer.
 */
import { callParts, type CelNode, type EvalFn } from './ast.js';

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
