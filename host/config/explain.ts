/**
 * `basis-hooks explain`: one call through a config's real chain, and for each hook what it decided
 * and why — a Cedar hook's determining and erroring policies, a CEL hook's rule, a code hook's own
 * reason — or why it did not run. The chain is the runner's; this only watches it and then asks each
 * policy hook to explain the request it was given.
 */
import type { HookCall } from '../contract/call.js';
import type { Explanation } from '../contract/explanation.js';
import type { HookEvent } from '../contract/event.js';
import type { HookFailure } from '../contract/failure.js';
import type { HookMode } from '../contract/mode.js';
import type { Outcome, TrailEntry } from '../contract/outcome.js';
import type { HookRequest } from '../contract/request.js';
import { compileToolMatcher } from '../runner/matcher.js';
import { HookRunner } from '../runner/runner.js';
import type { Transport } from '../runner/transport.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import type { HookKind, HooksConfig } from './schema.js';

/** One hook's part in the call. */
export interface HookExplanation {
  readonly name: string;
  readonly kind: HookKind;
  readonly event: HookEvent;
  readonly mode: HookMode;
  /**
   * - `decided`: it ran; `decision` is what counted (for a failed hook, what its `on_failure` imposed);
   * - `other_event`: it runs at the other event;
   * - `not_selected`: its `tools` do not take this tool;
   * - `when_false`: its `when` (or a CEL `tools` entry) said no;
   * - `not_reached`: the chain ended (a deny) before its turn.
   */
  readonly status: 'decided' | 'other_event' | 'not_selected' | 'when_false' | 'not_reached';
  readonly decision?: TrailEntry['decision'];
  readonly reason?: string;
  readonly failure?: HookFailure;
  /** The policy hook's own account (Cedar, CEL). */
  readonly explanation?: Explanation;
  /** One line for people. */
  readonly why: string;
}

/** The call's outcome, and every hook of the config in declared order. */
export interface ExplainReport {
  readonly outcome: Outcome;
  readonly hooks: readonly HookExplanation[];
}

function why(entry: TrailEntry): string {
  if (entry.failure !== undefined) return `failed ${entry.failure.code}: ${entry.failure.message} (on_failure ${entry.policy ?? 'deny'}: ${entry.decision})`;
  // The contract gives an allow no reason; a modify or replace may have one (the trail keeps it).
  return entry.reason ?? (entry.decision === 'allow' ? 'allowed (an allow carries no reason)' : '(no reason given)');
}

/**
 * Run `call` through `config`'s chain (every hook loaded first, shadows waited for) and explain each
 * hook. Rejects like {@link createRunner} when a hook does not load. Nothing is written to the
 * config's audit file: an explanation is not traffic.
 *
 * @example
 * const report = await explainCall(await loadConfig('hooks.json'), call);
 * for (const hook of report.hooks) console.log(hook.name, hook.status, hook.why);
 */
export async function explainCall(config: HooksConfig, call: HookCall, options: BuildOptions = {}): Promise<ExplainReport> {
  const built: BuiltHook[] = [];
  const seen = new Map<string, HookRequest>();
  let runner: HookRunner | undefined;
  try {
    for (const hook of config.hooks) built.push(await buildHook(hook, options));
    const loads = await Promise.allSettled(built.map((hook) => hook.load?.()));
    for (const [index, result] of loads.entries()) {
      const hook = built[index];
      if (result.status === 'rejected' && hook !== undefined) throw namedHookError(result.reason, hook.definition.name, 'load_failed');
    }
    // Each transport watched: the request it is given is the one its explanation is asked about.
    runner = new HookRunner(
      built.map(({ definition }) => {
        const inner = definition.transport;
        const watched: Transport = {
          kind: inner.kind,
          invoke: (request, context) => {
            seen.set(definition.name, request);
            return inner.invoke(request, context);
          },
          close: async () => {
            await inner.close?.();
          },
        };
        return { ...definition, transport: watched };
      }),
      { budget_ms: config.budget_ms },
    );
    const outcome = await runner.run(call, { wait_for_shadows: true });
    const byName = new Map(outcome.trail.map((entry) => [entry.hook, entry]));
    const last = outcome.trail.filter((entry) => entry.shadow !== true).at(-1);
    const endedAt = outcome.decision === 'deny' && last !== undefined ? config.hooks.findIndex((h) => h.name === last.hook) : -1;
    const hooks: HookExplanation[] = [];
    for (const [index, hook] of config.hooks.entries()) {
      const definition = built[index]?.definition;
      const base = { name: hook.name, kind: built[index]?.kind ?? 'command', event: hook.event, mode: hook.mode ?? 'enforce' } as const;
      const entry = byName.get(hook.name);
      if (hook.event !== call.event) {
        hooks.push({ ...base, status: 'other_event', why: `runs at ${hook.event}` });
      } else if (entry !== undefined) {
        const request = seen.get(hook.name);
        const explanation = request === undefined ? undefined : await definition?.transport.explain?.(request);
        hooks.push({
          ...base,
          status: 'decided',
          decision: entry.decision,
          ...(entry.reason === undefined ? {} : { reason: entry.reason }),
          ...(entry.failure === undefined ? {} : { failure: entry.failure }),
          ...(explanation === undefined ? {} : { explanation }),
          why: why(entry),
        });
      } else if (definition?.tools !== undefined && !compileToolMatcher(definition.tools)(call.tool_name)) {
        hooks.push({ ...base, status: 'not_selected', why: `its tools (${JSON.stringify(hook.tools)}) do not take ${JSON.stringify(call.tool_name)}` });
      } else if (endedAt !== -1 && index > endedAt) {
        hooks.push({ ...base, status: 'not_reached', why: `the chain was denied by "${last?.hook ?? ''}" before its turn` });
      } else {
        hooks.push({ ...base, status: 'when_false', why: `its when${hook.tools?.some((t) => typeof t === 'object' && 'cel' in t) === true ? ' (or CEL tools)' : ''} is false for this call: ${definition?.when?.source ?? ''}` });
      }
    }
    return { outcome, hooks };
  } finally {
    if (runner !== undefined) await runner.close();
    else await Promise.allSettled(built.map((hook) => hook.definition.transport.close?.()));
  }
}
