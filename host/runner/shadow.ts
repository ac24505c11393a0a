import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FailurePolicy } from '../contract/failure.js';
import type { TrailEntry } from '../contract/outcome.js';
import { rewriteOf, type Evaluated } from './chain-core.js';
import { SKIPPED } from './invoke.js';

/**
 * The trail of one chain, with room for its shadow hooks.
 *
 * Shadow hooks run **concurrently** with the enforced path: each is started at its declared position
 * with a snapshot of the state the next enforcing hook sees (the input as rewritten so far; the
 * output as replaced so far), and the chain goes on without waiting for it. So a shadow hook that
 * fails — even one that hangs until its timeout — costs the enforced path nothing; an in-thread one
 * (an interceptor, a metered component) still spends its own CPU time on the caller's thread.
 *
 * Its trail entry takes its declared position. When the chain ends, the entries of the shadows that
 * have answered are in the outcome's trail: those that answer at once (in-thread hooks) always are,
 * because the end of the chain lets already-settled work land (at most one event-loop turn, and
 * only while a shadow is still running). A shadow still running then (a subprocess, a worker) is
 * recorded in the audit stream when it answers, after its call's `chain_decided`; `wait_for_shadows`
 * makes the outcome wait for every shadow instead.
 */
export class ChainTrail {
  /** Entries in declared order; a hole is a shadow that has not answered yet. */
  readonly #slots: Array<TrailEntry | undefined> = [];
  #shadows: Promise<void>[] | undefined;
  /** Shadows that have not answered yet. */
  #pending = 0;

  /** Record an enforcing hook's entry. */
  push(entry: TrailEntry): void {
    this.#slots.push(entry);
  }

  /**
   * Reserve a shadow's position; its entry lands there when `run` settles (and `onEntry` sees it,
   * whenever that is). Returns the promise of that landing, which never rejects.
   */
  shadow(run: Promise<TrailEntry>, onEntry: (entry: TrailEntry) => void): Promise<void> {
    const index = this.#slots.push(undefined) - 1;
    this.#pending += 1;
    const landed = run.then((entry) => {
      this.#pending -= 1;
      this.#slots[index] = entry;
      onEntry(entry);
    });
    (this.#shadows ??= []).push(landed);
    return landed;
  }

  /** The trail as it stands (a copy when shadows took part, so late answers never change a returned outcome). */
  entries(): TrailEntry[] {
    if (this.#shadows === undefined) return this.#slots as TrailEntry[];
    return this.#slots.filter((entry): entry is TrailEntry => entry !== undefined);
  }

  /** Whether a shadow hook took part (then the chain's end must {@link settle}). */
  get hasShadows(): boolean {
    return this.#shadows !== undefined;
  }

  /** Let shadows that have answered land; with `wait`, wait for every one. */
  async settle(wait: boolean): Promise<void> {
    const shadows = this.#shadows;
    if (shadows === undefined || this.#pending === 0) return;
    const all = Promise.all(shadows);
    await (wait ? all : Promise.race([all, nextTurn()]));
  }
}

/**
 * Start a shadow hook: `evaluate` runs it (a throw or a rejection is the runner's failure, recorded as
 * `internal_error`); its entry, marked `shadow` with the rewrite it proposed, lands at its position in
 * `trail`, and `landed` sees it with the fuel the call spent. Returns the landing, which never rejects
 * (undefined: the hook's `when` skipped it — no entry).
 */
export function startShadow(trail: ChainTrail, rule: { readonly name: string; readonly policy: FailurePolicy }, evaluate: () => Evaluated | Promise<Evaluated> | typeof SKIPPED, landed: (entry: TrailEntry, fuel: number | undefined) => void): Promise<void> | undefined {
  const failed = (error: unknown): TrailEntry => ({
    hook: rule.name,
    decision: rule.policy,
    failure: { code: 'internal_error', message: `the runner failed: ${String(error)}` },
    policy: rule.policy,
    ms: 0,
    shadow: true,
  });
  let started: Evaluated | Promise<Evaluated> | typeof SKIPPED;
  try {
    started = evaluate();
  } catch (error) {
    started = Promise.reject(error);
  }
  if (started === SKIPPED) return undefined;
  let fuel: number | undefined;
  const run = Promise.resolve(started).then(({ entry, step, fuel: spent }) => {
    fuel = spent;
    return { ...entry, shadow: true as const, ...rewriteOf(step) };
  }, failed);
  return trail.shadow(run, (entry) => landed(entry, fuel));
}
