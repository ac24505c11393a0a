import { WitDecision, witDecisionSize, type WitHookRequest } from '../../../codec/wit.js';
import type * as Handler from '../generated/interfaces/basis-hook-handler.js';
import type { CallReply, InitMessage } from '../messages.js';
import { createSandbox, type Sandbox, type SandboxImports } from '../sandbox/index.js';
import { GuestExit } from '../sandbox/wasi-error.js';
import { Wasm, type WasmInstance, type WasmMemory, type WasmModule } from '../wasm-api.js';
import { asWitRequest } from '../wit-types.js';

/** jco's instantiation-mode glue: `instantiate(getCoreModule, imports, instantiateCore)`. */
export interface Glue {
  instantiate(
    getCoreModule: (name: string) => WasmModule,
    imports: SandboxImports,
    instantiateCore: (module: WasmModule, imports: Readonly<Record<string, unknown>>) => Promise<WasmInstance>,
  ): Promise<Readonly<Record<string, unknown>>>;
}

/** Check that an imported module is jco glue. */
export function asGlue(module: unknown): Glue {
  const instantiate = (module as { instantiate?: unknown } | null)?.instantiate;
  if (typeof instantiate !== 'function') throw new TypeError('the transpiled glue exports no instantiate()');
  return module as Glue;
}

type Handle = typeof Handler.handle;

interface Live {
  readonly handle: Handle;
  readonly sandbox: Sandbox;
  readonly memories: ReadonlyArray<{ readonly memory: WasmMemory; readonly maxBytes: number }>;
}

/** What one call came to, before the id is attached. */
export type CallOutcome = DistributiveOmit<CallReply, 'id'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
 * One guest, instantiated in this worker with its sandbox. A call that throws anything but the
 * component's own `err` discards the instance (a trapped jco instance refuses every later call, and a
 * guest with a shadow stack in linear memory may be corrupt after a stack overflow); {@link restart}
 * makes a fresh one. Never reused after a trap.
 */
export class GuestInstance {
  readonly #init: InitMessage;
  readonly #glue: Glue;
  #live: Live | undefined;

  constructor(init: InitMessage, glue: Glue) {
    this.#init = init;
    this.#glue = glue;
  }

  /** Whether an instance is up (false after a discarding failure, until {@link restart}). */
  get alive(): boolean {
    return this.#live !== undefined;
  }

  /** Instantiate (again). Rejects when the component cannot be instantiated. */
  async restart(): Promise<void> {
    this.#discard();
    const init = this.#init;
    const names = new Map<WasmModule, string>();
    for (const [name, module] of Object.entries(init.modules)) names.set(module, name);
    const memories = new Map<WasmMemory, number>();
    const sandbox = createSandbox(init.sandbox);
    try {
      const exports = await this.#glue.instantiate(
        (name) => {
          const module = init.modules[name];
          if (module === undefined) throw new Error(`the glue asked for core module ${name}, which the host did not compile`);
          return module;
        },
        sandbox.imports,
        async (module, imports) => {
          const name = names.get(module);
          // Only modules the host compiled (with their memory capped) may run.
          if (name === undefined) throw new Error('the glue instantiated a core module the host did not compile');
          const instance = await Wasm.instantiate(module, imports);
          for (const value of Object.values(instance.exports)) {
            if (value instanceof Wasm.Memory && !memories.has(value)) memories.set(value, init.memoryMaxBytes[name] ?? 0);
          }
          return instance;
        },
      );
      const handler = exports[init.handler] as { handle?: unknown } | undefined;
      if (typeof handler?.handle !== 'function') throw new Error(`the component's exports have no ${init.handler}.handle`);
      this.#live = {
        handle: handler.handle as Handle,
        sandbox,
        memories: [...memories].map(([memory, maxBytes]) => ({ memory, maxBytes })),
      };
    } catch (error) {
      sandbox.dispose();
      throw error;
    }
  }

  /** Call `handle` once. Synchronous: a guest that never returns is stopped by the host killing the worker. */
  call(request: WitHookRequest): CallOutcome {
    const live = this.#live;
    if (live === undefined) throw new Error('no live instance');
    live.sandbox.takeLogs(); // whatever the guest wrote outside a call is not this call's
    let answer: unknown;
    try {
      answer = live.handle(asWitRequest(request));
    } catch (error) {
      const logs = logsOf(live.sandbox);
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
    const decision = WitDecision.safeParse(answer);
    if (!decision.success) {
      this.#discard();
      return { type: 'trap', kind: 'abi', message: 'the glue returned something that is not a decision', memoryAtLimit: false, logs };
    }
    const bytes = witDecisionSize(decision.data);
    // Refused here, so an oversized answer never crosses into the host.
    if (bytes > this.#init.maxOutputBytes) return { type: 'too-large', bytes, logs };
    return { type: 'result', decision: decision.data, logs };
  }

  #discard(): void {
    this.#live?.sandbox.dispose();
    this.#live = undefined;
  }
}
