import { WitDecision, witDecisionSize, type WitHookRequest } from '../../codec/wit.js';
import type * as Handler from './generated/interfaces/basis-hook-handler.js';
import type { CallReply } from './messages.js';
import { FUEL_EXPORT } from './meter/instrument.js';
import { FuelExhausted, HostMeter, type FuelBudget } from './meter/fuel.js';
import { createSandbox, type Sandbox, type SandboxConfig, type SandboxImports } from './sandbox/index.js';
import { sleepUntil } from './sandbox/io.js';
import { GuestExit } from './sandbox/wasi-error.js';
import { Wasm, type WasmGlobal, type WasmInstance, type WasmMemory, type WasmModule } from './wasm-api.js';
import { asWitRequest } from './wit-types.js';

/** jco's instantiation-mode glue: `instantiate(getCoreModule, imports, instantiateCore)`. */
export interface Glue {
  instantiate(
    getCoreModule: (name: string) => WasmModule,
    imports: SandboxImports,
    instantiateCore: (module: WasmModule, imports?: Readonly<Record<string, unknown>>) => Promise<WasmInstance>,
  ): Promise<Readonly<Record<string, unknown>>>;
}

/** Check that an imported module is jco glue. */
export function asGlue(module: unknown): Glue {
  const instantiate = (module as { instantiate?: unknown } | null)?.instantiate;
  if (typeof instantiate !== 'function') throw new TypeError('the transpiled glue exports no instantiate()');
  return module as Glue;
}

/** What a guest instance is made of (a worker's `init` message is one). */
export interface GuestSpec {
  /** The handler export's key in the glue's exports, e.g. `basis:hook/handler@1.0.0`. */
  readonly handler: string;
  /** Compiled core modules by the name the glue asks for. */
  readonly modules: Readonly<Record<string, WasmModule>>;
  /** Each module's largest memory maximum in bytes (to tell memory exhaustion from other traps). */
  readonly memoryMaxBytes: Readonly<Record<string, number>>;
  /** Answers larger than this are refused before they leave the instance. */
  readonly maxOutputBytes: number;
  readonly sandbox: SandboxConfig;
}

type Handle = typeof Handler.handle;

interface Live {
  readonly handle: Handle;
  readonly sandbox: Sandbox;
  readonly memories: ReadonlyArray<{ readonly memory: WasmMemory; readonly maxBytes: number }>;
  /** Metered: every core instance's fuel counter. */
  readonly fuel: readonly WasmGlobal[];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What one call came to, before the id is attached. */
export type CallOutcome = DistributiveOmit<CallReply, 'id'>;

function logsOf(sandbox: Sandbox): { stdout?: string; stderr?: string } {
  return { ...sandbox.takeLogs() };
}

/** jco's `ComponentError` (what `err(...)` becomes) carries its value as an own `payload`. */
function componentErrorPayload(error: unknown): { payload: unknown } | undefined {
  if (error instanceof Error && Object.prototype.hasOwnProperty.call(error, 'payload')) {
    return { payload: (error as unknown as { payload: unknown }).payload };
  }
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Every function in a core instance's import object that is host code (not a wasm export of an
 * instance made before), wrapped so the time it takes is charged to the call.
 */
function meterImports(imports: Readonly<Record<string, unknown>> | undefined, wasmFunctions: ReadonlySet<unknown>, meter: HostMeter): Record<string, unknown> | undefined {
  if (imports === undefined) return undefined; // the glue passes none to a module without imports
  const out: Record<string, unknown> = {};
  for (const [namespace, value] of Object.entries(imports)) {
    if (value === null || typeof value !== 'object') {
      out[namespace] = value;
      continue;
    }
    const wrapped: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      wrapped[name] = typeof item === 'function' && !wasmFunctions.has(item) ? meter.wrap(item as (...args: never[]) => unknown) : item;
    }
    out[namespace] = wrapped;
  }
  return out;
}

/**
 * One guest, instantiated on the current thread with its sandbox — in a worker (worker isolation) or
 * on the caller's thread (metered isolation, with a {@link FuelBudget}). A call that throws anything
 * but the component's own `err` discards the instance (a trapped jco instance refuses every later
 * call, and a guest with a shadow stack in linear memory may be corrupt after a stack overflow);
 * {@link restart} makes a fresh one. Never reused after a trap.
 *
 * Metered, the core modules must be the instrumented ones: before every call each core instance's
 * fuel counter is filled to the budget and the host-call allowance reset; every host import is timed
 * against that allowance; a wait on a clock past it is refused. Running out is its own outcome
 * (`out-of-fuel`), told from the guest's own traps by the counters (below zero only after the meter's
 * own `unreachable`) and the allowance.
 */
export class GuestInstance {
  readonly #spec: GuestSpec;
  readonly #glue: Glue;
  readonly #budget: FuelBudget | undefined;
  readonly #host = new HostMeter();
  #live: Live | undefined;

  constructor(spec: GuestSpec, glue: Glue, budget?: FuelBudget) {
    this.#spec = spec;
    this.#glue = glue;
    this.#budget = budget;
  }

  /** Whether an instance is up (false after a discarding failure, until {@link restart}). */
  get alive(): boolean {
    return this.#live !== undefined;
  }

  /** Instantiate (again). Rejects when the component cannot be instantiated. */
  async restart(): Promise<void> {
    this.#discard();
    const spec = this.#spec;
    const budget = this.#budget;
    const names = new Map<WasmModule, string>();
    for (const [name, module] of Object.entries(spec.modules)) names.set(module, name);
    const memories = new Map<WasmMemory, number>();
    const fuel: WasmGlobal[] = [];
    const wasmFunctions = new Set<unknown>();
    // Instantiation (the glue's start calls included) runs under one call's budget.
    if (budget !== undefined) this.#host.reset(budget.hostMs);
    const sandbox = createSandbox(spec.sandbox, budget === undefined ? {} : { sleep: this.#host.sleeper(sleepUntil) });
    try {
      const exports = await this.#glue.instantiate(
        (name) => {
          const module = spec.modules[name];
          if (module === undefined) throw new Error(`the glue asked for core module ${name}, which the host did not compile`);
          return module;
        },
        sandbox.imports,
        async (module, imports) => {
          const name = names.get(module);
          // Only modules the host compiled (with their memory capped, and metered if so) may run.
          if (name === undefined) throw new Error('the glue instantiated a core module the host did not compile');
          const instance = await Wasm.instantiate(module, budget === undefined ? imports : meterImports(imports, wasmFunctions, this.#host));
          for (const value of Object.values(instance.exports)) {
            if (value instanceof Wasm.Memory && !memories.has(value)) memories.set(value, spec.memoryMaxBytes[name] ?? 0);
            if (typeof value === 'function') wasmFunctions.add(value);
          }
          if (budget !== undefined) {
            const counter = instance.exports[FUEL_EXPORT];
            if (!(counter instanceof Wasm.Global)) throw new Error(`core module ${name} has no fuel counter: it was not instrumented`);
            counter.value = budget.fuel;
            fuel.push(counter);
          }
          return instance;
        },
      );
      const handler = exports[spec.handler] as { handle?: unknown } | undefined;
      if (typeof handler?.handle !== 'function') throw new Error(`the component's exports have no ${spec.handler}.handle`);
      this.#live = {
        handle: handler.handle as Handle,
        sandbox,
        memories: [...memories].map(([memory, maxBytes]) => ({ memory, maxBytes })),
        fuel,
      };
    } catch (error) {
      sandbox.dispose();
      throw error;
    }
  }

  /**
   * Call `handle` once, synchronously. Worker isolation: a guest that never returns is stopped by the
   * host killing the worker. Metered: by its fuel.
   */
  call(request: WitHookRequest): CallOutcome {
    const live = this.#live;
    if (live === undefined) throw new Error('no live instance');
    live.sandbox.takeLogs(); // whatever the guest wrote outside a call is not this call's
    const budget = this.#budget;
    if (budget !== undefined) {
      for (const counter of live.fuel) counter.value = budget.fuel;
      this.#host.reset(budget.hostMs);
    }
    let answer: unknown;
    try {
      answer = live.handle(asWitRequest(request));
    } catch (error) {
      const logs = logsOf(live.sandbox);
      if (budget !== undefined && this.#outOfFuel(live, error)) {
        this.#discard();
        return { type: 'out-of-fuel', message: describe(error), logs };
      }
      const err = componentErrorPayload(error);
      if (err !== undefined) {
        return { type: 'guest-error', message: typeof err.payload === 'string' ? err.payload : JSON.stringify(err.payload) ?? String(err.payload), logs };
      }
      const memoryAtLimit = live.memories.some(({ memory, maxBytes }) => {
        if (maxBytes === 0) return false;
        // memory.grow failed, or would have: within a typical grow step (1 MiB, or 1/16 of a small cap) of the maximum.
        const slack = Math.min(1024 * 1024, Math.floor(maxBytes / 16));
        return memory.buffer.byteLength + slack >= maxBytes;
      });
      this.#discard();
      let kind: 'trap' | 'stack-overflow' | 'exit' | 'abi';
      if (error instanceof GuestExit) kind = 'exit';
      else if (error instanceof Wasm.RuntimeError) kind = 'trap';
      else if (error instanceof RangeError && /call stack/i.test(error.message)) kind = 'stack-overflow';
      else kind = 'abi';
      return { type: 'trap', kind, message: describe(error), memoryAtLimit, logs };
    }
    const logs = logsOf(live.sandbox);
    if (budget !== undefined && this.#host.exhausted) {
      // It caught the exhaustion (wasm exception handling can catch a host's exception) and went on.
      this.#discard();
      return { type: 'out-of-fuel', message: 'the guest went on after its time allowance in host calls ran out', logs };
    }
    const decision = WitDecision.safeParse(answer);
    if (!decision.success) {
      this.#discard();
      return { type: 'trap', kind: 'abi', message: 'the glue returned something that is not a decision', memoryAtLimit: false, logs };
    }
    const bytes = witDecisionSize(decision.data);
    // Refused here, so an oversized answer never crosses into the host.
    if (bytes > this.#spec.maxOutputBytes) return { type: 'too-large', bytes, logs };
    return { type: 'result', decision: decision.data, logs };
  }

  /** Discard the instance (closing what it left open). */
  discard(): void {
    this.#discard();
  }

  /** The meter's own trap (a counter below zero), or the host-call allowance spent. */
  #outOfFuel(live: Live, error: unknown): boolean {
    if (error instanceof FuelExhausted || this.#host.exhausted) return true;
    if (!(error instanceof Wasm.RuntimeError)) return false;
    return live.fuel.some((counter) => typeof counter.value === 'bigint' && counter.value < 0n);
  }

  #discard(): void {
    this.#live?.sandbox.dispose();
    this.#live = undefined;
  }
}
