/**
 * A bounds-checked cursor over WebAssembly binary bytes, and the LEB128 encoders the rewriter needs.
 * The meter only reads modules V8 has already validated, but a decoding bug must end as an error,
 * never as a read past the end or a loop that does not advance.
 */

/** A module the meter cannot rewrite, with the reason (refused instruction, feature, malformed input). */
export class MeterError extends Error {
  override readonly name = 'MeterError' as const;
}

export class Reader {
  offset: number;
  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.offset = offset;
  }

  byte(): number {
    const b = this.bytes[this.offset];
    if (b === undefined) throw new MeterError('unexpected end of module');
    this.offset++;
    return b;
  }

  skip(n: number): void {
    if (this.offset + n > this.bytes.length) throw new MeterError('unexpected end of module');
    this.offset += n;
  }

  /** Unsigned LEB128 up to 32 bits. */
  u32(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift > 28) throw new MeterError('LEB128 value too long');
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
  }

  /** Skip a signed LEB128 of at most `bits` bits (i32/i64 constants, s33 block types). */
  skipSigned(bits: number): void {
    const maxBytes = Math.ceil(bits / 7);
    for (let i = 0; i < maxBytes; i++) if ((this.byte() & 0x80) === 0) return;
    throw new MeterError('LEB128 value too long');
  }

  /** A length-prefixed name (skipped, or decoded). */
  name(): string {
    const length = this.u32();
    const start = this.offset;
    this.skip(length);
    return new TextDecoder().decode(this.bytes.subarray(start, start + length));
  }
}

export function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return out;
}

export function sleb(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

/** `vec(bytes)`: a length prefix and the bytes. */
export function withSize(content: readonly number[] | Uint8Array): number[] {
  return [...uleb(content.length), ...content];
}
