import type { HookEvent } from '../../contract/event.js';
import type { HookFailure } from '../../contract/failure.js';
import type { HookRequest } from '../../contract/request.js';
import type { CallFilter } from '../../runner/matcher.js';
import { CelFailure, compileExpression, type CelExpression } from './compile.js';
import { loadCelEngine } from './engine.js';
import { variablesOf } from './variables.js';

/** Options of {@link celFilter}. */
export interface CelFilterOptions {
  /** Names the expression in messages (default `when`). */
  readonly where?: string;
  /** The hook's event (`pre_tool_use`: `output`/`is_error` are refused). */
  readonly event?: HookEvent | undefined;
  readonly cost_limit?: number | undefined;
}

function verdict(expression: CelExpression, variables: Readonly<Record<string, unknown>>): boolean | HookFailure {
  const value = expression.evaluate(variables);
  if (typeof value === 'boolean') return value;
  if (value instanceof CelFailure) return value.failure;
  return { code: 'policy_error', message: `${expression.where}: the expression is not a bool on this call` };
}

/**
 * A hook's `when` as CEL: compiled now (the CEL engine loaded on first use), asked by the runner at
 * the hook's turn on the request it would see. An expression that fails on a call fails the hook
 * (`policy_error`, or `timeout` past its cost limit) under its `on_failure` — never a silent skip.
 * Rejects with a `PolicyError` naming the expression and the column.
 *
 * @example
 * const when = await celFilter("tool_name.startsWith('mcp__') && agent_id == 'triage-bot'", { event: 'pre_tool_use' });
 * new HookRunner([{ name: 'audit', event: 'pre_tool_use', when, transport }]);
 */
export async function celFilter(source: string, options: CelFilterOptions = {}): Promise<CallFilter> {
  const engine = await loadCelEngine();
  const expression = compileExpression(engine, source, { where: options.where ?? 'when', event: options.event, cost_limit: options.cost_limit });
  const guard = expression.guard;
  return { source, test: (request: HookRequest) => (guard !== undefined && !guard(request) ? false : verdict(expression, variablesOf(request))) };
}

/**
 * `tools` entries written as CEL (`{"cel": "tool_name.startsWith('delete_')"}`), each seeing only
 * `tool_name`, as one filter: true when any is true; when none is and one failed, that failure.
 * `where` names each entry (`tools[2].cel`).
 */
export async function celToolFilter(entries: ReadonlyArray<{ readonly source: string; readonly where: string }>, options: Omit<CelFilterOptions, 'where'> = {}): Promise<CallFilter> {
  const engine = await loadCelEngine();
  const expressions = entries.map((entry) => compileExpression(engine, entry.source, { where: entry.where, event: options.event, cost_limit: options.cost_limit, variables: ['tool_name'] }));
  return {
    source: entries.map((entry) => entry.source).join(' || '),
    test: (request: HookRequest) => {
      const variables = { tool_name: request.tool_name };
      let failed: HookFailure | undefined;
      for (const expression of expressions) {
        const answer = verdict(expression, variables);
        if (answer === true) return true;
        if (answer !== false) failed ??= answer;
      }
      return failed ?? false;
    },
  };
}
