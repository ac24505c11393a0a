import { CallMeter, GuestStopped, MemoryCapExceeded, TableShared, type StopReason } from '../meter/call-meter.js';
import type { Limits, StatePolicy } from '../limits.js';
import type { EngineOutcome } from '../outcome.js';
import { createWasi, type Wasi, type WasiConfig } from '../wasi/index.js';
import { isHostCallLimit } from '../wasi/host-calls.js';
import { sleepUntil } from '../wasi/io.js';
import { ResourceLimit } from '../wasi/resources.js';
import { Wasm, type WasmInstance, type WasmModule } from '../wasm-api.js';
import type { AbiSession } from './abi.js';
import type { Binding } from './binding.js';
import { classifyFailure, stopMessage } from './classify.js';
import { CoreInstances, bindDirectCall } from './core-instances.js';
import { ImportGate, InnerComponentCall } from './gate.js';
import type { Glue } from './glue.js';
import { meterImports } from './meter-imports.js';
import type { DirectPlan } from './plan.js';
import { StateSnapshot, type HandleTables } from './snapshot.js';

/** What an instance is made of (a worker's `init` message carries it). */
export interface InstanceSpec {
  /** Compiled, fuel-instrumented core modules by the name the glue asks for. */
  readonly modules: Readonly<Record<string, WasmModule>>;
  readonly wasi: WasiConfig;
  readonly limits: Limits;
  readonly state: StatePolicy;
  /** How to call the export directly (found once per component, at load); absent: through jco's glue. */
  readonly direct?: DirectPlan | undefined;
  /** Import keys of the component's world that carry only types (see `WasiHost.typeOnly`). */
  readonly typeOnly?: readonly string[] | undefined;
}

/** Why a component could not be instantiated. */
export class InstantiationFailed extends Error {
  override readonly name = 'InstantiationFailed' as const;
  constructor(
    readonly reason: 'deadline' | 'fuel' | 'memory' | 'trap' | 'refused' | 'error',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

interface Live<A, R> {
  readonly call: (args: A) => R;
  /** The direct session (absent: the glue is used). */
  readonly direct: AbiSession | undefined;
  readonly wasi: Wasi;
  readonly meter: CallMeter;
  /** The state to reset to (none with `state: "shared"`). */
  readonly snapshot: StateSnapshot | undefined;
  /** The sandbox's resources the guest held at the snapshot (a reset needs the same). */
  readonly heldAtSnapshot: number;
}

/**
 * One component instance on the current thread — the caller's (in-thread executor) or a worker's —
 * with its WASI and its meter (meter/call-meter.ts): every call has one wall-clock deadline from its
 * start for all it triggers — instantiating a fresh instance when there is none, resetting the state
 * for another scope, and the call itself. Synchronous from start to end: nothing else runs on the
 * thread meanwhile. Every way a call ends is an {@link EngineOutcome}, never an exception.
 *
 * A call that throws anything but the binding's own result discards the instance (a trapped jco
 * instance refuses every later call; a guest with a shadow stack in linear memory may be corrupt),
 * and so does a call that leaves WASI resources open; the next call makes a fresh one, under its own
 * deadline — a guest that cannot be instantiated in time fails that call `timeout`, and the next call
 * tries again.
 */
export class Instance<A, R> {
  readonly #spec: InstanceSpec;
  readonly #glue: Glue;
  readonly #binding: Binding<A, R>;
  readonly #names = new Map<WasmModule, string>();
  #live: Live<A, R> | undefined;
  /** Scope of the last call the live instance served (undefined: it is fresh). */
  #scope: string | undefined;
  #served = false;
  /** Call through jco's glue from now on: the component has no direct plan, or proved not to fit it. */
  #glueOnly = false;
  /** The meter of the last call, once the call reached the guest (for {@link fuelUsed}). */
  #lastMeter: CallMeter | undefined;

  constructor(spec: InstanceSpec, glue: Glue, binding: Binding<A, R>) {
    this.#spec = spec;
    this.#glue = glue;
    this.#binding = binding;
    for (const [name, module] of Object.entries(spec.modules)) this.#names.set(module, name);
  }

  /** Whether an instance is up (false after a discarding failure, until the next call makes one). */
  get alive(): boolean {
    return this.#live !== undefined;
  }

  /** Make the first instance, within the load deadline. Throws {@link InstantiationFailed}. */
  start(): void {
    this.#discard();
    this.#instantiate(performance.now() + this.#spec.limits.loadDeadlineMs);
  }

  /** Instantiate under `deadline` (a `performance.now()` instant). Throws {@link InstantiationFailed}. */
  #instantiate(deadline: number): Live<A, R> {
    const spec = this.#spec;
    const meter = new CallMeter(spec.limits.memoryBytes, spec.limits.fuel);
    meter.begin(deadline);
    let handles: HandleTables | undefined;
    const wasi = createWasi(spec.wasi, {
      sleep: meter.sleeper(sleepUntil),
      glue: {
        charge: meter.charger,
        maxAnswerBytes: spec.limits.resultBytes,
        onHandleTables: (tables, freeFlag) => {
          handles = { tables, freeFlag };
        },
      },
      typeOnly: spec.typeOnly,
    });
    const plan = this.#glueOnly ? undefined : spec.direct;
    // With a direct plan, every host import also goes through the post-return gate (gate.ts).
    const core = new CoreInstances(plan === undefined ? undefined : new ImportGate());
    const instances: WasmInstance[] = [];
    try {
      const exports = this.#glue.instantiate(
        (name) => {
          const module = spec.modules[name];
          if (module === undefined) throw new Error(`the glue asked for core module ${name}, which the host did not compile`);
          return module;
        },
        wasi.imports,
        (module, imports) => {
          const name = this.#names.get(module);
          // Only modules the host compiled (memory capped, metered) may run.
          if (name === undefined) throw new Error('the glue instantiated a core module the host did not compile');
          const instance = core.instantiateSync(module, imports, (wrapped) => meterImports(wrapped, core.wasmFunctions, meter));
          const startFunction = meter.attach(instance, name);
          instances.push(instance);
          startFunction?.();
          return instance;
        },
      );
      if (typeof (exports as { then?: unknown } | null)?.then === 'function') throw new Error('the glue instantiated asynchronously');
      const binding = this.#binding;
      const fn = (exports as Record<string, Record<string, unknown> | undefined> | null)?.[binding.exportKey]?.[binding.fn];
      if (typeof fn !== 'function') throw new Error(`the component's exports have no ${binding.exportKey}.${binding.fn}`);
      wasi.endCall();
      let direct: AbiSession | undefined;
      if (plan !== undefined) {
        const bound = bindDirectCall(plan, core, spec.modules);
        // A component the plan does not fit after all is called through the glue (the plan was a guess from its glue's text).
        if (bound.ok) direct = bound.session;
        else this.#glueOnly = true;
      }
      const glueFn = fn as (arg: unknown) => unknown;
      const live: Live<A, R> = {
        call: direct === undefined ? (args) => binding.glueCall(glueFn, args) : (args) => binding.directCall(direct, args, meter.charger),
        direct,
        wasi,
        meter,
        snapshot: spec.state === 'shared' ? undefined : new StateSnapshot(instances, handles),
        heldAtSnapshot: wasi.held(),
      };
      this.#live = live;
      this.#scope = undefined;
      this.#served = false;
      return live;
    } catch (error) {
      wasi.dispose();
      const stopped = meter.stopped;
      if (stopped !== undefined) throw new InstantiationFailed(stopped, stopMessage(stopped, 'instantiate', spec.limits), { cause: error });
      if (error instanceof MemoryCapExceeded) throw new InstantiationFailed('memory', `memory cap ${spec.limits.memoryBytes / 1048576} MiB: ${error.message}`, { cause: error });
      if (meter.memoryRefused || error instanceof ResourceLimit || isHostCallLimit(error)) throw new InstantiationFailed('memory', `instantiating it ran out of memory: ${describe(error)}`, { cause: error });
      if (error instanceof TableShared) throw new InstantiationFailed('refused', error.message, { cause: error });
      if (error instanceof Wasm.RuntimeError) throw new InstantiationFailed('trap', `a start function trapped: ${describe(error)}`, { cause: error });
      throw new InstantiationFailed('error', describe(error), { cause: error });
    }
  }

  /** An instance for a call in `scope`: the live one (reset if the state policy says so) or a fresh one. */
  #ready(scope: string, deadline: number): Live<A, R> {
    const live = this.#live;
    if (live !== undefined) {
      const policy = this.#spec.state;
      const reset = this.#served && (policy === 'per-call' || (policy === 'per-scope' && this.#scope !== scope));
      if (!reset) return live;
      if (live.wasi.held() === live.heldAtSnapshot && live.snapshot?.restore() === true) {
        this.#served = false;
        return live;
      }
      this.#discard();
    }
    return this.#instantiate(deadline);
  }

  /**
   * Call the export once, synchronously, within the limits' deadline (or the shorter `deadlineMs`
   * given) from `started` (a `performance.now()` time, default now: a caller that has just read the
   * clock passes it).
   */
  call(args: A, deadlineMs?: number, started: number = performance.now()): EngineOutcome<R> {
    this.#lastMeter = undefined;
    return this.#call(args, started + Math.min(this.#spec.limits.deadlineMs, deadlineMs ?? Infinity));
  }

  #call(args: A, deadline: number): EngineOutcome<R> {
    const scope = this.#spec.state === 'per-scope' ? this.#binding.scopeOf(args) : '';
    let live: Live<A, R>;
    try {
      live = this.#ready(scope, deadline);
    } catch (error) {
      return instantiationOutcome(error instanceof InstantiationFailed ? error : new InstantiationFailed('error', describe(error)));
    }
    this.#scope = scope;
    this.#served = true;
    const { meter, wasi } = live;
    wasi.takeLogs(); // whatever the guest wrote outside a call is not this call's
    meter.begin(deadline);
    this.#lastMeter = meter;
    let value: R;
    try {
      value = live.call(args);
    } catch (error) {
      if (error instanceof InnerComponentCall && live.direct !== undefined) {
        // Nothing the guest did in this call is used: run it again through the glue, on a fresh
        // instance, within what is left of the same deadline — and use the glue from now on.
        this.#glueOnly = true;
        this.#discard();
        return this.#call(args, deadline);
      }
      const resources = wasi.endCall();
      const logs = wasi.takeLogs();
      const classified = classifyFailure(error, { stopped: meter.stopped, memoryRefused: meter.memoryRefused, resources, limits: this.#spec.limits, logs });
      this.#discard();
      return classified;
    }
    const resources = wasi.endCall();
    const logs = wasi.takeLogs();
    const stopped = meter.stopped;
    if (stopped !== undefined) {
      // It caught the stop (WebAssembly exception handling can catch a host's exception) and went on.
      this.#discard();
      return { type: 'timeout', reason: stopped, phase: 'call', message: stopMessage(stopped, 'call', this.#spec.limits), logs };
    }
    if (resources.exceeded) {
      this.#discard();
      return { type: 'limit', what: 'resources', message: 'the guest tried to hold more WASI resources than allowed (and caught the refusal)', logs };
    }
    // What the call left open has been closed; the instance that still refers to it goes too.
    if (resources.leaked > 0 || resources.instanceOverflow) this.#discard();
    return { type: 'ok', value, logs };
  }

  /** Fuel units the last call spent in the guest (undefined when it never reached the guest). */
  fuelUsed(): number | undefined {
    return this.#lastMeter?.unitsUsed();
  }

  /** Discard the instance (closing what it left open). */
  discard(): void {
    this.#discard();
  }

  #discard(): void {
    this.#live?.wasi.dispose();
    this.#live = undefined;
    this.#scope = undefined;
    this.#served = false;
  }
}

function instantiationOutcome(error: InstantiationFailed): EngineOutcome<never> {
  const logs = {};
  switch (error.reason) {
    case 'deadline':
    case 'fuel':
      return { type: 'timeout', reason: error.reason, phase: 'instantiate', message: error.message, logs };
    case 'memory':
      return { type: 'limit', what: 'memory', message: error.message, logs };
    case 'trap':
      return { type: 'trap', kind: 'trap', message: error.message, memoryAtLimit: false, logs };
    case 'refused':
    case 'error':
      return { type: 'load-failure', message: `cannot instantiate the component: ${error.message}`, logs };
  }
}

export type { StopReason };
