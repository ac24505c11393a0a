/**
 * Records the core instances jco's glue makes, in the order it makes them, so a {@link DirectPlan}
 * can be bound to the live exports afterwards — and puts the {@link ImportGate} around every host
 * import on the way. Wrap whatever `instantiateCore` the host passes to the glue:
 *
 *   const gate = new ImportGate();
 *   const instances = new CoreInstances(gate);
 *   await glue.instantiate(getCoreModule, imports, instances.wrap(hostInstantiateCore));
 *   const bound = bindDirectCall(plan, instances, modules);
 */
import { Wasm, type WasmGlobal, type WasmInstance, type WasmModule } from '../wasm-api.js';
import { AbiSession } from './abi.js';
import { ImportGate } from './gate.js';
import type { DirectPlan } from './plan.js';

/** The glue's third argument to `instantiate`. */
export type InstantiateCore = (module: WasmModule, imports?: Readonly<Record<string, unknown>>) => Promise<WasmInstance>;

interface Made {
  readonly module: WasmModule;
  readonly imports: Readonly<Record<string, unknown>> | undefined;
  readonly instance: WasmInstance;
}

export class CoreInstances {
  readonly #gate: ImportGate | undefined;
  readonly #made: Made[] = [];
  readonly #wasmFunctions = new Set<unknown>();

  constructor(gate?: ImportGate) {
    this.#gate = gate;
  }

  get gate(): ImportGate | undefined {
    return this.#gate;
  }

  /** Every instance made so far, in order. */
  get made(): readonly Made[] {
    return this.#made;
  }

  /** The functions exported by the instances made so far (passed on as imports, they stay in the component). */
  get wasmFunctions(): ReadonlySet<unknown> {
    return this.#wasmFunctions;
  }

  /**
   * Instantiate synchronously, recording the instance: `imports` first through `wrap` (the meter's
   * timing of host calls), then through the gate.
   */
  instantiateSync(
    module: WasmModule,
    imports: Readonly<Record<string, unknown>> | undefined,
    wrap: (imports: Readonly<Record<string, unknown>> | undefined) => Record<string, unknown> | undefined = (i) => i,
  ): WasmInstance {
    const wrapped = wrap(imports);
    const gated = this.#gate === undefined ? wrapped : this.#gate.wrapImports(wrapped, this.#wasmFunctions);
    const instance = Wasm.instantiateSync(module, gated);
    this.#record(module, imports, instance);
    return instance;
  }

  #record(module: WasmModule, imports: Readonly<Record<string, unknown>> | undefined, instance: WasmInstance): void {
    for (const value of Object.values(instance.exports)) if (typeof value === 'function') this.#wasmFunctions.add(value);
    this.#made.push({ module, imports, instance });
  }

  /** `inner`, recording each instance and gating each host import. */
  wrap(inner: InstantiateCore): InstantiateCore {
    return async (module, imports) => {
      const gated = this.#gate === undefined ? imports : this.#gate.wrapImports(imports, this.#wasmFunctions);
      const instance = await inner(module, gated);
      this.#record(module, imports, instance);
      return instance;
    };
  }
}

export type Bound = { readonly ok: true; readonly session: AbiSession } | { readonly ok: false; readonly reason: string };

type Fn = (...args: number[]) => number;

/**
 * An {@link AbiSession} over the instances the glue made, as `plan` says — or why not: the glue made
 * other instances than the plan expects (count, or a module other than the one named).
 */
export function bindDirectCall(plan: DirectPlan, instances: CoreInstances, modules: Readonly<Record<string, WasmModule>>): Bound {
  const made = instances.made;
  if (made.length !== plan.instantiations.length) {
    return { ok: false, reason: `the glue made ${made.length} core instances, the plan expects ${plan.instantiations.length}` };
  }
  for (const [i, name] of plan.instantiations.entries()) {
    if (made[i]?.module !== modules[name]) return { ok: false, reason: `core instance ${i} is not of module ${name}` };
  }
  const get = (ref: { instance: number; name: string }): unknown => made[ref.instance]?.instance.exports[ref.name];
  const memory = get(plan.memory);
  const fn = get(plan.fn);
  const realloc = get(plan.realloc);
  const postReturn = plan.postReturn === undefined ? undefined : get(plan.postReturn);
  if (!(memory instanceof Wasm.Memory)) return { ok: false, reason: 'the memory export is not a memory' };
  if (typeof fn !== 'function' || typeof realloc !== 'function' || (plan.postReturn !== undefined && typeof postReturn !== 'function')) {
    return { ok: false, reason: 'an export the call needs is not a function' };
  }
  return {
    ok: true,
    session: new AbiSession({
      memory,
      fn: fn as Fn,
      realloc: realloc as Fn,
      postReturn: postReturn as ((ptr: number) => void) | undefined,
      mayLeaveFlag: mayLeaveFlag(made, plan.componentIdx),
      gate: instances.gate,
    }),
  };
}

/** jco passes the component's "may leave" flag to core modules that check it, as `instance<N>`. */
function mayLeaveFlag(made: readonly Made[], componentIdx: number): WasmGlobal | undefined {
  const key = `instance${componentIdx}`;
  for (const { imports } of made) {
    if (imports === undefined) continue;
    for (const namespace of Object.values(imports)) {
      if (namespace === null || typeof namespace !== 'object') continue;
      const flag = (namespace as Record<string, unknown>)[key];
      if (flag instanceof Wasm.Global) return flag;
    }
  }
  return undefined;
}
