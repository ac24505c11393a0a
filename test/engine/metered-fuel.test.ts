import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOptionsError } from '../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { componentFromCore, parseWat } from '../../host/kit/build/wasm-tools.js';
import { assembleWat } from '../../host/kit/build/wat.js';
import { ROOT, TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

/**
 * A guest that spins as many times as the decimal number in the tool name says, then allows: a known
 * amount of work per call, built here from WAT with the WAT guests' prelude and jco's wasm-tools.
 */
const SPIN_GUEST = `
(func $handle (param $r i32) (result i32)
  (local $p i32) (local $end i32) (local $n i32) (local $i i32)
  (local.set $p (call $req_tool_ptr (local.get $r)))
  (local.set $end (i32.add (local.get $p) (call $req_tool_len (local.get $r))))
  (block $parsed
    (loop $digits
      (br_if $parsed (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (i32.sub (i32.load8_u (local.get $p)) (i32.const 48))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $digits)))
  (block $done
    (loop $spin
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $spin)))
  (call $ret_allow))
`;

/** Fuel per call for the spin tests: a few ms of work. */
const FUEL = 20_000_000;

describe('an explicit fuel is a deterministic cap per call, besides the deadline', () => {
  let dir: string;
  let spin: ComponentTransport;
  const transports: ComponentTransport[] = [];

  const call = async (n: number) => spin.invoke(preRequest({}, String(n)), CONTEXT);

  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    dir = await mkdtemp(join(tmpdir(), 'basis-metered-fuel-'));
    const prelude = await readFile(join(ROOT, 'guest-examples/wat/prelude.wat'), 'utf8');
    const { component } = await componentFromCore(await parseWat(assembleWat(prelude, SPIN_GUEST, { hookVersion: '1.0.0', initialPages: 1 })));
    await writeFile(join(dir, 'spin.wasm'), component);
    spin = componentTransport({ path: join(dir, 'spin.wasm'), cache_dir: join(dir, 'cache'), isolation: 'metered', fuel: FUEL });
    transports.push(spin);
    await spin.load();
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('a guest using ~60% of its budget succeeds twice in a row: the fuel is refilled before each call', async () => {
    // The largest spin count that fits the budget, found by doubling and then bisecting.
    let ok = 1;
    let fail = 2;
    while ((await call(fail)).ok) {
      ok = fail;
      fail *= 2;
    }
    while (fail - ok > ok / 100) {
      const mid = Math.floor((ok + fail) / 2);
      if ((await call(mid)).ok) ok = mid;
      else fail = mid;
    }
    expect(ok).toBeGreaterThan(1000);
    const sixty = Math.floor(ok * 0.6);
    expect(await call(sixty)).toEqual({ ok: true, response: { decision: 'allow' } });
    expect(await call(sixty)).toEqual({ ok: true, response: { decision: 'allow' } });
    // Twice that in one call is over the budget: it is the refill that made the second call pass.
    expect(await call(2 * sixty)).toMatchObject({ ok: false, failure: { code: 'timeout' } });
  });

  it('running out fails timeout, saying the fuel ran out, and the next call runs', async () => {
    const result = await call(1_000_000_000);
    expect(result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    if (result.ok) return;
    expect(result.failure.message).toContain('fuel');
    expect(await call(10)).toEqual({ ok: true, response: { decision: 'allow' } });
  });

  it('without an explicit fuel only the deadline bounds a call', async () => {
    // 50 ms cannot spin a billion times; it can spin a thousand.
    const short = componentTransport({ path: join(dir, 'spin.wasm'), cache_dir: join(dir, 'cache'), isolation: 'metered', timeout_ms: 50 });
    transports.push(short);
    expect(await short.invoke(preRequest({}, '1000000000'), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(await short.invoke(preRequest({}, '1000'), CONTEXT)).toMatchObject({ ok: true });
    expect((await short.load()).metering?.fuel_per_call).toBeUndefined();
    expect((await spin.load()).metering?.fuel_per_call).toBe(FUEL);
  });

  it('the cap holds in worker isolation too, after the same instructions', async () => {
    const worker = componentTransport({ path: join(dir, 'spin.wasm'), cache_dir: join(dir, 'cache'), isolation: 'worker', fuel: FUEL });
    transports.push(worker);
    expect(await worker.invoke(preRequest({}, '1000000000'), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(await worker.invoke(preRequest({}, '10'), CONTEXT)).toEqual({ ok: true, response: { decision: 'allow' } });
  });

  it('refuses a fuel that is not a positive integer, before anything loads', () => {
    for (const fuel of [0, -1, 1.5, 2 ** 63]) {
      let error: unknown;
      try {
        componentTransport({ path: join(dir, 'spin.wasm'), isolation: 'metered', fuel });
      } catch (e) {
        error = e;
      }
      expect(isOptionsError(error) && error.code).toBe('invalid_options');
    }
  });
});
