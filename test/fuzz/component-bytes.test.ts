/**
 * Fuzzing component bytes: random bytes and mutations of a real component (a flipped bit, a byte
 * inserted or dropped, a section repeated, a cut). Loading either works — and then a call is a typed
 * result — or fails with `HookError('load_failed')`; it never throws anything else, never crashes the
 * host, and a good component still loads afterwards.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookError, type HookRequest } from '../../host/index.js';
import { componentTransport } from '../../host/transports/component/index.js';
import { WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';
import { fuzzBytes } from '../helpers/fuzz.js';

const REQUEST: HookRequest = { hook_schema: 1, event: 'pre_tool_use', workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: 't', input: { command: 'ls' } };

describe('fuzz: component bytes', () => {
  let dir: string;
  let seed: Uint8Array;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    dir = await mkdtemp(join(tmpdir(), 'basis-fuzz-component-'));
    seed = new Uint8Array(await readFile(join(WAT_CONFORMANCE_DIR, 'deny.wasm')));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('random and mutated components → load_failed or a working hook, for both isolations (60 runs)', async () => {
    let n = 0;
    const outcomes = { loaded: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fuzzBytes([seed], { maxLength: 128 }), fc.constantFrom('metered' as const, 'worker' as const), async (bytes, isolation) => {
        const path = join(dir, `c-${n++}.wasm`);
        await writeFile(path, bytes);
        const transport = componentTransport({ path, isolation, timeout_ms: 500, cache_dir: join(dir, 'cache') });
        try {
          await transport.load();
          outcomes.loaded += 1;
          const result = await transport.invoke(REQUEST, { hook: 'fuzz' });
          if (!result.ok) expect(['trap', 'malformed_response', 'guest_error', 'timeout', 'memory_limit', 'output_too_large', 'load_failed']).toContain(result.failure.code);
        } catch (error) {
          expect(isHookError(error) && error.code).toBe('load_failed');
          outcomes.refused += 1;
        } finally {
          await transport.close();
        }
      }),
      { numRuns: 60 },
    );
    expect(outcomes.refused).toBeGreaterThan(0);
    const good = componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'deny.wasm'), cache_dir: join(dir, 'cache') });
    try {
      expect(await good.invoke(REQUEST, { hook: 'good' })).toMatchObject({ ok: true, response: { decision: 'deny' } });
    } finally {
      await good.close();
    }
  }, 300_000);
});
