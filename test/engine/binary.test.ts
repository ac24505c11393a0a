import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { binaryKind, capMemory, MemoryCapError } from '../../host/engine/compile/binary.js';
import { parseWorld, checkWorld } from '../../host/transports/component/world.js';
import { ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { Wasm } from '../../host/engine/wasm-api.js';

interface Memory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

describe('binary: kinds and the memory cap', () => {
  let core: Uint8Array;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    // The allow guest's core module: one memory of 1 page, no maximum.
    core = new Uint8Array(await readFile(watGuest('core-module')));
  });

  it('tells components, core modules and anything else apart', async () => {
    expect(binaryKind(new Uint8Array(await readFile(watGuest('counter'))))).toBe('component');
    expect(binaryKind(core)).toBe('core-module');
    expect(binaryKind(new Uint8Array(await readFile(watGuest('garbage'))))).toBe('not-wasm');
    expect(binaryKind(new Uint8Array([0, 0x61, 0x73]))).toBe('not-wasm');
  });

  it('a capped module cannot grow its memory past the cap', () => {
    const capped = capMemory(core, 4);
    expect(capped.maxPages).toEqual([4]);
    const instance = new Wasm.Instance(new Wasm.Module(capped.bytes), {});
    const memory = instance.exports.memory as Memory;
    expect(memory.grow(3)).toBe(1);
    // From JS a refused grow throws (inside wasm, memory.grow returns -1).
    expect(() => memory.grow(1)).toThrow(RangeError);
    expect(memory.buffer.byteLength).toBe(4 * 65536);
    // Uncapped, the same module grows freely.
    const free = new Wasm.Instance(new Wasm.Module(core), {}).exports.memory as Memory;
    expect(free.grow(8)).toBe(1);
  });

  it('keeps a smaller maximum the module declared, and refuses a memory that starts over the cap', () => {
    const four = capMemory(core, 4).bytes;
    expect(capMemory(four, 100).maxPages).toEqual([4]);
    expect(() => capMemory(core, 0)).toThrow(MemoryCapError);
  });
});

describe('world: handler version and import allowlist', () => {
  it('parses the root world of componentWit output', () => {
    const wit = 'package root:component;\n\nworld root {\n  import wasi:io/error@0.2.3;\n  import log: func(msg: string);\n\n  export basis:hook/handler@1.0.0;\n}\n';
    expect(parseWorld(wit)).toEqual({ imports: ['wasi:io/error@0.2.3', 'log'], exports: ['basis:hook/handler@1.0.0'] });
  });

  it('accepts 1.x handlers and WASI 0.2.x; refuses other versions and unknown imports, naming them', () => {
    expect(checkWorld({ imports: ['wasi:cli/stdout@0.2.0', 'basis:hook/types@1.0.0'], exports: ['basis:hook/handler@1.2.0'] })).toEqual({ ok: true, handler: 'basis:hook/handler@1.2.0' });
    const refused = checkWorld({ imports: ['wasi:cli/stdout@0.3.0', 'log', 'wasi:sockets/tcp@0.2.0'], exports: ['basis:hook/handler@1.0.0'] });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    for (const name of ['wasi:cli/stdout@0.3.0', 'log', 'wasi:sockets/tcp@0.2.0']) expect(refused.message).toContain(name);
    const none = checkWorld({ imports: [], exports: ['other:pkg/iface@1.0.0'] });
    expect(none.ok).toBe(false);
  });
});
