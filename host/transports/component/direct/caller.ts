/**
 * Calls our world's `handle` straight through the canonical ABI, without jco's per-call glue (task
 * bookkeeping, closures, ~20 DataViews per call; and megamorphic once several instances of one
 * component exist — PERF-FINDINGS). jco still compiles, instantiates and provides the imports; only
 * the call is made here, with the checks jco's glue makes and a few it does not:
 *
 * - the request record and its strings are written into guest memory through `cabi_realloc`
 *   (exact sizes up front, as jco does: some allocators cannot shrink); each pointer the guest hands
 *   back is checked for alignment and bounds;
 * - the answer is read with every discriminant checked (result, decision, options, bool) and every
 *   string's bounds checked; strings are decoded as **fatal** UTF-8 (jco's glue would substitute
 *   U+FFFD: here invalid UTF-8 is a malformed answer);
 * - `cabi_post_*` is called after the answer has been read, with the import gate and jco's own
 *   "may leave" flag closed: a host import during post-return is an ABI violation;
 * - typed-array views of guest memory are refreshed only when a grow detached the buffer.
 *
 * Whatever the guest does wrong comes back as a typed outcome (`abi`), never as a host crash. A trap
 * (or any exception from the guest's code or an import) propagates as it would through jco; after an
 * `abi` outcome or an exception the caller refuses further calls: discard the instance, as after a
 * trap.
 */
import type { WitDecision, WitHookRequest } from '../../../codec/wit.js';
import { LIFT_NS, UNCHARGED_LIFT_NS, type ChargeHostWork } from '../sandbox/host-calls.js';
import type { WasmGlobal, WasmMemory } from '../wasm-api.js';
import { InnerComponentCall, PostReturnImportError, type ImportGate } from './gate.js';
import { REQUEST, RESULT } from './layout.js';

/** The core exports the lifted `handle` uses (the canon options found by `planDirectCall`). */
export interface DirectCoreExports {
  readonly memory: WasmMemory;
  readonly realloc: (oldPtr: number, oldSize: number, align: number, newSize: number) => number;
  readonly handle: (record: number) => number;
  readonly postReturn: ((result: number) => void) | undefined;
  /** jco's "may leave" flag global of the component (`instanceFlagsN`), when it passes one to a core module. */
  readonly mayLeaveFlag?: WasmGlobal | undefined;
  /** The gate wrapped around every host import of the instance ({@link ImportGate.wrapImports}). */
  readonly gate?: ImportGate | undefined;
}

/** How the guest broke the ABI. */
export type AbiViolation = 'bounds' | 'alignment' | 'discriminant' | 'utf8' | 'post-return-import';

/** What one direct call came to (exceptions aside: those propagate). */
export type DirectOutcome =
  | { readonly type: 'ok'; readonly decision: WitDecision }
  /** `err(message)`. */
  | { readonly type: 'err'; readonly message: string }
  /** The answer's strings (as the output cap counts them) exceed `maxAnswerBytes`: not decoded. */
  | { readonly type: 'too-large'; readonly bytes: number }
  /**
   * The guest broke the canonical ABI: nothing it returned was used, and post-return was not called
   * (or, for `post-return-import`, it called a host import from post-return).
   */
  | { readonly type: 'abi'; readonly violation: AbiViolation; readonly message: string }
  /**
   * The guest called into one of its inner components ({@link InnerComponentCall}): nothing it did in
   * this call was used. Discard the instance, run the call again through jco's glue on a fresh one,
   * and keep calling this component through the glue.
   */
  | { readonly type: 'needs-glue'; readonly message: string };

class Violation extends Error {
  constructor(
    readonly violation: AbiViolation,
    message: string,
  ) {
    super(message);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Exact UTF-8 length of `s` (a lone surrogate is encoded as U+FFFD, 3 bytes, as TextEncoder does). */
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
 * Typed arrays use the platform's byte order and WebAssembly memory is little-endian: the record is
 * written through a Uint32Array where the two agree (every platform Node runs on in practice), through
 * the DataView otherwise.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Strings shorter than this are copied byte by byte; longer ones through `encodeInto`. */
const ASCII_LOOP_MAX = 48;

/**
 * A direct caller bound to one instance. Not re-entrant (a call runs synchronously start to end).
 */
export class DirectCaller {
  readonly #core: DirectCoreExports;
  #u8: Uint8Array;
  #u32: Uint32Array;
  #view: DataView;
  #dead: string | undefined;

  constructor(core: DirectCoreExports) {
    this.#core = core;
    const buffer = core.memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#u32 = new Uint32Array(buffer, 0, buffer.byteLength >>> 2);
    this.#view = new DataView(buffer);
  }

  /** Whether the caller still takes calls (false after an ABI violation or an exception). */
  get usable(): boolean {
    return this.#dead === undefined;
  }

  /**
   * Call `handle` once. `maxAnswerBytes`: the output cap (bytes of the reason and the rewritten
   * input/output, or of an `err` message), checked before anything is decoded. `charge`: told the
   * predicted time of decoding a long answer before it starts (the meter stops the call there if it
   * would end past the deadline). Throws what the guest throws (a trap, an import's exception, the
   * meter's stop) and marks itself unusable.
   */
  call(request: WitHookRequest, maxAnswerBytes: number = Number.POSITIVE_INFINITY, charge?: ChargeHostWork): DirectOutcome {
    if (this.#dead !== undefined) throw new Error(`the direct caller is unusable: ${this.#dead}`);
    this.#charge = charge;
    const gate = this.#core.gate;
    gate?.enterDirect();
    let outcome: DirectOutcome;
    try {
      const record = this.#alloc(REQUEST.align, REQUEST.size);
      this.#writeRecord(record, request);
      const ret = this.#core.handle(record);
      outcome = this.#read(ret, maxAnswerBytes);
      if (gate?.crossed !== true) this.#postReturn(ret);
    } catch (error) {
      const crossed = gate?.leaveDirect() === true;
      if (error instanceof Violation) return this.#violated(error);
      if (error instanceof PostReturnImportError) return this.#violated(new Violation('post-return-import', error.message));
      if (crossed || error instanceof InnerComponentCall) return this.#needsGlue();
      this.#dead ??= 'the guest threw';
      throw error;
    }
    // A crossing the guest caught (wasm exception handling) still means its answer cannot be used.
    if (gate?.leaveDirect() === true) return this.#needsGlue();
    return outcome;
  }

  #needsGlue(): DirectOutcome {
    this.#dead = 'the guest called into an inner component';
    return { type: 'needs-glue', message: new InnerComponentCall().message };
  }

  #violated(error: Violation): DirectOutcome {
    this.#dead = `the guest broke the canonical ABI: ${error.message}`;
    return { type: 'abi', violation: error.violation, message: error.message };
  }

  #postReturn(ret: number): void {
    const { postReturn, gate, mayLeaveFlag } = this.#core;
    if (postReturn === undefined) return;
    gate?.close();
    if (mayLeaveFlag !== undefined) mayLeaveFlag.value = 0;
    try {
      postReturn(ret);
    } catch (error) {
      this.#dead = 'post-return threw';
      throw error;
    } finally {
      gate?.reopen();
      if (mayLeaveFlag !== undefined) mayLeaveFlag.value = 1;
    }
  }

  /**
   * The memory views, refreshed when a grow has detached the buffer they were made on (a detached
   * buffer's views have length 0). Reading `memory.buffer` on every access would cost more than the
   * check: it is only read when the views are empty.
   */
  #fresh(): Uint8Array {
    if (this.#u8.byteLength === 0) this.#refresh();
    return this.#u8;
  }

  #refresh(): void {
    const buffer = this.#core.memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#u32 = new Uint32Array(buffer, 0, buffer.byteLength >>> 2);
    this.#view = new DataView(buffer);
  }

  #alloc(align: number, size: number): number {
    const ptr = this.#core.realloc(0, 0, align, size) >>> 0;
    if ((ptr & (align - 1)) !== 0) throw new Violation('alignment', `cabi_realloc returned ${ptr}, not aligned to ${align}`);
    if (ptr + size > this.#fresh().length) throw new Violation('bounds', `cabi_realloc returned ${ptr} for ${size} bytes, past the end of memory (${this.#u8.length})`);
    return ptr;
  }

  /** Lower a string (jco's rules: "" is (1, 0) without an allocation); returns its pointer, sets `#len`. */
  #string(s: string): number {
    const n = s.length;
    if (n === 0) {
      this.#len = 0;
      return 1;
    }
    let ascii = 0;
    while (ascii < n && s.charCodeAt(ascii) < 0x80) ascii++;
    const len = ascii === n ? n : utf8Length(s, ascii);
    const ptr = this.#alloc(1, len);
    const u8 = this.#u8;
    if (ascii === n && n <= ASCII_LOOP_MAX) {
      for (let i = 0; i < n; i++) u8[ptr + i] = s.charCodeAt(i);
    } else {
      const { read, written } = encoder.encodeInto(s, u8.subarray(ptr, ptr + len));
      if (read !== n || written !== len) throw new Error('failed to encode the whole string');
    }
    this.#len = len;
    return ptr;
  }

  #len = 0;
  #charge: ChargeHostWork | undefined;

  /** Write the request record at `at`, in jco's order (record first, then each string in field order). */
  #writeRecord(at: number, request: WitHookRequest): void {
    const post = request.event === 'post-tool-use';
    const ws = this.#string(request.workspace);
    const wsLen = this.#len;
    const agent = this.#string(request.agentId);
    const agentLen = this.#len;
    const callId = this.#string(request.toolCallId);
    const callIdLen = this.#len;
    const tool = this.#string(request.toolName);
    const toolLen = this.#len;
    const input = this.#string(request.input);
    const inputLen = this.#len;
    const output = request.output;
    let out = 0;
    let outLen = 0;
    if (output !== undefined) {
      out = this.#string(output);
      outLen = this.#len;
    }
    const u8 = this.#fresh();
    const isError = request.isError;
    if (LITTLE_ENDIAN) {
      // `at` is 4-aligned (checked when it was allocated): whole words, one store each.
      const u32 = this.#u32;
      const w = at >>> 2;
      u32[w + (REQUEST.hookSchema >> 2)] = request.hookSchema >>> 0;
      u32[w + (REQUEST.workspace >> 2)] = ws;
      u32[w + (REQUEST.workspace >> 2) + 1] = wsLen;
      u32[w + (REQUEST.agentId >> 2)] = agent;
      u32[w + (REQUEST.agentId >> 2) + 1] = agentLen;
      u32[w + (REQUEST.toolCallId >> 2)] = callId;
      u32[w + (REQUEST.toolCallId >> 2) + 1] = callIdLen;
      u32[w + (REQUEST.toolName >> 2)] = tool;
      u32[w + (REQUEST.toolName >> 2) + 1] = toolLen;
      u32[w + (REQUEST.input >> 2)] = input;
      u32[w + (REQUEST.input >> 2) + 1] = inputLen;
      if (output !== undefined) {
        u32[w + (REQUEST.output >> 2)] = out;
        u32[w + (REQUEST.output >> 2) + 1] = outLen;
      }
    } else {
      const v = this.#view;
      v.setUint32(at + REQUEST.hookSchema, request.hookSchema >>> 0, true);
      v.setUint32(at + REQUEST.workspace, ws, true);
      v.setUint32(at + REQUEST.workspace + 4, wsLen, true);
      v.setUint32(at + REQUEST.agentId, agent, true);
      v.setUint32(at + REQUEST.agentId + 4, agentLen, true);
      v.setUint32(at + REQUEST.toolCallId, callId, true);
      v.setUint32(at + REQUEST.toolCallId + 4, callIdLen, true);
      v.setUint32(at + REQUEST.toolName, tool, true);
      v.setUint32(at + REQUEST.toolName + 4, toolLen, true);
      v.setUint32(at + REQUEST.input, input, true);
      v.setUint32(at + REQUEST.input + 4, inputLen, true);
      if (output !== undefined) {
        v.setUint32(at + REQUEST.output, out, true);
        v.setUint32(at + REQUEST.output + 4, outLen, true);
      }
    }
    u8[at + REQUEST.event] = post ? 1 : 0;
    u8[at + REQUEST.outputTag] = output === undefined ? 0 : 1;
    if (isError === undefined) u8[at + REQUEST.isErrorTag] = 0;
    else {
      u8[at + REQUEST.isErrorTag] = 1;
      u8[at + REQUEST.isError] = isError ? 1 : 0;
    }
  }

  /** Read and check the `result<decision, string>` at `ret`. */
  #read(retValue: number, maxAnswerBytes: number): DirectOutcome {
    const ret = retValue >>> 0;
    if ((ret & (RESULT.align - 1)) !== 0) throw new Violation('alignment', `handle returned ${ret}, not aligned to ${RESULT.align}`);
    const size = this.#fresh().length;
    if (ret + RESULT.size > size) throw new Violation('bounds', `handle returned ${ret}, past the end of memory (${size})`);
    const v = this.#view;
    const tag = v.getUint8(ret + RESULT.tag);
    if (tag === 1) {
      const len = this.#checkedLength(ret + RESULT.errText, 'err message');
      if (len > maxAnswerBytes) return { type: 'too-large', bytes: len };
      return { type: 'err', message: this.#text(ret + RESULT.errText, 'err message') };
    }
    if (tag !== 0) throw new Violation('discriminant', `result discriminant ${tag} (expected 0 ok or 1 err)`);
    const which = v.getUint8(ret + RESULT.decision);
    switch (which) {
      case 0:
        return { type: 'ok', decision: { tag: 'allow' } };
      case 1: {
        const len = this.#checkedLength(ret + RESULT.text, 'deny reason');
        if (len > maxAnswerBytes) return { type: 'too-large', bytes: len };
        return { type: 'ok', decision: { tag: 'deny', val: this.#text(ret + RESULT.text, 'deny reason') } };
      }
      case 2: {
        const hasReason = this.#option(ret + RESULT.modifyReasonTag, 'modify reason');
        const bytes = this.#checkedLength(ret + RESULT.text, 'modify input') + (hasReason ? this.#checkedLength(ret + RESULT.modifyReason, 'modify reason') : 0);
        if (bytes > maxAnswerBytes) return { type: 'too-large', bytes };
        const input = this.#text(ret + RESULT.text, 'modify input');
        return {
          type: 'ok',
          decision: hasReason ? { tag: 'modify', val: { input, reason: this.#text(ret + RESULT.modifyReason, 'modify reason') } } : { tag: 'modify', val: { input } },
        };
      }
      case 3: {
        const hasIsError = this.#option(ret + RESULT.replaceIsErrorTag, 'replace is-error');
        let isError: boolean | undefined;
        if (hasIsError) {
          const b = v.getUint8(ret + RESULT.replaceIsError);
          if (b > 1) throw new Violation('discriminant', `replace is-error bool ${b} (expected 0 or 1)`);
          isError = b === 1;
        }
        const hasReason = this.#option(ret + RESULT.replaceReasonTag, 'replace reason');
        const bytes = this.#checkedLength(ret + RESULT.text, 'replace output') + (hasReason ? this.#checkedLength(ret + RESULT.replaceReason, 'replace reason') : 0);
        if (bytes > maxAnswerBytes) return { type: 'too-large', bytes };
        const output = this.#text(ret + RESULT.text, 'replace output');
        const reason = hasReason ? this.#text(ret + RESULT.replaceReason, 'replace reason') : undefined;
        let val: Extract<WitDecision, { tag: 'replace' }>['val'];
        if (isError === undefined) val = reason === undefined ? { output } : { output, reason };
        else val = reason === undefined ? { output, isError } : { output, isError, reason };
        return { type: 'ok', decision: { tag: 'replace', val } };
      }
      default:
        throw new Violation('discriminant', `decision discriminant ${which} (expected 0..3)`);
    }
  }

  #option(at: number, what: string): boolean {
    const tag = this.#view.getUint8(at);
    if (tag > 1) throw new Violation('discriminant', `${what} option discriminant ${tag} (expected 0 or 1)`);
    return tag === 1;
  }

  /** The length of the (ptr, len) string at `at`, after checking it lies inside memory. */
  #checkedLength(at: number, what: string): number {
    const ptr = this.#view.getUint32(at, true);
    const len = this.#view.getUint32(at + 4, true);
    if (ptr + len > this.#u8.length) throw new Violation('bounds', `${what} at ${ptr} (${len} bytes) is past the end of memory (${this.#u8.length})`);
    return len;
  }

  /** Decode the (ptr, len) string at `at`: bounds-checked, fatal UTF-8. */
  #text(at: number, what: string): string {
    const len = this.#checkedLength(at, what);
    if (len === 0) return '';
    const ptr = this.#view.getUint32(at, true);
    const bytes = this.#u8.subarray(ptr, ptr + len);
    // Decoding runs after the guest returned, outside its meter: a long one is charged first.
    const ns = len * LIFT_NS['answer-text'];
    if (ns > UNCHARGED_LIFT_NS) this.#charge?.(ns);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new Violation('utf8', `${what} is not valid UTF-8`);
    }
  }
}
