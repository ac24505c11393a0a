/**
 * The canonical ABI forbids a component to call out of itself during post-return (jco sets its
 * "may leave" flag to false around it). The direct caller keeps that rule for every host function the
 * guest can reach: each function in each core instance's import object that is not itself a wasm
 * export is wrapped by {@link ImportGate.wrapImports} and refuses to run while the gate is closed.
 */

/** What a call into a closed gate throws: the guest broke the canonical ABI. */
export class PostReturnImportError extends Error {
  override readonly name = 'PostReturnImportError';
  readonly code = 'abi' as const;

  constructor(what: string) {
    super(`the guest called the host import ${what} during post-return (the canonical ABI forbids leaving the component then)`);
  }
}

/**
 * What a call into jco's inner-component bookkeeping (`async.enter-sync-call`) throws during a direct
 * call: components made of several components (componentize-qjs's QuickJS build) cross between them
 * through adapters that need jco's task state, which only its glue keeps. The call must be run again
 * through the glue, on a fresh instance.
 */
export class InnerComponentCall extends Error {
  override readonly name = 'InnerComponentCall';

  constructor() {
    super('the guest called into one of its inner components, which only jco\'s glue can track: run the call through the glue');
  }
}

/** jco's trampolines that enter and leave an inner component (see {@link InnerComponentCall}). */
const INNER_CALLS: ReadonlySet<string> = new Set(['async.enter-sync-call', 'async.exit-sync-call']);

/** One per instance of a component; the direct caller closes it around `cabi_post_*`. */
export class ImportGate {
  #open = true;
  #direct = false;
  #crossed = false;

  get open(): boolean {
    return this.#open;
  }

  /** A direct call is running: a crossing into an inner component is refused (and remembered). */
  enterDirect(): void {
    this.#direct = true;
    this.#crossed = false;
  }

  /** Whether the running direct call has tried to cross into an inner component. */
  get crossed(): boolean {
    return this.#crossed;
  }

  /** The direct call is over; whether it tried to cross into an inner component. */
  leaveDirect(): boolean {
    this.#direct = false;
    return this.#crossed;
  }

  close(): void {
    this.#open = false;
  }

  reopen(): void {
    this.#open = true;
  }

  /**
   * The import object with every host function wrapped by the gate. `wasmFunctions` are exports of
   * core instances made before (passed on as imports by jco's glue): calls between the component's own
   * core instances do not leave it, and stay unwrapped. Globals, memories and tables pass as they are.
   */
  wrapImports(imports: Readonly<Record<string, unknown>> | undefined, wasmFunctions: ReadonlySet<unknown>): Record<string, unknown> | undefined {
    if (imports === undefined) return undefined;
    const out: Record<string, unknown> = {};
    for (const [namespace, value] of Object.entries(imports)) {
      if (value === null || typeof value !== 'object') {
        out[namespace] = value;
        continue;
      }
      const wrapped: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
        const what = `${namespace}.${name}`;
        if (typeof item !== 'function' || wasmFunctions.has(item)) wrapped[name] = item;
        else if (INNER_CALLS.has(what)) wrapped[name] = this.#inner(item as (...args: unknown[]) => unknown);
        else wrapped[name] = this.#guard(item as (...args: unknown[]) => unknown, what);
      }
      out[namespace] = wrapped;
    }
    return out;
  }

  #inner(fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const gate = this;
    return function inner(this: unknown, ...args: unknown[]): unknown {
      if (gate.#direct) {
        // Remembered too: a guest may catch the exception (wasm exception handling) and go on.
        gate.#crossed = true;
        throw new InnerComponentCall();
      }
      return fn.apply(this, args);
    };
  }

  #guard(fn: (...args: unknown[]) => unknown, what: string): (...args: unknown[]) => unknown {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const gate = this;
    return function guarded(this: unknown, ...args: unknown[]): unknown {
      if (!gate.#open) throw new PostReturnImportError(what);
      return fn.apply(this, args);
    };
  }
}
