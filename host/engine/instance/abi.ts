/**
 * A direct call through the canonical ABI, without jco's per-call glue (task bookkeeping, closures,
 * ~20 DataViews per call; megamorphic once several instances of one component exist — PERF-FINDINGS).
 * jco still compiles, instantiates and provides the imports; a binding that knows the export's types
 * (the hook adapter's, for `handle`) lowers its arguments and lifts its result with the pieces here,
 * which make the checks jco's glue makes and a few it does not:
 *
 * - memory for arguments comes from `cabi_realloc`, exact sizes up front (some allocators cannot
 *   shrink); every pointer the guest hands back is checked for alignment and bounds;
 * - every discriminant is checked (the binding says which), every string's bounds, and strings are
 *   decoded as **fatal** UTF-8 (jco's glue would substitute U+FFFD);
 * - a long string is charged against the deadline before it is decoded (the guest has returned: its
 *   meter no longer runs);
 * - the post-return function is called after the result has been read, with the import gate and jco's
 *   "may leave" flag closed: a host import during post-return is an ABI violation;
 * - typed-array views of guest memory are refreshed only when a grow detached the buffer.
 *
 * What the guest does wrong is thrown as an {@link AbiViolation}; a call into one of its inner
 * components as an {@link InnerComponentCall} (the call must go through the glue). After either, or
 * any exception, the session refuses further calls: the instance is discarded, as after a trap.
 */
import type { AbiViolationKind } from '../outcome.js';
import { LIFT_NS, UNCHARGED_LIFT_NS, type ChargeHostWork } from '../wasi/host-calls.js';
import type { WasmGlobal, WasmMemory } from '../wasm-api.js';
import { InnerComponentCall, PostReturnImportError, type ImportGate } from './gate.js';

/** A rule of the canonical ABI the guest broke: nothing it returned is used. */
export class AbiViolation extends Error {
  override readonly name = 'AbiViolation' as const;
  constructor(
    readonly violation: AbiViolationKind,
    message: string,
  ) {
    super(message);
  }
}

/** The result holds more than the embedder's cap (its strings, as the cap counts them): not lifted. */
export class ResultTooLarge extends Error {
  override readonly name = 'ResultTooLarge' as const;
  constructor(readonly bytes: number) {
    super(`the guest's result holds ${bytes} bytes, over the cap`);
  }
}

/** Across realms and bundles (a worker's copy of this module): by name. */
export function isResultTooLarge(error: unknown): error is ResultTooLarge {
  return error instanceof Error && error.name === 'ResultTooLarge';
}

/** The core exports a lifted function uses (its canon options, found by the planner: plan.ts). */
export interface DirectCore {
  readonly memory: WasmMemory;
  readonly realloc: (oldPtr: number, oldSize: number, align: number, newSize: number) => number;
  /** The core function behind the export. */
  readonly fn: (...args: number[]) => number;
  readonly postReturn: ((result: number) => void) | undefined;
  /** jco's "may leave" flag global of the component (`instanceFlagsN`), when it passes one to a core module. */
  readonly mayLeaveFlag?: WasmGlobal | undefined;
  /** The gate wrapped around every host import of the instance ({@link ImportGate.wrapImports}). */
  readonly gate?: ImportGate | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Exact UTF-8 length of `s` from `from` on (a lone surrogate is encoded as U+FFFD, 3 bytes, as TextEncoder does). */
function utf8Length(s: string, from: number): number {
  let len = from;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      len += 4;
      i++;
    } else len += 3;
  }
  return len;
}

/**
 * Typed arrays use the platform's byte order and WebAssembly memory is little-endian: words are
 * written through a Uint32Array where the two agree (every platform Node runs on in practice).
 */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Strings shorter than this are copied byte by byte; longer ones through `encodeInto`. */
const ASCII_LOOP_MAX = 48;

/** One instance's direct calls. Not re-entrant (a call runs synchronously start to end). */
export class AbiSession {
  readonly #core: DirectCore;
  #u8: Uint8Array;
  #u32: Uint32Array;
  #view: DataView;
  #dead: string | undefined;
  #charge: ChargeHostWork | undefined;
  /** The length of the string {@link lowerString} wrote last. */
  lowered = 0;

  constructor(core: DirectCore) {
    this.#core = core;
    const buffer = core.memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#u32 = new Uint32Array(buffer, 0, buffer.byteLength >>> 2);
    this.#view = new DataView(buffer);
  }

  /** Whether the session still takes calls (false after a violation or an exception). */
  get usable(): boolean {
    return this.#dead === undefined;
  }

  /**
   * Call the export once: `lower` writes the arguments (through this session) and returns the flat
   * parameters, `lift` reads the result from the flat result. `charge` is told the predicted time of
   * decoding a long string before it starts. Throws {@link AbiViolation}, {@link InnerComponentCall},
   * or what the guest throws (a trap, an import's exception, the meter's stop), and marks itself
   * unusable.
   */
  call<A, R>(args: A, lower: (abi: AbiSession, args: A) => number, lift: (abi: AbiSession, result: number) => R, charge?: ChargeHostWork): R {
    if (this.#dead !== undefined) throw new Error(`the direct caller is unusable: ${this.#dead}`);
    this.#charge = charge;
    const gate = this.#core.gate;
    gate?.enterDirect();
    let value: R;
    try {
      const ret = this.#core.fn(lower(this, args));
      value = lift(this, ret);
      if (gate?.crossed !== true) this.#postReturn(ret);
    } catch (error) {
      const crossed = gate?.leaveDirect() === true;
      if (error instanceof AbiViolation) {
        this.#dead = `the guest broke the canonical ABI: ${error.message}`;
        throw error;
      }
      if (error instanceof PostReturnImportError) {
        this.#dead = 'post-return called the host';
        throw new AbiViolation('post-return-import', error.message);
      }
      if (crossed || error instanceof InnerComponentCall) {
        this.#dead = 'the guest called into an inner component';
        throw error instanceof InnerComponentCall ? error : new InnerComponentCall();
      }
      this.#dead = 'the guest threw';
      throw error;
    }
    // A crossing the guest caught (wasm exception handling) still means its result cannot be used.
    if (gate?.leaveDirect() === true) {
      this.#dead = 'the guest called into an inner component';
      throw new InnerComponentCall();
    }
    return value;
  }

  #postReturn(ret: number): void {
    const { postReturn, gate, mayLeaveFlag } = this.#core;
    if (postReturn === undefined) return;
    gate?.close();
    if (mayLeaveFlag !== undefined) mayLeaveFlag.value = 0;
    try {
      postReturn(ret);
    } finally {
      gate?.reopen();
      if (mayLeaveFlag !== undefined) mayLeaveFlag.value = 1;
    }
  }

  /** The memory as bytes, its views refreshed when a grow has detached the buffer (their length is then 0). */
  get u8(): Uint8Array {
    if (this.#u8.byteLength === 0) this.#refresh();
    return this.#u8;
  }

  /** The memory as little-endian words (valid after {@link u8} was read in the same step). */
  get u32(): Uint32Array {
    return this.#u32;
  }

  get view(): DataView {
    return this.#view;
  }

  #refresh(): void {
    const buffer = this.#core.memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#u32 = new Uint32Array(buffer, 0, buffer.byteLength >>> 2);
    this.#view = new DataView(buffer);
  }

  /** `size` bytes from the guest's `cabi_realloc`, checked for alignment and bounds. */
  alloc(align: number, size: number): number {
    const ptr = this.#core.realloc(0, 0, align, size) >>> 0;
    if ((ptr & (align - 1)) !== 0) throw new AbiViolation('alignment', `cabi_realloc returned ${ptr}, not aligned to ${align}`);
    if (ptr + size > this.u8.length) throw new AbiViolation('bounds', `cabi_realloc returned ${ptr} for ${size} bytes, past the end of memory (${this.#u8.length})`);
    return ptr;
  }

  /** Lower a string as UTF-8 (jco's rule: "" is (1, 0) without an allocation); returns its pointer, sets {@link lowered}. */
  lowerString(s: string): number {
    const n = s.length;
    if (n === 0) {
      this.lowered = 0;
      return 1;
    }
    let ascii = 0;
    while (ascii < n && s.charCodeAt(ascii) < 0x80) ascii++;
    const len = ascii === n ? n : utf8Length(s, ascii);
    const ptr = this.alloc(1, len);
    const u8 = this.#u8;
    if (ascii === n && n <= ASCII_LOOP_MAX) {
      for (let i = 0; i < n; i++) u8[ptr + i] = s.charCodeAt(i);
    } else {
      const { read, written } = encoder.encodeInto(s, u8.subarray(ptr, ptr + len));
      if (read !== n || written !== len) throw new Error('failed to encode the whole string');
    }
    this.lowered = len;
    return ptr;
  }

  /** The result area at `ret` (`size` bytes, `align`), checked. */
  result(retValue: number, align: number, size: number): number {
    const ret = retValue >>> 0;
    if ((ret & (align - 1)) !== 0) throw new AbiViolation('alignment', `the function returned ${ret}, not aligned to ${align}`);
    const memory = this.u8.length;
    if (ret + size > memory) throw new AbiViolation('bounds', `the function returned ${ret}, past the end of memory (${memory})`);
    return ret;
  }

  /** A discriminant byte at `at`, at most `max`. */
  tag(at: number, max: number, what: string): number {
    const tag = this.#view.getUint8(at);
    if (tag > max) throw new AbiViolation('discriminant', `${what} discriminant ${tag} (expected 0..${max})`);
    return tag;
  }

  /** The length of the (ptr, len) string at `at`, after checking it lies inside memory. */
  stringLength(at: number, what: string): number {
    const ptr = this.#view.getUint32(at, true);
    const len = this.#view.getUint32(at + 4, true);
    if (ptr + len > this.#u8.length) throw new AbiViolation('bounds', `${what} at ${ptr} (${len} bytes) is past the end of memory (${this.#u8.length})`);
    return len;
  }

  /** Decode the (ptr, len) string at `at`: bounds-checked, charged when long, fatal UTF-8. */
  text(at: number, what: string): string {
    const len = this.stringLength(at, what);
    if (len === 0) return '';
    const ptr = this.#view.getUint32(at, true);
    const bytes = this.#u8.subarray(ptr, ptr + len);
    const ns = len * LIFT_NS['answer-text'];
    if (ns > UNCHARGED_LIFT_NS) this.#charge?.(ns);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new AbiViolation('utf8', `${what} is not valid UTF-8`);
    }
  }
}
