/**
 * Issue 20, item 1 — the class, not the one input: every length jco's glue takes from a guest goes
 * through the sandbox's `lift` before the glue acts on it (glue-patch.ts, sandbox/host-calls.ts).
 * Checked on the glue of a component that imports every function of every interface the sandbox
 * allows (every host call a guest could make), and on mutations of it that the patch must refuse.
 */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { componentTransport } from '../../host/transports/component/index.js';
import { GluePatchError, patchGlue } from '../../host/engine/compile/glue-patch.js';
import {
  createGlueHost,
  HostCallLimit,
  LIFT_LIMITS,
  LIFT_NS,
  UNCHARGED_LIFT_NS,
  isAnswerTooLarge,
  isHostCallLimit,
  type LiftKind,
} from '../../host/engine/wasi/host-calls.js';
import { everythingComponent } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';

/**
 * Every host call of the allowlist that takes a list or a string (WASI 0.2: the path strings of
 * wasi:filesystem, the byte lists of writes, poll's list of pollables), with how many it takes.
 */
const LIFTING_CALLS: Readonly<Record<string, number>> = {
  'wasi:io/poll@0.2.12#poll': 1,
  'wasi:io/streams@0.2.12#[method]output-stream.write': 1,
  'wasi:io/streams@0.2.12#[method]output-stream.blocking-write-and-flush': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.write': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.create-directory-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.stat-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.set-times-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.link-at': 2,
  'wasi:filesystem/types@0.2.12#[method]descriptor.open-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.readlink-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.remove-directory-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.rename-at': 2,
  'wasi:filesystem/types@0.2.12#[method]descriptor.symlink-at': 2,
  'wasi:filesystem/types@0.2.12#[method]descriptor.unlink-file-at': 1,
  'wasi:filesystem/types@0.2.12#[method]descriptor.metadata-hash-at': 1,
};

let raw: string;
let patched: string;

beforeAll(async () => {
  const { transpileBytes } = await import('@bytecodealliance/jco-transpile');
  const result = await transpileBytes(await readFile(await everythingComponent()), { name: 'hook', instantiation: 'async', base64Cutoff: 0, emitTypescriptDeclarations: false });
  const glue = result.files['hook.js'];
  if (glue === undefined) throw new Error('jco wrote no hook.js');
  raw = new TextDecoder().decode(glue);
  patched = new TextDecoder().decode(patchGlue(glue));
});

const patch = (text: string): Uint8Array => patchGlue(new TextEncoder().encode(text));

describe('the patched glue of a component importing the whole allowlist', () => {
  it('sends every list and string argument of every host call through lift, named after its call', () => {
    const sites = new Map<string, number>();
    for (const m of patched.matchAll(/\$basisHooksGlue\.lift\(arg\d+, '(param-[a-z]+)', \d+, "([^"]+)"\)/g)) {
      sites.set(m[2] ?? '', (sites.get(m[2] ?? '') ?? 0) + 1);
    }
    expect(Object.fromEntries(sites)).toEqual(LIFTING_CALLS);
    // No length taken from a guest argument is left unguarded.
    expect(patched).not.toMatch(/var len\d+ = arg\d+;/);
    expect(raw.match(/var len\d+ = arg\d+;/g)?.length).toBe(Object.values(LIFTING_CALLS).reduce((a, b) => a + b, 0));
  });

  it('poll\'s list is lifted as elements, writes as bytes, paths as text; handle\'s answer strings as answers', () => {
    expect(patched).toContain(`lift(arg1, 'param-elements', 1, "wasi:io/poll@0.2.12#poll")`);
    expect(patched).toContain(`'param-bytes', 1, "wasi:io/streams@0.2.12#[method]output-stream.write")`);
    expect(patched).toContain(`'param-text', 1, "wasi:filesystem/types@0.2.12#[method]descriptor.open-at")`);
    // deny reason, modify input and reason, replace output and reason, err message
    expect(patched.match(/\.lift\(dataView\(memory\d+\)\.getUint32\(ret \+ \d+, true\), 'answer-text', 1, "answer"\)/g)?.length).toBe(6);
  });

  it('caps every handle table, keeps no set of created handles, and hands the tables to the host', () => {
    expect(patched).toMatch(/function rscTableCreateOwn\(table, rep\) \{\n\s+if \(table\.length >= \d+\) \$basisHooksGlue\.tooManyHandles/);
    expect(patched).not.toContain('_createdReps.add');
    expect(patched).toContain('$basisHooksGlue.handleTables(HANDLE_TABLES, T_FLAG);');
  });

  it('loads and instantiates through the real path (transpile, patch, instantiate), in both isolations', async () => {
    for (const isolation of ['metered', 'worker'] as const) {
      const t = componentTransport({ path: await everythingComponent(), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1 });
      try {
        const info = await t.load();
        expect(info.imports.length).toBeGreaterThan(15);
      } finally {
        await t.close();
      }
    }
  });
});

describe('a glue the patch cannot bound is refused, never run unpatched', () => {
  const refused = (text: string): unknown => {
    try {
      patch(text);
    } catch (error) {
      return error instanceof GluePatchError ? 'refused' : error;
    }
    return 'patched';
  };
  const firstLift = (): string => /var (len\d+) = arg\d+;/.exec(raw)?.[0] ?? '';

  it('a length read from guest memory anywhere but an answer (a list nested in a list, a record by pointer)', () => {
    expect(refused(raw.replace(firstLift(), `${firstLift()}\n    var len999 = dataView(memory0).getUint32(base + 4, true);`))).toBe('refused');
  });

  it('a guest length used in a way the patch does not know', () => {
    const name = /var (len\d+) = arg\d+;/.exec(raw)?.[1] ?? '';
    expect(refused(raw.replace(firstLift(), `${firstLift()}\n    new Uint8Array(${name});`))).toBe('refused');
  });

  it('a trampoline of a form it does not know, component-model async, a decoder it cannot make strict', () => {
    expect(refused(raw.replace(/function trampoline(\d+)\(handle\) \{/, 'function trampoline$1(handle, len) {'))).toBe('refused');
    expect(refused(raw.replace('isAsync: false', 'isAsync: true'))).toBe('refused');
    expect(refused(raw.replace('new TextDecoder()', "new TextDecoder('latin1')"))).toBe('refused');
  });

  it('a handle table the host would not see', () => {
    expect(refused(raw.replace(/HANDLE_TABLES\[(\d+)\] = handleTable\1;/, ''))).toBe('refused');
  });
});

describe('lift: the caps and the charge, for any length', () => {
  const kinds: readonly LiftKind[] = ['param-text', 'param-bytes', 'param-elements', 'answer-text', 'answer-bytes', 'copy-bytes', 'copy-text'];

  it('returns the length unchanged under its cap, throws past it; charges predicted work above the free amount', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 4 * 1024 * 1024 })),
        fc.constantFrom(1, 2, 4, 8),
        fc.integer({ min: 1, max: 64 * 1024 * 1024 }),
        (kind, length, unit, maxAnswerBytes) => {
          const charged: number[] = [];
          const host = createGlueHost({ charge: (ns) => charged.push(ns), maxAnswerBytes });
          const n = length >>> 0;
          const size = kind === 'param-elements' ? n : n * unit;
          const cap = kind.startsWith('param-') ? LIFT_LIMITS[kind as keyof typeof LIFT_LIMITS] : kind.startsWith('answer-') ? maxAnswerBytes : Number.POSITIVE_INFINITY;
          let thrown: unknown;
          try {
            expect(host.lift(length, kind, unit, 'site')).toBe(length);
          } catch (error) {
            thrown = error;
          }
          if (size > cap) {
            expect(kind.startsWith('answer-') ? isAnswerTooLarge(thrown) : isHostCallLimit(thrown)).toBe(true);
            expect(charged).toEqual([]);
          } else {
            expect(thrown).toBeUndefined();
            const ns = size * LIFT_NS[kind];
            expect(charged).toEqual(ns > UNCHARGED_LIFT_NS ? [ns] : []);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a handle table past its cap is refused with a HostCallLimit', () => {
    expect(() => createGlueHost().tooManyHandles(99999)).toThrow(HostCallLimit);
  });
});

