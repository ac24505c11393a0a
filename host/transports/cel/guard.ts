/**
 * A rule's guard: the conditions of its top-level `&&` chain that a request's plain string fields
 * decide — `tool_name == 'shell'`, `agent_id != 'ci'`, `event == 'pre_tool_use'`,
 * `tool_name.startsWith('mcp__')`, `tool_name in ['a', 'b']` — checked in JavaScript before the rule is
 * evaluated. In CEL `false && x` is false whatever `x` is, an error included, so when a guard is false
 * the rule is false: not evaluating it gives the very same answer, and a hook of many rules, each
 * about one tool or agent, evaluates only the few that concern the call.
 */
import type { HookRequest } from '../../contract/request.js';
import { callParts, isCelNode, operands, type CelNode } from './ast.js';

/** The request fields a guard may test: strings the request always has. */
const FIELDS = ['tool_name', 'agent_id', 'workspace', 'event'] as const;
type Field = (typeof FIELDS)[number];

/** A test of one field; all of a rule's must hold for the rule to be worth evaluating. */
type Check = (request: HookRequest) => boolean;

function field(node: CelNode): Field | undefined {
  const target = node.meta.alternate ?? node;
  if (target.op !== 'id') return undefined;
  const name = String(target.args);
  return (FIELDS as readonly string[]).includes(name) ? (name as Field) : undefined;
}

function stringLiteral(node: CelNode): string | undefined {
  const target = node.meta.alternate ?? node;
  return target.op === 'value' && typeof target.args === 'string' ? target.args : undefined;
}

function stringList(node: CelNode): string[] | undefined {
  const target = node.meta.alternate ?? node;
  if (target.op !== 'list') return undefined;
  const items = operands(target).map(stringLiteral);
  return items.every((item): item is string => item !== undefined) ? items : undefined;
}

/** The conjuncts of a top-level `&&` chain (the node itself when it is not one). */
function conjuncts(node: CelNode): CelNode[] {
  const target = node.meta.alternate ?? node;
  if (target.op !== '&&' || target.meta.macro !== undefined) return [node];
  return operands(target).flatMap(conjuncts);
}

function checkOf(node: CelNode): Check | undefined {
  const target = node.meta.alternate ?? node;
  if (target.meta.macro !== undefined) return undefined;
  if (target.op === '==' || target.op === '!=') {
    const [a, b] = operands(target);
    if (a === undefined || b === undefined) return undefined;
    const name = field(a) ?? field(b);
    const value = stringLiteral(field(a) === undefined ? a : b);
    if (name === undefined || value === undefined) return undefined;
    return target.op === '==' ? (request) => request[name] === value : (request) => request[name] !== value;
  }
  if (target.op === 'in') {
    const [a, b] = operands(target);
    const name = a === undefined ? undefined : field(a);
    const values = b === undefined ? undefined : stringList(b);
    if (name === undefined || values === undefined) return undefined;
    const set = new Set(values);
    return (request) => set.has(request[name]);
  }
  if (target.op === 'rcall') {
    const { name: method, receiver, args } = callParts(target);
    const name = receiver === undefined ? undefined : field(receiver);
    const [arg] = args;
    const value = arg === undefined || args.length !== 1 ? undefined : stringLiteral(arg);
    if (name === undefined || value === undefined) return undefined;
    if (method === 'startsWith') return (request) => request[name].startsWith(value);
    if (method === 'endsWith') return (request) => request[name].endsWith(value);
  }
  return undefined;
}

/**
 * What is left of an expression once its guard held: the conjuncts the guard does not decide, as
 * CEL source (`(a) && (b)`, printed by the library from the parsed conjuncts), or `true` when the
 * guard decides them all; `undefined` when the expression has no guard. On a request whose guard
 * holds, `guard && rest` is `rest`.
 */
export function residualSource(root: CelNode, print: (node: CelNode) => string): string | undefined {
  const parts = conjuncts(root);
  const rest = parts.filter((part) => checkOf(part) === undefined);
  if (rest.length === parts.length) return undefined;
  if (rest.length === 0) return 'true';
  return rest.map((part) => `(${print(part)})`).join(' && ');
}

/**
 * The guard of a rule's expression, or `undefined` when it has none (it is then always evaluated).
 * Only conjuncts outside any comprehension or `cel.bind` (so the names are the request's own).
 */
export function guardOf(root: CelNode): ((request: HookRequest) => boolean) | undefined {
  if (!isCelNode(root)) return undefined;
  const checks = conjuncts(root).map(checkOf).filter((check): check is Check => check !== undefined);
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (request) => checks.every((check) => check(request));
}
