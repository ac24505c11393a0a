/**
 * A component instantiated the way the transport does it (loader, sandbox, jco's glue; no fuel, no
 * isolation), with both ways of calling `handle` on it: jco's glue, and the direct canonical-ABI
 * caller bound to the same core instances — or the reason the component is not direct-callable.
 * The bench's raw-call baselines (given a WIT record made once, outside the timing) and the direct
 * call's tests (test/perf/direct-call.test.ts) both use it.
 */
import type { WitHookRequest } from '../../host/codec/wit.js';
import { asGlue } from '../../host/engine/instance/instance.js';
import { glueSource } from '../../host/engine/cache/cache.js';
import { loadComponent, type LoadedComponent } from '../../host/engine/engine.js';
import { COMPONENT_DEFAULTS } from '../../host/transports/component/options.js';
import { createSandbox, type Sandbox } from '../../host/engine/wasi/index.js';
import { FUEL_EXPORT } from '../../host/engine/meter/instrument.js';
import { Wasm, type WasmGlobal } from '../../host/engine/wasm-api.js';
import { CoreInstances, ImportGate, bindDirectCall, planDirectCall, type DirectCaller, type PlanResult } from '../../host/engine/instance/direct.js';

export interface BothWays {
  /** Metered loads: every core instance's fuel counter (refill before each call). */
  readonly fuel: readonly WasmGlobal[];
  readonly component: LoadedComponent;
  readonly plan: PlanResult;
  /** jco's glue: returns the decision or throws (ComponentError for err). */
  readonly glue: (request: WitHookRequest) => unknown;
  /** The direct caller, when the component is direct-callable. */
  readonly direct: DirectCaller | undefined;
  readonly whyNot: string | undefined;
  readonly sandbox: Sandbox;
  close(): void;
}

export async function instantiateBothWays(
  path: string,
  cacheDir: string,
  options: { readonly memoryMb?: number; readonly env?: Readonly<Record<string, string>>; readonly metered?: boolean } = {},
): Promise<BothWays> {
  const component = await loadComponent({
    path,
    memoryMb: options.memoryMb ?? COMPONENT_DEFAULTS.memory_mb,
    maxLogBytes: COMPONENT_DEFAULTS.max_log_bytes,
    grants: options.env === undefined ? undefined : { env: { ...options.env } },
    cacheDir,
    instrumented: options.metered === true,
  });
  const source = glueSource(component.glueUrl);
  const plan = planDirectCall(source, component.info.handler, component.modules);
  const sandbox = createSandbox(component.sandbox);
  const instances = new CoreInstances(new ImportGate());
  const glue = asGlue(await import(component.glueUrl));
  const exports = (await glue.instantiate(
    (name) => {
      const module = component.modules[name];
      if (module === undefined) throw new Error(`no core module ${name}`);
      return module;
    },
    sandbox.imports,
    instances.wrap((module, imports) => Wasm.instantiate(module, imports)),
  )) as Record<string, unknown>;
  const handler = exports[component.info.handler] as { handle: (r: WitHookRequest) => unknown };
  let direct: DirectCaller | undefined;
  let whyNot: string | undefined;
  if (plan.ok) {
    const bound = bindDirectCall(plan.plan, instances, component.modules);
    if (bound.ok) direct = bound.caller;
    else whyNot = bound.reason;
  } else whyNot = plan.reason;
  const fuel: WasmGlobal[] = [];
  if (options.metered === true) {
    for (const { instance } of instances.made) {
      const counter = instance.exports[FUEL_EXPORT];
      if (!(counter instanceof Wasm.Global)) throw new Error(`a core instance of ${path} has no fuel counter (${FUEL_EXPORT})`);
      fuel.push(counter);
    }
  }
  return { component, plan, fuel, glue: (r) => handler.handle(r), direct, whyNot, sandbox, close: () => sandbox.dispose() };
}
