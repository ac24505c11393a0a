import { WitDecision, witDecisionSize, type WitHookRequest } from '../../codec/wit.js';
import { CoreInstances, ImportGate, bindDirectCall, type DirectCaller, type DirectOutcome, type DirectPlan } from './direct/index.js';
import { fastWitDecision } from './fast/messages.js';
import type * as Handler from './generated/interfaces/basis-hook-handler.js';
import type { CallOutcome } from './messages.js';
import { CallMeter, GuestStopped, MemoryCapExceeded, TableShared, type StopReason } from './meter/call-meter.js';
import { createSandbox, type Sandbox, type SandboxConfig, type SandboxImports } from './sandbox/index.js';
import { sleepUntil } from './sandbox/io.js';
import { isAnswerTooLarge, isHostCallLimit } from './sandbox/host-calls.js';
import { ResourceLimit } from './sandbox/resources.js';
import { GuestExit } from './sandbox/wasi-error.js';
import { StateSnapshot, type HandleTables, type StatePolicy } from './state.js';
import { Wasm, type WasmInstance, type WasmModule } from './wasm-api.js';
import { asWitRequest } from './wit-types.js';

/** jco's instantiation-mode glue: `instantiate(getCoreModule, imports, instantiateCore)`. */
export interface Glue {
  /**
   * Instantiate. Given an `instantiateCore` that returns instances (not promises), jco's glue runs to
   * the end synchronously and returns the exports; otherwise it returns a promise of them.
   */
  instantiate(
    getCoreModule: (name: string) => WasmModule,
    imports: SandboxImports,
    instantiateCore: (module: WasmModule, imports?: Readonly<Record<string, unknown>>) => WasmInstance | Promise<WasmInstance>,
  ): unknown;
}

/** Check that an imported module is jco glue. */
export function asGlue(module: unknown): Glue {
  const instantiate = (module as { instantiate?: unknown } | null)?.instantiate;
  if (typeof instantiate !== 'function') throw new TypeError('the transpiled glue exports no instantiate()');
  return module as Glue;
}

/** A call's limits (see ComponentOptions). */
export interface GuestLimits {
  /** Wall-clock deadline of a call, from its start, for everything it triggers (instantiation included). */
  readonly timeoutMs: number;
  /** Deadline of the first instantiation, when the component is loaded. */
  readonly loadTimeoutMs: number;
  /** Explicit fuel per call (a deterministic cap besides the deadline). */
  readonly fuel?: number | undefined;
  /** Every memory and table of the component together. */
  readonly memoryBytes: number;
}

/** What a guest instance is made of (a worker's `init` message is one). */
export interface GuestSpec {
  /** The handler export's key in the glue's exports, e.g. `basis:hook/handler@1.0.0`. */
  readonly handler: string;
  /** Compiled, fuel-instrumented core modules by the name the glue asks for. */
  readonly modules: Readonly<Record<string, WasmModule>>;
  /** Answers larger than this are refused before they leave the instance. */
  readonly maxOutputBytes: number;
  readonly sandbox: SandboxConfig;
  readonly limits: GuestLimits;
  readonly state: StatePolicy;
  /**
   * How to call `handle` directly through the canonical ABI (direct/plan.ts), found once per
   * component at load; absent: always through jco's glue.
   */
  readonly direct?: DirectPlan | undefined;
}

type Handle = typeof Handler.handle;

interface Live {
  readonly handle: Handle;
  /** The direct caller bound to this instance (absent: the glue is used). */
  readonly direct: DirectCaller | undefined;
  readonly sandbox: Sandbox;
  readonly meter: CallMeter;
  /** The state to reset to (none with `state: "shared"`). */
  readonly snapshot: StateSnapshot | undefined;
  /** The sandbox's resources the guest held at the snapshot (a reset needs the same). */
  readonly heldAtSnapshot: number;
}

export type { CallOutcome } from './messages.js';

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

/** The glue's strict UTF-8 decoder refused a string the guest returned (see transpile.ts). */
function isInvalidUtf8(error: unknown): boolean {
  return error instanceof TypeError && (error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA';
}

function stopMessage(reason: StopReason, phase: 'call' | 'instantiate', limits: GuestLimits): string {
  if (reason === 'fuel') return `the guest ran out of its fuel (${limits.fuel ?? 0} units) and was stopped`;
  return phase === 'instantiate'
    ? `the component could not be instantiated within its timeout_ms (${limits.timeoutMs} ms): a start function did not return in time`
    : `the guest did not return within its timeout_ms (${limits.timeoutMs} ms) and was stopped`;
}

/**
 * Every function in a core instance's import object that is host code (not a wasm export of an
 * instance made before), wrapped so its time counts against the call's deadline.
 */
function meterImports(imports: Readonly<Record<string, unknown>> | undefined, wasmFunctions: ReadonlySet<unknown>, meter: CallMeter): Record<string, unknown> | undefined {
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
 * One call through jco's glue, as the direct caller's outcome: `err(...)` arrives as jco's
 * `ComponentError` and stays an exception (see `#failed`); anything the glue hands back that is not a
 * decision breaks the ABI. Exceptions propagate.
 */
function viaGlue(handle: Handle, request: WitHookRequest): DirectOutcome {
  const answer: unknown = handle(asWitRequest(request));
  const fast = fastWitDecision(answer);
  if (fast !== undefined) return { type: 'ok', decision: fast };
  const decision = WitDecision.safeParse(answer);
  if (decision.success) return { type: 'ok', decision: decision.data };
  return { type: 'abi', violation: 'discriminant', message: 'the glue returned something that is not a decision' };
}

/**
 * A request's tenant — who may see what its call leaves behind — is its (`workspace`, `agentId`),
 * kept and compared field by field (no key string made per call, and not the request, which may hold
 * megabytes of input).
 */
interface Tenant {
  readonly workspace: string;
  readonly agentId: string;
}

/**
 * One guest, instantiated on the current thread with its sandbox — in a worker (worker isolation) or
 * on the caller's thread (metered isolation) — and metered either way (see meter/call-meter.ts): every
 * call has one wall-clock deadline, `timeout_ms` from its start, for all it triggers: instantiating a
 * fresh instance when there is none, resetting the state for another tenant, and the call itself.
 * Synchronous from start to end: nothing else runs on the thread meanwhile.
 *
 * A call that throws anything but the component's own `err` discards the instance (a trapped jco
 * instance refuses every later call; a guest with a shadow stack in linear memory may be corrupt), and
 * so does a call that leaves WASI resources open; the next call makes a fresh one, under its own
 * deadline — a guest that cannot be instantiated in time fails that call `timeout`, and the next call
 * tries again.
 */
export class GuestInstance {
  readonly #spec: GuestSpec;
  readonly #glue: Glue;
  readonly #names = new Map<WasmModule, string>();
  #live: Live | undefined;
  /** Tenant of the last call the live instance served (undefined: it is fresh). */
  #workspace: string | undefined;
  #agentId: string | undefined;
  #served = false;
  /** Call through jco's glue from now on: the component has no direct plan, or proved not to fit it. */
  #glueOnly = false;
  /** The meter of the last call, once the call reached the guest (for {@link unitsUsed}). */
  #lastMeter: CallMeter | undefined;

  constructor(spec: GuestSpec, glue: Glue) {
    this.#spec = spec;
    this.#glue = glue;
    for (const [name, module] of Object.entries(spec.modules)) this.#names.set(module, name);
  }

  /** Whether an instance is up (false after a discarding failure, until the next call makes one). */
  get alive(): boolean {
    return this.#live !== undefined;
  }

  /** Make the first instance, within the load deadline. Throws {@link InstantiationFailed}. */
  start(): void {
    this.#discard();
    this.#instantiate(performance.now() + this.#spec.limits.loadTimeoutMs);
  }

  /** Instantiate under `deadline`. Throws {@link InstantiationFailed}. */
  #instantiate(deadline: number): Live {
    const spec = this.#spec;
    const meter = new CallMeter(spec.limits.memoryBytes, spec.limits.fuel);
    meter.begin(deadline);
    let handles: HandleTables | undefined;
    const sandbox = createSandbox(spec.sandbox, {
      sleep: meter.sleeper(sleepUntil),
      glue: {
        charge: meter.charger,
        maxAnswerBytes: spec.maxOutputBytes,
        onHandleTables: (tables, freeFlag) => {
          handles = { tables, freeFlag };
        },
      },
    });
    const plan = this.#glueOnly ? undefined : spec.direct;
    // With a direct plan, every host import also goes through the post-return gate (direct/gate.ts).
    const core = new CoreInstances(plan === undefined ? undefined : new ImportGate());
    const instances: WasmInstance[] = [];
    let exports: unknown;
    try {
      exports = this.#glue.instantiate(
        (name) => {
          const module = spec.modules[name];
          if (module === undefined) throw new Error(`the glue asked for core module ${name}, which the host did not compile`);
          return module;
        },
        sandbox.imports,
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
      const handler = (exports as Record<string, { handle?: unknown } | undefined> | null)?.[spec.handler];
      if (typeof handler?.handle !== 'function') throw new Error(`the component's exports have no ${spec.handler}.handle`);
      sandbox.endCall();
      let direct: DirectCaller | undefined;
      if (plan !== undefined) {
        const bound = bindDirectCall(plan, core, spec.modules);
        // A component the plan does not fit after all is called through the glue (the plan was a guess from its glue's text).
        if (bound.ok) direct = bound.caller;
        else this.#glueOnly = true;
      }
      const live: Live = {
        handle: handler.handle as Handle,
        direct,
        sandbox,
        meter,
        snapshot: spec.state === 'shared' ? undefined : new StateSnapshot(instances, handles),
        heldAtSnapshot: sandbox.held(),
      };
      this.#live = live;
      this.#workspace = undefined;
    this.#agentId = undefined;
      this.#served = false;
      return live;
    } catch (error) {
      sandbox.dispose();
      const stopped = meter.stopped;
      if (stopped !== undefined) throw new InstantiationFailed(stopped, stopMessage(stopped, 'instantiate', spec.limits), { cause: error });
      if (error instanceof MemoryCapExceeded) throw new InstantiationFailed('memory', `memory_mb ${spec.limits.memoryBytes / 1048576}: ${error.message}`, { cause: error });
      if (meter.memoryRefused || error instanceof ResourceLimit || isHostCallLimit(error)) throw new InstantiationFailed('memory', `instantiating it ran out of memory: ${describe(error)}`, { cause: error });
      if (error instanceof TableShared) throw new InstantiationFailed('refused', error.message, { cause: error });
      if (error instanceof Wasm.RuntimeError) throw new InstantiationFailed('trap', `a start function trapped: ${describe(error)}`, { cause: error });
      throw new InstantiationFailed('error', describe(error), { cause: error });
    }
  }

  /** An instance for a call from `tenant`: the live one (reset if the state policy says so) or a fresh one. */
  #ready(tenant: Tenant, deadline: number): Live {
    const live = this.#live;
    if (live !== undefined) {
      const reset = this.#served && (this.#spec.state === 'per_call' || (this.#spec.state === 'per_tenant' && (this.#workspace !== tenant.workspace || this.#agentId !== tenant.agentId)));
      if (!reset) return live;
      if (live.sandbox.held() === live.heldAtSnapshot && live.snapshot?.restore() === true) {
        this.#served = false;
        return live;
      }
      this.#discard();
    }
    return this.#instantiate(deadline);
  }

  /**
   * Call `handle` once, synchronously, within `timeout_ms` (or the shorter `timeoutMs` given) from
   * `started` (a `performance.now()` time, default now: a caller that has just read the clock passes it).
   */
  call(request: WitHookRequest, timeoutMs?: number, started: number = performance.now()): CallOutcome {
    const limits = this.#spec.limits;
    this.#lastMeter = undefined;
    return this.#call(request, started + Math.min(limits.timeoutMs, timeoutMs ?? Infinity));
  }

  #call(request: WitHookRequest, deadline: number): CallOutcome {
    const limits = this.#spec.limits;
    // The request itself stands for its tenant: only its workspace and agentId are ever read.
    const tenant: Tenant = request;
    let live: Live;
    try {
      live = this.#ready(tenant, deadline);
    } catch (error) {
      const failed = error instanceof InstantiationFailed ? error : new InstantiationFailed('error', describe(error));
      return this.#instantiationOutcome(failed);
    }
    this.#workspace = tenant.workspace;
    this.#agentId = tenant.agentId;
    this.#served = true;
    const { meter, sandbox } = live;
    sandbox.takeLogs(); // whatever the guest wrote outside a call is not this call's
    meter.begin(deadline);
    this.#lastMeter = meter;
    let answer: DirectOutcome;
    try {
      answer = live.direct === undefined ? viaGlue(live.handle, request) : live.direct.call(request, this.#spec.maxOutputBytes, meter.charger);
    } catch (error) {
      return this.#failed(live, error);
    }
    if (answer.type === 'needs-glue') {
      // Nothing the guest did in this call is used: run it again through the glue, on a fresh
      // instance, within what is left of the same deadline — and use the glue from now on.
      this.#glueOnly = true;
      this.#discard();
      return this.#call(request, deadline);
    }
    const resources = sandbox.endCall();
    const logs = sandbox.takeLogs();
    const stopped = meter.stopped;
    if (stopped !== undefined) {
      // It caught the stop (WebAssembly exception handling can catch a host's exception) and went on.
      this.#discard();
      return { type: 'stopped', reason: stopped, phase: 'call', message: stopMessage(stopped, 'call', limits), logs };
    }
    if (resources.exceeded) {
      this.#discard();
      return { type: 'limit', what: 'resources', message: 'the guest tried to hold more WASI resources than allowed (and caught the refusal)', logs };
    }
    // What the call left open has been closed; the instance that still refers to it goes too.
    if (resources.leaked > 0 || resources.instanceOverflow) this.#discard();
    switch (answer.type) {
      case 'ok': {
        const bytes = live.direct === undefined ? witDecisionSize(answer.decision) : 0;
        // Refused here, so an oversized answer never crosses into the host (the direct caller refuses it before decoding).
        if (bytes > this.#spec.maxOutputBytes) return { type: 'too-large', bytes, logs };
        return { type: 'result', decision: answer.decision, logs };
      }
      case 'err':
        return { type: 'guest-error', message: answer.message, logs };
      case 'too-large':
        return { type: 'too-large', bytes: answer.bytes, logs };
      case 'abi':
        this.#discard();
        if (answer.violation === 'utf8') return { type: 'malformed', message: `the guest returned a string that is not valid UTF-8 (${answer.message})`, logs };
        return { type: 'trap', kind: 'abi', message: answer.message, memoryAtLimit: false, logs };
    }
  }

  #instantiationOutcome(error: InstantiationFailed): CallOutcome {
    const logs = {};
    switch (error.reason) {
      case 'deadline':
      case 'fuel':
        return { type: 'stopped', reason: error.reason, phase: 'instantiate', message: error.message, logs };
      case 'memory':
        return { type: 'limit', what: 'memory', message: error.message, logs };
      case 'trap':
        return { type: 'trap', kind: 'trap', message: error.message, memoryAtLimit: false, logs };
      case 'refused':
      case 'error':
        return { type: 'refused', message: `cannot instantiate the component: ${error.message}` };
    }
  }

  #failed(live: Live, error: unknown): CallOutcome {
    const { meter, sandbox } = live;
    const resources = sandbox.endCall();
    const logs = sandbox.takeLogs();
    const stopped = meter.stopped;
    if (stopped !== undefined || error instanceof GuestStopped) {
      this.#discard();
      const reason = stopped ?? 'deadline';
      return { type: 'stopped', reason, phase: 'call', message: stopMessage(reason, 'call', this.#spec.limits), logs };
    }
    const err = componentErrorPayload(error);
    if (err !== undefined) {
      if (resources.leaked > 0 || resources.instanceOverflow) this.#discard();
      return { type: 'guest-error', message: typeof err.payload === 'string' ? err.payload : JSON.stringify(err.payload) ?? String(err.payload), logs };
    }
    // Past this point the instance goes (an answer the glue refused to lift left its call half done).
    this.#discard();
    if (isAnswerTooLarge(error)) return { type: 'too-large', bytes: error.bytes, logs };
    if (isHostCallLimit(error)) return { type: 'limit', what: 'host-call', message: error.message, logs };
    if (error instanceof ResourceLimit || resources.exceeded) return { type: 'limit', what: 'resources', message: describe(error), logs };
    if (isInvalidUtf8(error)) return { type: 'malformed', message: 'the guest returned a string that is not valid UTF-8', logs };
    let kind: 'trap' | 'stack-overflow' | 'exit' | 'abi';
    if (error instanceof GuestExit) kind = 'exit';
    else if (error instanceof Wasm.RuntimeError) kind = 'trap';
    else if (error instanceof RangeError && /call stack/i.test(error.message)) kind = 'stack-overflow';
    else kind = 'abi';
    return { type: 'trap', kind, message: describe(error), memoryAtLimit: meter.memoryRefused, logs };
  }

  /** Fuel units the last call spent in the guest (undefined when it never reached the guest). */
  unitsUsed(): number | undefined {
    return this.#lastMeter?.unitsUsed();
  }

  /** Discard the instance (closing what it left open). */
  discard(): void {
    this.#discard();
  }

  #discard(): void {
    this.#live?.sandbox.dispose();
    this.#live = undefined;
    this.#workspace = undefined;
    this.#agentId = undefined;
    this.#served = false;
  }
}
