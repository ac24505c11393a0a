/**
 * Where one worker-isolated hook call's time goes (issue 24, item 5), measured interleaved in one
 * process so every row sees the same load:
 *
 *   node --import tsx --import ./scripts/bench/use-dist.mjs scripts/bench/hop.ts [--n 2000] [--spin-us 50]
 *
 * Rows (medians, µs, and ratios to the JSON floor measured beside them):
 * - `floor`: the bench's JSON floor (stringify + parse of the request and the answer);
 * - bare SharedArrayBuffer round trips, no payload: the worker sleeping in `Atomics.wait` and the
 *   caller awaiting `Atomics.waitAsync` (what a hop cost before this change); the worker polling, the
 *   caller awaiting; both polling (the physical floor of a hop between two threads here). For the
 *   first, the worker also stamps when it woke and the caller when its await resumed (one monotonic
 *   clock, `process.hrtime`), which splits the round trip into its two wake-ups;
 * - `metered`: the same guest's hook on the caller's thread (`transport.invoke`): the guest call and
 *   the hook codec without any hop;
 * - `worker`: the hook in worker isolation (`transport.invoke`, then the one-hook runner): workers
 *   sleeping at once and the caller awaiting at once; workers sleeping and the caller polling for
 *   `--caller-spin-us`; both polling (`--spin-us` in the worker).
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { HookRunner, componentTransport, componentWorkers, type ComponentTransport } from '../../host/index.js';
import { jsonFloor } from './baselines.js';
import { ANSWER, CALL, CHAIN_GUEST, REQUEST, guestById } from './guests.js';
import { measureInterleaved, round, type Stats } from './stats.js';

type WaitAsync = (a: Int32Array, i: number, v: number) => { async: boolean; value: Promise<unknown> | string };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

const nowUs = (): number => Number(process.hrtime.bigint()) / 1000;

/**
 * A bare round trip: slot 0 is the flag (0 idle, 1 request, 2 reply, 3 close); the worker polls for
 * `workerSpinUs` after each reply before it sleeps; slots 2.. (as float64) carry the timestamps.
 */
function bareWorker(workerSpinUs: number): { sab: SharedArrayBuffer; worker: Worker; flag: Int32Array; times: Float64Array } {
  const sab = new SharedArrayBuffer(64);
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const flag = new Int32Array(workerData.sab, 0, 2);
     const times = new Float64Array(workerData.sab, 8, 4);
     const now = () => Number(process.hrtime.bigint()) / 1000;
     for (;;) {
       // 2: the caller has not taken the last reply yet (it sets 0 without a notify): not a request.
       const waiting = () => { const f = Atomics.load(flag, 0); return f === 0 || f === 2; };
       if (workerData.spinUs > 0) {
         const until = performance.now() + workerData.spinUs / 1000;
         while (waiting() && performance.now() < until);
       }
       while (waiting()) Atomics.wait(flag, 0, Atomics.load(flag, 0), 1);
       times[0] = now();
       if (Atomics.load(flag, 0) === 3) break;
       times[1] = now();
       Atomics.store(flag, 0, 2);
       Atomics.notify(flag, 0);
     }`,
    { eval: true, workerData: { sab, spinUs: workerSpinUs } },
  );
  return { sab, worker, flag: new Int32Array(sab, 0, 2), times: new Float64Array(sab, 8, 4) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { n: { type: 'string', default: '2000' }, 'spin-us': { type: 'string', default: '50' }, 'caller-spin-us': { type: 'string', default: '50' } } });
  const n = Number(values.n);
  const spinUs = Number(values['spin-us']);
  const callerSpinUs = Number(values['caller-spin-us']);
  const floor = jsonFloor(REQUEST, ANSWER);
  const sleeping = bareWorker(0);
  const polling = bareWorker(2_000);
  const path = guestById(CHAIN_GUEST).path;
  const cacheDir = '.cache/bench';
  const metered = componentTransport({ path, cache_dir: cacheDir });
  // Sleeping workers, the caller awaiting at once; sleeping workers, the caller polling; both polling.
  const still = componentWorkers({ spin_us: 0, caller_spin_us: 0 });
  const callerPolls = componentWorkers({ spin_us: 0, caller_spin_us: callerSpinUs });
  const spun = componentWorkers({ spin_us: spinUs, caller_spin_us: callerSpinUs });
  const workerStill: ComponentTransport = componentTransport({ path, cache_dir: cacheDir, isolation: 'worker', workers: still });
  const workerPolls: ComponentTransport = componentTransport({ path, cache_dir: cacheDir, isolation: 'worker', workers: callerPolls });
  const workerSpun: ComponentTransport = componentTransport({ path, cache_dir: cacheDir, isolation: 'worker', workers: spun });
  await Promise.all([metered.load(), workerStill.load(), workerPolls.load(), workerSpun.load()]);
  const runnerStill = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: workerStill }]);
  const runnerPolls = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: workerPolls }]);
  const runnerSpun = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: workerSpun }]);
  const context = { hook: 'guard' };
  const wakes = { worker: [] as number[], caller: [] as number[] };
  const rtAsync = async (w: ReturnType<typeof bareWorker>, record: boolean): Promise<void> => {
    const posted = nowUs();
    Atomics.store(w.flag, 0, 1);
    Atomics.notify(w.flag, 0);
    while (Atomics.load(w.flag, 0) === 1) {
      const waited = waitAsync(w.flag, 0, 1);
      if (waited.async) await waited.value;
    }
    const resumed = nowUs();
    Atomics.store(w.flag, 0, 0);
    if (record) {
      wakes.worker.push((w.times[0] ?? 0) - posted);
      wakes.caller.push(resumed - (w.times[1] ?? 0));
    }
  };
  const rtSpin = (w: ReturnType<typeof bareWorker>): void => {
    Atomics.store(w.flag, 0, 1);
    Atomics.notify(w.flag, 0);
    while (Atomics.load(w.flag, 0) === 1);
    Atomics.store(w.flag, 0, 0);
  };
  try {
    // Sleepers first; then, apart, the cases with a thread polling (one spinning core changes the others' figures).
    const quiet: Record<string, Stats> = await measureInterleaved(
      {
        floor,
        rt_sleeping_await: () => rtAsync(sleeping, true),
        metered_invoke: () => metered.invoke(REQUEST, context),
        worker_invoke: () => workerStill.invoke(REQUEST, context),
        worker_runner: () => runnerStill.pre(CALL),
        worker_caller_polls_invoke: () => workerPolls.invoke(REQUEST, context),
        worker_caller_polls_runner: () => runnerPolls.pre(CALL),
      },
      { n, warmup: 300 },
    );
    const spinning: Record<string, Stats> = await measureInterleaved(
      {
        floor_beside_pollers: floor,
        worker_spin_invoke: () => workerSpun.invoke(REQUEST, context),
        worker_spin_runner: () => runnerSpun.pre(CALL),
      },
      { n, warmup: 300 },
    );
    // The bare polling thread last and alone with the floor: it polls through everything beside it.
    const bare: Record<string, Stats> = await measureInterleaved(
      {
        floor_beside_poller: floor,
        rt_polling_await: () => rtAsync(polling, false),
        rt_polling_poll: () => rtSpin(polling),
      },
      { n, warmup: 300 },
    );
    const m = { ...quiet, ...spinning, ...bare };
    // What the polls cost: the process's CPU time (every thread) per call, back to back and spaced
    // 1 ms apart (a worker polling then spins its whole spin_us for nothing after each call).
    const cpu = async (runner: HookRunner, gapMs: number, calls: number): Promise<{ wall_us: number; cpu_us_per_call: number }> => {
      const samples: number[] = [];
      let busy = 0;
      for (let i = 0; i < calls; i++) {
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const r = runner.pre(CALL);
        if (r instanceof Promise) await r;
        samples.push(performance.now() - t0);
        if (gapMs > 0) await new Promise((r2) => setTimeout(r2, 0.3));
        const c1 = process.cpuUsage(c0);
        busy += c1.user + c1.system;
      }
      samples.sort((a, b) => a - b);
      return { wall_us: round((samples[Math.floor(samples.length / 2)] ?? 0) * 1000), cpu_us_per_call: round(busy / calls) };
    };
    const idle0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 300));
    const idle1 = process.cpuUsage(idle0);
    const idleCpuUsPerMs = round((idle1.user + idle1.system) / 300);
    const costs = {
      idle_cpu_us_per_ms: idleCpuUsPerMs,
      back_to_back: { still: await cpu(runnerStill, 0, n), caller_polls: await cpu(runnerPolls, 0, n), both_poll: await cpu(runnerSpun, 0, n) },
      spaced_1ms: { still: await cpu(runnerStill, 1, 300), caller_polls: await cpu(runnerPolls, 1, 300), both_poll: await cpu(runnerSpun, 1, 300) },
    };
    const med = (xs: number[]): number => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN);
    const f = m['floor']?.median_us ?? Number.NaN;
    const rows = Object.entries(m).map(([k, s]) => ({ case: k, median_us: s.median_us, p99_us: s.p99_us, x_floor: round(s.median_us / f) }));
    process.stdout.write(`${JSON.stringify({ spin_us: spinUs, caller_spin_us: callerSpinUs, rows, wake_us: { worker: med(wakes.worker.slice(300)), caller: med(wakes.caller.slice(300)) }, costs }, null, 1)}\n`);
  } finally {
    for (const w of [sleeping, polling]) {
      Atomics.store(w.flag, 0, 3);
      Atomics.notify(w.flag, 0);
      await w.worker.terminate();
    }
    await Promise.all([runnerStill.close(), runnerPolls.close(), runnerSpun.close(), metered.close(), still.close(), callerPolls.close(), spun.close()]);
  }
}

await main();
