/**
 * A component instantiated the way the transport does it (the engine's loader, WASI, jco's glue; no
 * fuel, no isolation), with both ways of calling `handle` on it: jco's glue, and the direct
 * canonical-ABI call (the hook binding over an AbiSession bound to the same core instances) — or the
 * reason the component is not direct-callable. The bench's raw-call baselines (given a WIT record made
 * once, outside the timing) and the direct call's tests (test/perf/direct-call.test.ts) both use it.
 */
import type { WitHookRequest } from '../../host/codec/wit.js';
import { glueSource } from '../../host/engine/cache/cache.js';
import { Engine, type Component } from '../../host/engine/engine.js';
import { AbiViolation, type AbiSession } from '../../host/engine/instance/abi.js';
import { CoreInstances, bindDirectCall } from '../../host/engine/instance/core-instances.js';
import { ImportGate, InnerComponentCall } from '../../host/engine/instance/gate.js';
import { asGlue } from '../../host/engine/instance/glue.js';
import { planDirectCall, type PlanResult } from '../../host/engine/instance/plan.js';
import type { AbiViolationKind } from '../../host/engine/outcome.js';
import { FUEL_EXPORT } from '../../host/engine/meter/instrument.js';
import { createWasi, type Wasi } from '../../host/engine/wasi/index.js';
import { Wasm, type WasmGlobal } from '../../host/engine/wasm-api.js';
import { hookBinding } from '../../host/transports/component/binding.js';
import { COMPONENT_DEFAULTS } from '../../host/transports/component/options.js';
import { checkWorld } from '../../host/transports/component/world.js';

/** What one direct call came to, as a value (the transport makes the same distinctions). */
export type DirectOutcome =
  | { readonly type: 'ok'; readonly decision: unknown }
  | { readonly type: 'err'; readonly message: string }
  | { readonly type: 'too-large'; readonly bytes: number }
  | { readonly type: 'abi'; readonly violation: AbiViolationKind; readonly message: string }
  | { readonly type: 'needs-glue'; readonly message: string };

/** The direct call on one instance: `call` throws what the guest throws (a trap), like the transport's. */
export interface DirectCaller {
  call(request: WitHookRequest, maxAnswerBytes?: number): DirectOutcome;
  /** Whether it still takes calls (false after an ABI violation or an exception). */
  readonly usable: boolean;
}

/** The hook binding's direct call over `session`, its outcome as a value. */
export function directCaller(session: AbiSession, handler: string): DirectCaller {
  return {
    get usable() {
      return session.usable;
    },
    call(request, maxAnswerBytes = Number.POSITIVE_INFINITY) {
      const binding = hookBinding({ handler, maxOutputBytes: Number.isFinite(maxAnswerBytes) ? maxAnswerBytes : Number.MAX_SAFE_INTEGER });
      try {
        const result = binding.directCall(session, request, () => undefined);
        if (result.tag === 'ok') return { type: 'ok', decision: result.decision };
        if (result.tag === 'err') return { type: 'err', message: result.message };
        return { type: 'too-large', bytes: result.bytes };
      } catch (error) {
        if (error instanceof AbiViolation) return { type: 'abi', violation: error.violation, message: error.message };
        if (error instanceof InnerComponentCall) return { type: 'needs-glue', message: error.message };
        throw error;
      }
    },
  };
}

export interface BothWays {
  /** Metered loads: every core instance's fuel counter (refill before each call). */
  readonly fuel: readonly WasmGlobal[];
  readonly component: Component;
  /** The handler export's key, e.g. `basis:hook/handler@1.0.0`. */
  readonly handler: string;
  readonly plan: PlanResult;
  /** jco's glue: returns the decision or throws (ComponentError for err). */
  readonly glue: (request: WitHookRequest) => unknown;
  /** The direct caller, when the component is direct-callable. */
  readonly direct: DirectCaller | undefined;
  readonly whyNot: string | undefined;
  readonly wasi: Wasi;
  close(): void;
}

export async function instantiateBothWays(
  path: string,
  cacheDir: string,
  options: { readonly memoryMb?: number; readonly env?: Readonly<Record<string, string>>; readonly metered?: boolean } = {},
): Promise<BothWays> {
  const component = await new Engine({ cacheDir }).load(path, {
    memoryMb: options.memoryMb ?? COMPONENT_DEFAULTS.memory_mb,
    maxLogBytes: COMPONENT_DEFAULTS.max_log_bytes,
    grants: options.env === undefined ? undefined : { env: { ...options.env } },
    check: (world) => {
      const verdict = checkWorld(world);
      return verdict.ok ? undefined : verdict.message;
    },
    instrumented: options.metered === true,
  });
  const verdict = checkWorld(component.world);
  if (!verdict.ok) throw new Error(verdict.message);
  const handler = verdict.handler;
  const plan = planDirectCall(glueSource(component.glueUrl), handler, 'handle', hookBinding({ handler, maxOutputBytes: 1 }).plan, component.modules);
  const wasi = createWasi(component.wasi, { typeOnly: component.world.imports.filter((name) => name.startsWith('basis:hook/types@')) });
  const instances = new CoreInstances(new ImportGate());
  const glue = asGlue(await import(component.glueUrl));
  const exports = (await glue.instantiate(
    (name) => {
      const module = component.modules[name];
      if (module === undefined) throw new Error(`no core module ${name}`);
      return module;
    },
    wasi.imports,
    instances.wrap((module, imports) => Wasm.instantiate(module, imports)),
  )) as Record<string, unknown>;
  const exported = exports[handler] as { handle: (r: WitHookRequest) => unknown };
  let direct: DirectCaller | undefined;
  let whyNot: string | undefined;
  if (plan.ok) {
    const bound = bindDirectCall(plan.plan, instances, component.modules);
    if (bound.ok) direct = directCaller(bound.session, handler);
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
  return { component, handler, plan, fuel, glue: (r) => exported.handle(r), direct, whyNot, wasi, close: () => wasi.dispose() };
}
