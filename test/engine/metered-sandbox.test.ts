import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentGrants, type ComponentTransport } from '../../host/transports/component/index.js';
import { CallMeter, GuestStopped } from '../../host/engine/meter/call-meter.js';
import { createWasi } from '../../host/engine/wasi/index.js';
import { sleepUntil } from '../../host/engine/wasi/io.js';
import { MAX_RANDOM_BYTES } from '../../host/engine/wasi/random.js';
import { ROOT, TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

const SECRET_NAME = 'BASIS_HOOKS_METERED_TEST_SECRET';
const SECRET_VALUE = 'sk-live-metered-do-not-leak-77c1';

interface ProbeReport {
  env: Array<[string, string]>;
  preopens: string[];
  file?: string;
}

describe('metered isolation: the same deny-by-default sandbox, on the calling thread', () => {
  const transports: ComponentTransport[] = [];
  let dir: string;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    process.env[SECRET_NAME] = SECRET_VALUE;
    dir = await mkdtemp(join(tmpdir(), 'basis-metered-sandbox-'));
    await mkdir(join(dir, 'data'));
    await writeFile(join(dir, 'data', 'probe.txt'), 'hello from a granted directory');
  });
  afterAll(async () => {
    delete process.env[SECRET_NAME];
    await Promise.all(transports.map((t) => t.close()));
    await rm(dir, { recursive: true, force: true });
  });

  async function probe(grants?: ComponentGrants): Promise<ProbeReport> {
    const t = componentTransport({ path: watGuest('wasi-probe'), cache_dir: TEST_CACHE_DIR, isolation: 'metered', ...(grants === undefined ? {} : { grants }) });
    transports.push(t);
    const result = await t.invoke(preRequest(), CONTEXT);
    if (!result.ok || result.response.decision !== 'modify') throw new Error(`probe failed: ${JSON.stringify(result)}`);
    return result.response.input as unknown as ProbeReport;
  }

  it('sees no environment (not the host secret its own process holds) and no directories', async () => {
    expect(process.env[SECRET_NAME]).toBe(SECRET_VALUE);
    const report = await probe();
    expect(report).toEqual({ env: [], preopens: [] });
    expect(JSON.stringify(report)).not.toContain(SECRET_VALUE);
  });

  it('sees exactly what is granted', async () => {
    const report = await probe({ env: { HOOK_MODE: 'strict' }, read_only_dirs: { '/data': join(dir, 'data') } });
    expect(report.env).toEqual([['HOOK_MODE', 'strict']]);
    expect(report.preopens).toEqual(['/data']);
    expect(report.file).toBe('hello from a granted directory');
  });

  it("captures stdout and stderr per call, capped, never the host's", async () => {
    const t = componentTransport({ path: watGuest('stdio'), cache_dir: TEST_CACHE_DIR, isolation: 'metered', max_log_bytes: 1024 });
    transports.push(t);
    const stdout = "hello from the guest's stdout\n";
    const stderr = "hello from the guest's stderr\n";
    expect(await t.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'allow' }, logs: { stdout, stderr } });
    const flood = await t.invoke(preRequest({}, 'flood'), CONTEXT);
    expect(flood.logs?.stdout?.startsWith('.'.repeat(1024))).toBe(true);
    expect(flood.logs?.stdout).toContain('more bytes dropped');
  });

  it("nothing reaches the host's stdout, even with jco's debug logging switched on in its environment", async () => {
    // stdio-chain.ts runs a chain in a child process with the default isolation (metered) and prints
    // only the outcome; JCO_DEBUG would make jco's glue log every step (guest data included).
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/engine/stdio-chain.ts'), watGuest('stdio'), TEST_CACHE_DIR],
      { cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1', JCO_DEBUG: '1' } },
    );
    expect(stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(stdout)).toMatchObject({ decision: 'allow' });
    expect(stdout).not.toContain("hello from the guest's stdout\n");
    expect(stderr).not.toContain('hello from the guest');
  });

  it('a component importing sockets is still refused at load', async () => {
    const t = componentTransport({ path: watGuest('sockets-import'), cache_dir: TEST_CACHE_DIR, isolation: 'metered' });
    transports.push(t);
    await expect(t.load()).rejects.toMatchObject({ name: 'HookError', code: 'load_failed' });
  });
});

describe('metered isolation: no import can hold the thread past the deadline', () => {
  function meteredSandbox(deadlineMs: number) {
    const meter = new CallMeter(64 * 1024 * 1024, undefined);
    meter.begin(performance.now() + deadlineMs);
    const sandbox = createWasi({ env: [], readOnlyDirs: [], maxLogBytes: 1024 }, { sleep: meter.sleeper(sleepUntil) });
    return { meter, imports: sandbox.imports };
  }

  it('a wait on a clock past the deadline is refused at once instead of slept', () => {
    const { meter, imports } = meteredSandbox(50);
    const clock = imports['wasi:clocks/monotonic-clock'];
    const started = performance.now();
    expect(() => clock.subscribeDuration(10_000_000_000n).block()).toThrow(GuestStopped);
    expect(() => imports['wasi:io/poll'].poll([clock.subscribeDuration(10_000_000_000n)])).toThrow(GuestStopped);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(meter.stopped).toBe('deadline');
  });

  it('a wait within the deadline is slept', () => {
    const { meter, imports } = meteredSandbox(5_000);
    const started = performance.now();
    imports['wasi:clocks/monotonic-clock'].subscribeDuration(20_000_000n).block();
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
    expect(meter.stopped).toBeUndefined();
  });

  it('a host call that ends past the deadline unwinds the guest; later ones are refused outright', () => {
    const meter = new CallMeter(64 * 1024 * 1024, undefined);
    meter.begin(performance.now() + 1);
    const slow = meter.wrap(() => sleepUntil(process.hrtime.bigint() + 5_000_000n));
    expect(() => slow()).toThrow(GuestStopped);
    expect(() => meter.wrap(() => 1)()).toThrow(GuestStopped);
  });

  it('random bytes are capped per call (the host would allocate whatever length is asked)', () => {
    const { imports } = meteredSandbox(1_000);
    expect(imports['wasi:random/random'].getRandomBytes(16n)).toHaveLength(16);
    expect(() => imports['wasi:random/random'].getRandomBytes(BigInt(MAX_RANDOM_BYTES) + 1n)).toThrow(TypeError);
    expect(() => imports['wasi:random/insecure'].getInsecureRandomBytes(2n ** 40n)).toThrow(TypeError);
  });
});
