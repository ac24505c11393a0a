import { HookEvent } from '../contract/event.js';
import { FailurePolicy } from '../contract/failure.js';
import { preview } from '../contract/preview.js';
import { RunnerError } from '../errors/runner-error.js';
import type { HookDefinition } from './hook.js';
import { callFilterProblem, toolsProblems, type CallFilter, type ToolPattern } from './matcher.js';
import type { Transport } from './transport.js';

function invalid(message: string): RunnerError {
  return new RunnerError('invalid_hooks', message);
}

function isTransport(value: unknown): value is Transport {
  if (value === null || typeof value !== 'object') return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t['invoke'] === 'function' &&
    typeof t['kind'] === 'string' &&
    (t['check'] === undefined || typeof t['check'] === 'function') &&
    (t['close'] === undefined || typeof t['close'] === 'function')
  );
}

/**
 * Check a hook list before it becomes a chain and return a copy of it (a caller that edits its
 * objects afterwards does not edit the chain). Throws `RunnerError('invalid_hooks')` naming the hook
 * and the field: every hook needs a unique non-empty `name`, a known `event`, `tools` as a valid list
 * of tool patterns when present (see {@link toolsProblems}), `when` a {@link CallFilter} when present, `mode` of `enforce` or `shadow` when present, `on_failure` of `deny` or `allow` when present (a typo such as `ignore` must
 * not become a policy the chain does not have), and a `transport` with an `invoke` method and a
 * `kind`.
 */
export function validateHooks(hooks: unknown): HookDefinition[] {
  if (!Array.isArray(hooks)) throw invalid('hooks must be an array of hook definitions');
  const seen = new Set<string>();
  const out: HookDefinition[] = [];
  for (const [index, hook] of (hooks as unknown[]).entries()) {
    if (hook === null || typeof hook !== 'object') throw invalid(`hooks[${index}]: a hook must be an object`);
    const h = hook as Record<string, unknown>;
    const name = h['name'];
    if (typeof name !== 'string' || name.trim() === '') throw invalid(`hooks[${index}]: a hook needs a non-empty name`);
    const at = `hooks[${index}] ${preview(name)}`;
    if (seen.has(name)) throw invalid(`${at}: duplicate hook name (the trail would be ambiguous)`);
    seen.add(name);
    const event = HookEvent.safeParse(h['event']);
    if (!event.success) throw invalid(`${at}: unknown event ${preview(h['event'])} (one of ${HookEvent.options.join(', ')})`);
    const tools = h['tools'];
    const toolProblem = toolsProblems(tools)[0];
    if (toolProblem !== undefined) {
      const [entry, message] = toolProblem;
      throw invalid(`${at}: tools${entry === undefined ? '' : `[${entry}]`}: ${message}`);
    }
    const when = h['when'];
    const whenProblem = callFilterProblem(when);
    if (whenProblem !== undefined) throw invalid(`${at}: ${whenProblem}`);
    const mode = h['mode'];
    if (mode !== undefined && mode !== 'enforce' && mode !== 'shadow') {
      throw invalid(`${at}: unknown mode ${preview(mode)} (enforce, shadow)`);
    }
    const onFailure = h['on_failure'];
    const policy = onFailure === undefined ? undefined : FailurePolicy.safeParse(onFailure);
    if (policy !== undefined && !policy.success) {
      throw invalid(`${at}: on_failure must be one of ${FailurePolicy.options.join(', ')} (got ${preview(onFailure)})`);
    }
    const transport = h['transport'];
    if (!isTransport(transport)) throw invalid(`${at}: transport must be a Transport (an object with an invoke method and a kind)`);
    out.push({
      name,
      event: event.data,
      ...(tools === undefined ? {} : { tools: (tools as ToolPattern[]).map((t) => (typeof t === 'string' ? t : { regex: t.regex })) }),
      ...(when === undefined ? {} : { when: when as CallFilter }),
      ...(mode === undefined ? {} : { mode }),
      ...(policy === undefined ? {} : { on_failure: policy.data }),
      transport,
    });
  }
  return out;
}
