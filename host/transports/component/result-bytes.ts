/**
 * A call's result as bytes, for the worker's reply: what crosses back on nearly every call (a
 * decision, the guest's `err`, an answer over the cap) written straight into the mailbox, instead of
 * the JSON text of a reply envelope made, copied, parsed and validated (~4 µs of a hop, measured by
 * scripts/bench/hop.ts). Read back with every length and the UTF-8 checked; what it reads is then still
 * validated as any result is (codec.ts `resultFromJson`). test/transports/component/result-bytes.test.ts
 * proves the round trip on generated results and that no bytes decode to an invalid result.
 *
 * Layout (little-endian): u8 tag, u8 flags, then by tag —
 *   0 allow:    nothing
 *   1 deny:     string reason
 *   2 modify:   string input, [string reason]             flags 1: has reason
 *   3 replace:  string output, [string reason]            flags 1: has reason, 2: has isError, 4: isError
 *   4 err:      string message
 *   5 too-large: u32 bytes
 * where a string is (u32 byteLength, UTF-8 bytes). Nothing may follow.
 */
import type { WitDecision } from '../../codec/wit.js';
import type { HookResult } from './binding.js';

/** Bytes that are not a result of this layout: a bug (ours, or a worker that is not ours). */
export class ResultBytesError extends Error {
  override readonly name = 'ResultBytesError';
  readonly code = 'internal_error' as const;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const TAG = { allow: 0, deny: 1, modify: 2, replace: 3, err: 4, tooLarge: 5 } as const;

/** Write `s` as (u32 byteLength, bytes) at `at`: the next offset, or -1 when it does not fit. */
function put(into: Uint8Array, view: DataView, at: number, s: string): number {
  const room = into.length - at - 4;
  if (room < 0) return -1;
  let written: number;
  if (s.length * 3 <= room) written = encoder.encodeInto(s, into.subarray(at + 4)).written;
  else {
    const bytes = encoder.encode(s);
    if (bytes.length > room) return -1;
    into.set(bytes, at + 4);
    written = bytes.length;
  }
  view.setUint32(at, written, true);
  return at + 4 + written;
}

function encodeDecision(d: WitDecision, into: Uint8Array, view: DataView): number {
  switch (d.tag) {
    case 'allow':
      view.setUint8(0, TAG.allow);
      return 2;
    case 'deny':
      view.setUint8(0, TAG.deny);
      return put(into, view, 2, d.val);
    case 'modify': {
      view.setUint8(0, TAG.modify);
      const { input, reason } = d.val;
      view.setUint8(1, reason === undefined ? 0 : 1);
      const at = put(into, view, 2, input);
      return at < 0 || reason === undefined ? at : put(into, view, at, reason);
    }
    case 'replace': {
      view.setUint8(0, TAG.replace);
      const { output, isError, reason } = d.val;
      view.setUint8(1, (reason === undefined ? 0 : 1) | (isError === undefined ? 0 : 2) | (isError === true ? 4 : 0));
      const at = put(into, view, 2, output);
      return at < 0 || reason === undefined ? at : put(into, view, at, reason);
    }
  }
}

/** Write `result` into `into`: the bytes written, or -1 when they do not fit (the reply then goes as JSON). */
export function encodeResult(result: HookResult, into: Uint8Array): number {
  if (into.length < 6) return -1;
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  view.setUint8(1, 0);
  switch (result.tag) {
    case 'ok':
      return encodeDecision(result.decision, into, view);
    case 'err':
      view.setUint8(0, TAG.err);
      return put(into, view, 2, result.message);
    case 'too-large':
      view.setUint8(0, TAG.tooLarge);
      view.setUint32(2, result.bytes >>> 0, true);
      return 6;
  }
}

/** Reads strings and numbers off a result's bytes, checking each against the end. */
class Reader {
  at = 2;
  readonly #bytes: Uint8Array;
  readonly #view: DataView;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u32(): number {
    if (this.at + 4 > this.#bytes.length) throw new ResultBytesError('the result ends inside a number');
    const n = this.#view.getUint32(this.at, true);
    this.at += 4;
    return n;
  }

  string(): string {
    const length = this.u32();
    if (this.at + length > this.#bytes.length) throw new ResultBytesError('a string of the result runs past its end');
    let s: string;
    try {
      s = decoder.decode(this.#bytes.subarray(this.at, this.at + length));
    } catch {
      throw new ResultBytesError('a string of the result is not UTF-8');
    }
    this.at += length;
    return s;
  }

  end<T>(value: T): T {
    if (this.at !== this.#bytes.length) throw new ResultBytesError('bytes after the result');
    return value;
  }
}

/** Read a result written by {@link encodeResult}, checking every length and the UTF-8; throws when the bytes are not one. */
export function decodeResult(bytes: Uint8Array): HookResult {
  if (bytes.length < 2) throw new ResultBytesError('the result is shorter than its tag');
  const tag = bytes[0];
  const flags = bytes[1] ?? 0;
  const r = new Reader(bytes);
  if (tag !== TAG.modify && tag !== TAG.replace && flags !== 0) throw new ResultBytesError(`flags ${flags} on result tag ${tag}`);
  switch (tag) {
    case TAG.allow:
      return r.end({ tag: 'ok', decision: { tag: 'allow' } });
    case TAG.deny:
      return r.end({ tag: 'ok', decision: { tag: 'deny', val: r.string() } });
    case TAG.modify: {
      if (flags > 1) throw new ResultBytesError(`flags ${flags} on a modify`);
      const input = r.string();
      return r.end({ tag: 'ok', decision: { tag: 'modify', val: flags === 1 ? { input, reason: r.string() } : { input } } });
    }
    case TAG.replace: {
      if (flags > 7 || (flags & 6) === 4) throw new ResultBytesError(`flags ${flags} on a replace`);
      const output = r.string();
      const reason = (flags & 1) === 0 ? undefined : r.string();
      const isError = (flags & 2) === 0 ? undefined : (flags & 4) !== 0;
      let val: Extract<WitDecision, { tag: 'replace' }>['val'];
      if (isError === undefined) val = reason === undefined ? { output } : { output, reason };
      else val = reason === undefined ? { output, isError } : { output, isError, reason };
      return r.end({ tag: 'ok', decision: { tag: 'replace', val } });
    }
    case TAG.err:
      return r.end({ tag: 'err', message: r.string() });
    case TAG.tooLarge:
      return r.end({ tag: 'too-large', bytes: r.u32() });
    default:
      throw new ResultBytesError(`unknown result tag ${tag}`);
  }
}
