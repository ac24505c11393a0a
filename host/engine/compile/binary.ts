import { uleb } from '../meter/reader.js';
/**
 * What the loader needs to know from and do to WebAssembly binaries without a toolchain: tell a
 * component from a core module from anything else, and cap a core module's linear memory by rewriting
 * its memory section (worker `resourceLimits` do not bound wasm memory; the module's own maximum does).
 */

/** What a file's first 8 bytes say it is. */
export type BinaryKind = 'component' | 'core-module' | 'not-wasm';

/** Component: `\0asm`, version 0x0d, layer 1. Core module: `\0asm`, version 1, layer 0. */
export function binaryKind(bytes: Uint8Array): BinaryKind {
  if (bytes.length < 8 || bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) return 'not-wasm';
  const layer = (bytes[6] ?? 0) | ((bytes[7] ?? 0) << 8);
  if (layer === 1) return 'component';
  if (layer === 0 && bytes[4] === 0x01 && bytes[5] === 0x00) return 'core-module';
  return 'not-wasm';
}

/** A binary the memory patcher cannot make sense of, or whose memory cannot fit under the cap. */
export class MemoryCapError extends Error {
  override readonly name = 'MemoryCapError' as const;
}

class Reader {
  offset: number;
  constructor(
    readonly bytes: Uint8Array,
    offset: number,
  ) {
    this.offset = offset;
  }
  byte(): number {
    const b = this.bytes[this.offset++];
    if (b === undefined) throw new MemoryCapError('unexpected end of module');
    return b;
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 35) throw new MemoryCapError('LEB128 value too long');
    }
  }
}


/** What {@link capMemory} did. */
export interface CappedModule {
  readonly bytes: Uint8Array;
  /** Effective maximum, in pages, of each memory the module defines (imported ones are the exporter's). */
  readonly maxPages: readonly number[];
}

const MEMORY_SECTION = 5;

/**
 * Give every memory a core module defines a maximum of at most `capPages` (64 KiB pages): a module
 * with no maximum, or a larger one, gets `capPages`; a smaller one is kept. Throws
 * {@link MemoryCapError} when a memory's initial size is already over the cap, or for memory64.
 */
export function capMemory(module: Uint8Array, capPages: number): CappedModule {
  const r = new Reader(module, 8);
  while (r.offset < module.length) {
    const sectionStart = r.offset;
    const id = r.byte();
    const size = r.u32();
    const contentStart = r.offset;
    const contentEnd = contentStart + size;
    if (id !== MEMORY_SECTION) {
      r.offset = contentEnd;
      continue;
    }
    const count = r.u32();
    const content: number[] = [...uleb(count)];
    const maxPages: number[] = [];
    for (let i = 0; i < count; i++) {
      const flags = r.byte();
      if ((flags & 0x04) !== 0) throw new MemoryCapError('64-bit memories are not supported');
      const initial = r.u32();
      const declaredMax = (flags & 0x01) !== 0 ? r.u32() : undefined;
      if (initial > capPages) {
        throw new MemoryCapError(`its memory starts at ${initial} pages (${(initial / 16).toFixed(1)} MiB), over the cap of ${capPages} pages (${capPages / 16} MiB)`);
      }
      const max = declaredMax === undefined ? capPages : Math.min(declaredMax, capPages);
      maxPages.push(max);
      content.push(flags | 0x01, ...uleb(initial), ...uleb(max));
    }
    if (r.offset !== contentEnd) throw new MemoryCapError('memory section has trailing bytes');
    const section = [MEMORY_SECTION, ...uleb(content.length), ...content];
    const out = new Uint8Array(sectionStart + section.length + (module.length - contentEnd));
    out.set(module.subarray(0, sectionStart), 0);
    out.set(section, sectionStart);
    out.set(module.subarray(contentEnd), sectionStart + section.length);
    return { bytes: out, maxPages };
  }
  return { bytes: module, maxPages: [] };
}

const TABLE_SECTION = 4;

/**
 * Bytes the memories and tables a core module defines take when it is instantiated: each memory's
 * initial pages, and each table's initial elements at `elementBytes(funcref)` apiece (imported ones
 * are counted where they are defined).
 */
export function initialFootprint(module: Uint8Array, elementBytes: (funcref: boolean) => number): number {
  const r = new Reader(module, 8);
  let bytes = 0;
  while (r.offset < module.length) {
    const id = r.byte();
    const size = r.u32();
    const contentEnd = r.offset + size;
    if (id === MEMORY_SECTION || id === TABLE_SECTION) {
      const count = r.u32();
      for (let i = 0; i < count; i++) {
        const element = id === TABLE_SECTION ? r.byte() : undefined;
        const flags = r.byte();
        const initial = r.u32();
        if ((flags & 0x01) !== 0) r.u32();
        bytes += element === undefined ? initial * 65536 : initial * elementBytes(element === 0x70);
      }
    }
    r.offset = contentEnd;
  }
  return bytes;
}
