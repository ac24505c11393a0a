import type { HookDecision } from '../contract/response.js';

/** Decisions in a fixed order, for the per-tool count arrays. */
const DECISIONS: readonly HookDecision[] = ['allow', 'deny', 'modify', 'replace'];
const INDEX: Readonly<Record<HookDecision, number>> = { allow: 0, deny: 1, modify: 2, replace: 3 };

/**
 * The most (hook, tool) pairs counted apart. Tool names come from the model and are unbounded; past
 * this many, a hook's decisions are counted without the tool, reported with `otel.metric.overflow`
 * as the SDK marks its own overflow (its default cardinality limit is 2000 series per instrument).
 */
export const MAX_TOOL_SERIES = 500;

/**
 * Hook decisions by hook, tool and decision, counted in place and reported when the meter collects
 * (an observable counter): a call costs two map lookups and an increment, not the SDK's hashing of an
 * attribute set (~1 µs). Cumulative for the life of the process, as a counter is.
 */
export class DecisionTally {
  readonly #byHook = new Map<string, Map<string, number[]>>();
  readonly #overflow = new Map<string, number[]>();
  #series = 0;

  /** Count one decision. */
  add(hook: string, tool: string, decision: HookDecision): void {
    let tools = this.#byHook.get(hook);
    if (tools === undefined) {
      tools = new Map();
      this.#byHook.set(hook, tools);
    }
    let counts = tools.get(tool);
    if (counts === undefined) {
      if (this.#series >= MAX_TOOL_SERIES) {
        counts = this.#overflow.get(hook);
        if (counts === undefined) {
          counts = [0, 0, 0, 0];
          this.#overflow.set(hook, counts);
        }
      } else {
        counts = [0, 0, 0, 0];
        tools.set(tool, counts);
        this.#series++;
      }
    }
    counts[INDEX[decision]] = (counts[INDEX[decision]] ?? 0) + 1;
  }

  /** Every count so far; `tool` is undefined for the overflow series. */
  observe(report: (count: number, hook: string, tool: string | undefined, decision: HookDecision) => void): void {
    const each = (counts: readonly number[], hook: string, tool: string | undefined): void => {
      counts.forEach((count, i) => {
        const decision = DECISIONS[i];
        if (count > 0 && decision !== undefined) report(count, hook, tool, decision);
      });
    };
    for (const [hook, tools] of this.#byHook) for (const [tool, counts] of tools) each(counts, hook, tool);
    for (const [hook, counts] of this.#overflow) each(counts, hook, undefined);
  }
}
