import type { Sleeper } from '../wasi/io.js';
import { Wasm, type WasmGlobal, type WasmInstance, type WasmMemory, type WasmTable } from '../wasm-api.js';
import {
  EXTERNREF_ELEMENT_BYTES,
  FUNCREF_ELEMENT_BYTES,
  GROW_UNITS,
  MAX_TABLE_SHARERS,
  MEMORY_GROW_NS_PER_PAGE,
  SLICE_UNITS,
  TABLE_GROW_NS_PER_ELEMENT,
} from './costs.js';
import { FUEL_EXPORT, HOST_STOP, HOST_TABLE_EXPORT, MEMORY_EXPORT_PREFIX, START_EXPORT, TABLE_EXPORT_PREFIX } from './instrument.js';
import { fillHostTable } from './trampoline.js';

/*
 * The host side of metering, for one component instance (all its core instances): one wall-clock
 * deadline per call, fuel granted in slices, one memory cap for every memory and table together.
 */

/** Why the meter stopped a guest. */
export type StopReason = 'deadline' | 'fuel';

/**
 * Thrown from a host import when the guest is stopped there (its deadline passed during the import, or
 * it called the host after being stopped). Unwinds the guest; if a WebAssembly `catch_all` catches it
 * anyway, every fuel counter is empty and the meter answers no more slices, so the guest traps at its
 * next check.
 */
export class GuestStopped extends Error {
  override readonly name = 'GuestStopped' as const;
}

/** The component's memories and tables went over its cap at instantiation. */
export class MemoryCapExceeded extends Error {
  override readonly name = 'MemoryCapExceeded' as const;
}

/** More instances share a table than {@link MAX_TABLE_SHARERS}. */
export class TableShared extends Error {
  override readonly name = 'TableShared' as const;
}

/** Bytes one element of a table costs, per instance sharing it. */
function elementBytes(funcref: boolean): number {
  return funcref ? FUNCREF_ELEMENT_BYTES : EXTERNREF_ELEMENT_BYTES;
}

interface TableInfo {
  readonly funcref: boolean;
  sharers: number;
}

interface Core {
  readonly fuel: WasmGlobal;
  /** Memory and table index spaces of the core instance. */
  readonly memories: readonly WasmMemory[];
  readonly tables: readonly WasmTable[];
}

const PAGE = 65536;
const ZERO = 0n;
/** A whole slice as the counter holds it (made once: converting per call costs). */
const SLICE_BIG = BigInt(SLICE_UNITS);
const HOLDERS = 2;

/**
 * Meters one component instance. Before a call (or an instantiation) {@link begin} sets the
 * deadline; the instrumented code asks {@link HostFunctions.refuel} for a slice of
 * {@link SLICE_UNITS} whenever its counter runs out, and gets one while the clock is before the
 * deadline (and an explicit fuel cap is not spent). Each core instance has its own counter; at most
 * {@link HOLDERS} hold unspent fuel at once (granting to a third takes back the oldest one's rest), so
 * after the deadline a guest can run on for at most that many slices, however many core modules it
 * spreads its loop over. Host imports are timed by the same clock ({@link wrap}).
 *
 * Memory: every memory and table of every core instance counts against one cap; `memory.grow` and
 * `table.grow` come here and are refused (-1) past it. A table counts its elements once per instance
 * that shares it (V8 keeps a dispatch table in each).
 */
export class CallMeter {
  readonly #capBytes: number;
  readonly #cores: Core[] = [];
  readonly #memories = new Set<WasmMemory>();
  readonly #tables = new Map<WasmTable, TableInfo>();
  #deadline = 0;
  /** Explicit fuel left this call (Infinity without a cap). */
  #fuelLeft = Number.POSITIVE_INFINITY;
  readonly #fuelCap: number | undefined;
  /** The explicit fuel of the current call. */
  #callFuel: number | undefined;
  #stopped: StopReason | undefined;
  #memoryRefused = false;
  /** Units granted this call, minus what was taken back. */
  #granted = 0;
  /** Core instances holding unspent fuel, oldest first. */
  #holders: number[] = [];
  /** Which core instance last asked for fuel: it gets a slice up front at the next call. */
  #last: number | undefined;

  /**
   * @param capBytes the component's memory cap (all memories and tables).
   * @param fuelCap explicit fuel per call (deterministic), or undefined for the deadline alone.
   */
  constructor(capBytes: number, fuelCap: number | undefined) {
    this.#capBytes = capBytes;
    this.#fuelCap = fuelCap;
    this.#callFuel = fuelCap;
  }

  /**
   * Start a call (or an instantiation) that must end by `deadline` (a `performance.now()` time), with
   * the meter's explicit fuel (or `fuel`, for measurements).
   */
  begin(deadline: number, fuel: number | undefined = this.#fuelCap): void {
    this.#deadline = deadline;
    this.#stopped = undefined;
    this.#memoryRefused = false;
    this.#callFuel = fuel;
    this.#fuelLeft = fuel ?? Number.POSITIVE_INFINITY;
    this.#granted = 0;
    const cores = this.#cores;
    // The core instance that ran last most likely runs first: its first slice needs no host call.
    const last = this.#last;
    const holders = this.#holders;
    for (const held of holders) {
      // The one about to be granted a slice is written once, below: a BigInt global write costs ~50 ns.
      const holder = held === last ? undefined : cores[held];
      if (holder !== undefined) holder.fuel.value = ZERO;
    }
    holders.length = 0;
    const core = last === undefined ? undefined : cores[last];
    if (last !== undefined && core !== undefined) {
      const grant = Math.min(SLICE_UNITS, this.#fuelLeft);
      core.fuel.value = grant === SLICE_UNITS ? SLICE_BIG : BigInt(grant);
      this.#fuelLeft -= grant;
      this.#granted += grant;
      holders.push(last);
    }
  }

  /** Why the guest was stopped in this call, if it was. */
  get stopped(): StopReason | undefined {
    return this.#stopped;
  }

  /** A `memory.grow` or `table.grow` was refused in this call for the cap. */
  get memoryRefused(): boolean {
    return this.#memoryRefused;
  }

  /** The deadline of the current call. */
  get deadline(): number {
    return this.#deadline;
  }

  /** Units spent so far in this call (for tests and measurements: it reads the counters). */
  unitsUsed(): number {
    let left = 0;
    for (const held of this.#holders) {
      const value = this.#cores[held]?.fuel.value;
      if (typeof value === 'bigint' && value > ZERO) left += Number(value);
    }
    return this.#granted - left;
  }

  /** Bytes of every memory and table of the component. */
  usedBytes(): number {
    let bytes = 0;
    for (const memory of this.#memories) bytes += memory.buffer.byteLength;
    for (const [table, info] of this.#tables) bytes += table.length * elementBytes(info.funcref) * info.sharers;
    return bytes;
  }

  /** Stop the guest: no more slices, every counter emptied. */
  stop(reason: StopReason): void {
    this.#stopped ??= reason;
    for (const core of this.#cores) core.fuel.value = ZERO;
  }

  /**
   * Take in a core instance just made (before its start function runs, which this returns): fill its
   * host table, learn its memories and tables, and check the component's memory against the cap.
   * Throws {@link MemoryCapExceeded} or {@link TableShared}; a module that was not instrumented throws.
   */
  attach(instance: WasmInstance, name: string): (() => void) | undefined {
    const exports = instance.exports;
    const fuel = exports[FUEL_EXPORT];
    if (!(fuel instanceof Wasm.Global)) throw new Error(`core module ${name} has no fuel counter: it was not instrumented`);
    const memories: WasmMemory[] = [];
    const tables: WasmTable[] = [];
    for (const [key, value] of Object.entries(exports)) {
      if (key.startsWith(MEMORY_EXPORT_PREFIX) && value instanceof Wasm.Memory) {
        memories[Number(key.slice(MEMORY_EXPORT_PREFIX.length))] = value;
        this.#memories.add(value);
      } else if (key.startsWith(TABLE_EXPORT_PREFIX) && value instanceof Wasm.Table) {
        const funcref = key[TABLE_EXPORT_PREFIX.length] === 'f';
        tables[Number(key.slice(TABLE_EXPORT_PREFIX.length + 1))] = value;
        const info = this.#tables.get(value);
        if (info === undefined) {
          this.#tables.set(value, { funcref, sharers: 1 });
        } else if (++info.sharers > MAX_TABLE_SHARERS) {
          throw new TableShared(`a table is shared by ${info.sharers} core instances (at most ${MAX_TABLE_SHARERS}): every table operation would cost that many times over`);
        }
      }
    }
    const index = this.#cores.length;
    this.#cores.push({ fuel, memories, tables });
    fillHostTable(exports[HOST_TABLE_EXPORT], {
      refuel: (deficit) => this.#refuel(index, deficit),
      memoryGrow: (memory, delta) => this.#memoryGrow(index, memory, delta),
      tableGrowFuncref: (table, init, delta) => this.#tableGrow(index, table, init, delta),
      tableGrowExternref: (table, init, delta) => this.#tableGrow(index, table, init, delta),
    });
    const used = this.usedBytes();
    if (used > this.#capBytes) {
      throw new MemoryCapExceeded(`its memories and tables take ${mib(used)} MiB once core module ${name} is instantiated, over the cap of ${mib(this.#capBytes)} MiB`);
    }
    const start = exports[START_EXPORT];
    return typeof start === 'function' ? (start as () => void) : undefined;
  }

  /**
   * Wrap a host import so its time counts: after it returns, a passed deadline stops the guest (the
   * import's own work is never interrupted; the sandbox's imports are bounded, and a wait on a clock
   * refuses to sleep past the deadline — see {@link sleeper}).
   */
  wrap<F extends (...args: never[]) => unknown>(fn: F): F {
    const meter = this;
    const wrapped = function (this: unknown, ...args: Parameters<F>): ReturnType<F> {
      if (meter.#stopped !== undefined) meter.#unwind();
      const result = fn.apply(this, args) as ReturnType<F>;
      if (performance.now() > meter.#deadline) {
        meter.stop('deadline');
        meter.#unwind();
      }
      return result;
    };
    return wrapped as unknown as F;
  }


  /** {@link charge}, bound once (handed to the glue host and the direct caller). */
  readonly charger = (ns: number): void => this.charge(ns);

  /**
   * Work the host is about to do for the guest, predicted to take `ns` (the glue's lifts and copies,
   * decoding a long answer: wasi/host-calls.ts): work that would end past the deadline is not
   * started — the guest is stopped instead (it would be stopped at its end anyway, later).
   */
  charge(ns: number): void {
    if (this.#stopped !== undefined) this.#unwind();
    if (performance.now() + ns / 1e6 > this.#deadline) {
      this.stop('deadline');
      this.#unwind();
    }
  }

  /** `sleep`, refusing at once a wait that would end past the deadline (it would be stopped there anyway, later). */
  sleeper(sleep: Sleeper): Sleeper {
    return (instant) => {
      if (Number(instant - process.hrtime.bigint()) / 1e6 > this.#deadline - performance.now()) {
        this.stop('deadline');
        this.#unwind();
      }
      sleep(instant);
    };
  }

  #unwind(): never {
    throw new GuestStopped(this.#stopped === 'fuel' ? 'the guest ran out of fuel' : 'the guest reached its deadline');
  }

  #refuel(core: number, deficit: number): number {
    if (this.#stopped !== undefined) return 0;
    if (performance.now() > this.#deadline) {
      this.stop('deadline');
      return 0;
    }
    let slice = SLICE_UNITS;
    if (this.#callFuel !== undefined) {
      if (this.#fuelLeft <= 0) {
        this.stop('fuel');
        return 0;
      }
      slice = Math.min(slice, this.#fuelLeft);
      this.#fuelLeft -= slice + deficit;
    }
    this.#granted += slice + deficit;
    this.#hold(core);
    // An i32 result: the stub reads it unsigned (slice + deficit < 2^32).
    return slice + deficit;
  }

  #hold(core: number): void {
    this.#last = core;
    const holders = this.#holders;
    if (holders.includes(core)) return;
    if (holders.length >= HOLDERS) {
      const oldest = holders.shift();
      const counter = oldest === undefined ? undefined : this.#cores[oldest]?.fuel;
      if (counter !== undefined) {
        const left = counter.value;
        counter.value = ZERO;
        if (typeof left === 'bigint' && left > ZERO) {
          this.#fuelLeft += Number(left);
          this.#granted -= Number(left);
        }
      }
    }
    holders.push(core);
  }

  /** A grow predicted to take `predictedMs` would end past the deadline: the guest is stopped (false) instead. */
  #withinDeadline(predictedMs: number): boolean {
    if (performance.now() + predictedMs <= this.#deadline) return true;
    this.stop('deadline');
    return false;
  }

  /** Charge a grow against the deadline and the explicit fuel: false when the guest is stopped. */
  #chargeGrow(predictedMs: number): boolean {
    if (this.#stopped !== undefined) return false;
    const now = performance.now();
    if (now + predictedMs > this.#deadline) {
      this.stop('deadline');
      return false;
    }
    if (this.#callFuel !== undefined) {
      if (this.#fuelLeft <= 0) {
        this.stop('fuel');
        return false;
      }
      this.#fuelLeft -= GROW_UNITS;
    }
    return true;
  }

  #memoryGrow(core: number, index: number, delta: number): number {
    const memory = this.#cores[core]?.memories[index];
    if (memory === undefined) throw new Error(`memory.grow of memory ${index}, which the meter does not know`);
    const pages = delta >>> 0;
    if (!this.#chargeGrow(0)) return HOST_STOP;
    if (pages === 0) return memory.buffer.byteLength / PAGE;
    if (this.usedBytes() + pages * PAGE > this.#capBytes) {
      this.#memoryRefused = true;
      return -1;
    }
    if (!this.#withinDeadline((pages * MEMORY_GROW_NS_PER_PAGE) / 1e6)) return HOST_STOP;
    try {
      return memory.grow(pages);
    } catch {
      // Over the memory's own maximum (also the cap), or the system refused.
      this.#memoryRefused = true;
      return -1;
    }
  }

  #tableGrow(core: number, index: number, init: unknown, delta: number): number {
    const table = this.#cores[core]?.tables[index];
    const info = table === undefined ? undefined : this.#tables.get(table);
    if (table === undefined || info === undefined) throw new Error(`table.grow of table ${index}, which the meter does not know`);
    const count = delta >>> 0;
    if (!this.#chargeGrow(0)) return HOST_STOP;
    if (count === 0) return table.length;
    if (this.usedBytes() + count * elementBytes(info.funcref) * info.sharers > this.#capBytes) {
      this.#memoryRefused = true;
      return -1;
    }
    // V8 copies the table (and each sharer's dispatch table) to grow it.
    if (!this.#withinDeadline(((table.length + count) * info.sharers * TABLE_GROW_NS_PER_ELEMENT) / 1e6)) return HOST_STOP;
    try {
      return table.grow(count, init);
    } catch {
      this.#memoryRefused = true;
      return -1;
    }
  }
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}
