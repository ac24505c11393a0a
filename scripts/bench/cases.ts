/**
 * The measured cases. Every hook is built through the public API and checked to answer `allow` before
 * it is timed: a bench of a hook that fails (fast) would measure the failure path.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { guard } from '../../guest-examples/ts-interceptor/policies.js';
import {
  componentWorkers,
  HookRunner,
  componentTransport,
  interceptorTransport,
  subprocessTransport,
  type ComponentTransport,
  type Transport,
} from '../../host/index.js';
import { encodeRequest } from '../../host/codec/index.js';
import { toWitRequest } from '../../host/codec/wit.js';
import { jsonFloor, spawnOnce, startAtomicsWorker, startEchoWorker, workerRoundTrip } from './baselines.js';
import { buildExtismGuard, loadExtismGuard } from './extism/plugin.js';
import { ANSWER, CALL, CHAIN_GUEST, GUESTS, REQUEST, ROOT, guestById, type BenchGuest } from './guests.js';
import { loadComponentHook, type Isolation } from './isolation.js';
import { instantiateBothWays } from './raw.js';
import type { BenchResult, Stats } from './result.js';
import { measure, measureInterleaved, throughput } from './stats.js';

/** The JSON floor of the bench's call: stringify + parse of the request and of the guard's answer. */
const floor = jsonFloor(REQUEST, ANSWER);

/** Sample counts per kind of case. */
export interface Plan {
  /** µs-scale in-thread cases (interceptor, raw, metered). */
  readonly fast: { readonly n: number; readonly warmup: number };
  /** Cases with a worker hop (~50–300 µs). */
  readonly worker: { readonly n: number; readonly warmup: number };
  /** Process spawns (ms). */
  readonly spawn: { readonly n: number; readonly warmup: number };
  /** Calls per throughput measurement: in-thread, and through workers. */
  readonly throughputFast: number;
  readonly throughputWorker: number;
  /** Concurrent callers of the "N callers" throughput case. */
  readonly callers: number;
  /** Least warm-up time of a throughput case (lets a worker pool grow to its size first). */
  readonly throughputWarmupMs: number;
  /** Fresh processes per cold-start figure (the best is kept). */
  readonly coldRepeats: number;
  readonly coldGuests: readonly string[];
}

/** Progress goes to stderr, so `--json` keeps stdout clean. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function expectAllowRunner(runner: HookRunner, what: string): Promise<void> {
  const outcome = await runner.pre(CALL);
  if (outcome.decision !== 'allow') throw new Error(`${what}: expected allow, got ${JSON.stringify(outcome)}`);
}

async function expectAllowTransport(transport: Transport, what: string): Promise<void> {
  const result = await transport.invoke(REQUEST, { hook: 'guard' });
  if (!result.ok || result.response.decision !== 'allow') throw new Error(`${what}: expected allow, got ${JSON.stringify(result)}`);
}

/** A one-hook runner around `transport`, both checked to answer allow. */
async function checkedRunner(transport: Transport, what: string): Promise<HookRunner> {
  const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport }]);
  await expectAllowRunner(runner, what);
  await expectAllowTransport(transport, what);
  return runner;
}

export async function benchBaselines(plan: Plan): Promise<BenchResult['baselines']> {
  progress('baselines: JSON floor, postMessage and SharedArrayBuffer round trips');
  return {
    json_floor: await measure(floor, plan.fast),
    post_round_trip: await workerRoundTrip(plan.worker.n, startEchoWorker),
    sab_round_trip: await workerRoundTrip(plan.worker.n, startAtomicsWorker),
  };
}

export async function benchInterceptor(plan: Plan): Promise<BenchResult['interceptor']> {
  progress('in-process interceptor (TS reference guard)');
  const transport = interceptorTransport(guard);
  const runner = await checkedRunner(transport, 'interceptor');
  const context = { hook: 'guard' };
  return measureInterleaved({ runner: () => runner.pre(CALL), transport: () => transport.invoke(REQUEST, context), floor }, plan.fast);
}

/** What the run found out as it went: whether the host has metered isolation (unknown until a guest tries it), and notes for the report. */
export interface RunState {
  supported: boolean | undefined;
  readonly notes: string[];
}

/** Load `guest` in `isolation`, or say why not (metered only; a worker failure is fatal). */
async function tryLoad(guest: BenchGuest, isolation: Isolation, cacheDir: string, metered: RunState): Promise<ComponentTransport | undefined> {
  if (isolation === 'metered' && metered.supported === false) return undefined;
  const loaded = await loadComponentHook(guest.path, isolation, cacheDir);
  if (loaded.ok) {
    if (isolation === 'metered') metered.supported = true;
    return loaded.transport;
  }
  if (isolation === 'worker') throw new Error(`${guest.label}: cannot load in worker isolation: ${loaded.reason}`);
  if (loaded.unsupported) {
    metered.supported = false;
    metered.notes.push(`metered isolation: n/a — the host does not support it yet (${loaded.reason})`);
  } else {
    metered.supported = true;
    metered.notes.push(`metered isolation: n/a for ${guest.label} — ${loaded.reason}`);
  }
  return undefined;
}

/**
 * Per guest: the raw calls (jco's glue and the direct caller, no host, on a WIT record made once), the
 * metered hook and the worker hook, all loaded at once. The in-thread cases are timed interleaved,
 * sample by sample, with the JSON floor; the worker cases with both bare round trips: each comparison
 * is made under the same load. Two in-thread instances of the guest exist meanwhile (raw, metered).
 */
export async function benchComponents(plan: Plan, cacheDir: string, metered: RunState): Promise<BenchResult['components']> {
  const rows: BenchResult['components'] = [];
  const post = startEchoWorker();
  const sab = startAtomicsWorker();
  const context = { hook: 'guard' };
  const record = toWitRequest(REQUEST);
  try {
    for (const guest of GUESTS) {
      progress(`component ${guest.label}: loading (raw, worker, metered)`);
      const raw = await instantiateBothWays(guest.path, cacheDir);
      const worker = await tryLoad(guest, 'worker', cacheDir, metered);
      const inThread = await tryLoad(guest, 'metered', cacheDir, metered);
      try {
        const first = raw.glue(record);
        if (JSON.stringify(first) !== JSON.stringify({ tag: 'allow' })) throw new Error(`${guest.label} (raw): expected allow, got ${JSON.stringify(first)}`);
        const direct = raw.direct;
        if (direct !== undefined && JSON.stringify(direct.call(record)) !== JSON.stringify({ type: 'ok', decision: { tag: 'allow' } })) throw new Error(`${guest.label} (direct): expected allow`);
        if (worker === undefined) throw new Error('unreachable: a worker load failure throws');
        const workerRunner = await checkedRunner(worker, `${guest.label} (worker)`);
        const meteredRunner = inThread === undefined ? undefined : await checkedRunner(inThread, `${guest.label} (metered)`);

        progress(`component ${guest.label}: in-thread (floor, raw, raw direct${meteredRunner === undefined ? '' : ', metered'})`);
        const fns: Record<string, () => unknown> = { floor, raw: () => raw.glue(record) };
        if (direct !== undefined) fns['raw_direct'] = () => direct.call(record);
        if (inThread !== undefined && meteredRunner !== undefined) {
          fns['metered_transport'] = () => inThread.invoke(REQUEST, context);
          fns['metered_runner'] = () => meteredRunner.pre(CALL);
        }
        const m = await measureInterleaved(fns, plan.fast);
        const need = (k: string): Stats => {
          const v = m[k];
          if (v === undefined) throw new Error(`unreachable: ${k} not measured`);
          return v;
        };

        progress(`component ${guest.label}: worker + round trips`);
        const w = await measureInterleaved(
          { transport: () => worker.invoke(REQUEST, context), runner: () => workerRunner.pre(CALL), post_round_trip: () => post.roundTrip(), sab_round_trip: () => sab.roundTrip() },
          plan.worker,
        );
        rows.push({
          id: guest.id,
          label: guest.label,
          size_bytes: statSync(guest.path).size,
          direct: { callable: direct !== undefined, reason: raw.whyNot ?? null },
          in_thread: {
            floor: need('floor'),
            raw: need('raw'),
            raw_direct: m['raw_direct'] ?? null,
            metered_transport: m['metered_transport'] ?? null,
            metered_runner: m['metered_runner'] ?? null,
          },
          worker: w,
        });
      } finally {
        raw.close();
        await worker?.close();
        await inThread?.close();
      }
    }
  } finally {
    await post.close();
    await sab.close();
  }
  return rows;
}

/**
 * The peer in the same run: the guard policy as an Extism plugin (official JS SDK), in-thread and in
 * worker mode (each call: call, parse the answer, reset), interleaved with ours and the baselines.
 */
export async function benchPeer(plan: Plan, cacheDir: string, metered: RunState): Promise<BenchResult['peer']> {
  progress('peer: Extism (in-thread and worker) beside ours');
  const bytes = await buildExtismGuard();
  const requestJson = (): string => JSON.stringify(REQUEST);
  const check = (answer: unknown, what: string): void => {
    if (JSON.stringify(answer) !== JSON.stringify(ANSWER)) throw new Error(`${what}: expected allow, got ${JSON.stringify(answer)}`);
  };
  const guest = guestById(CHAIN_GUEST);
  const extism = await loadExtismGuard(bytes, 'in-thread');
  const extismWorker = await loadExtismGuard(bytes, 'worker');
  const interceptor = await checkedRunner(interceptorTransport(guard), 'interceptor');
  const c = await tryLoad(guest, 'metered', cacheDir, metered);
  const wat = await tryLoad(guestById('wat'), 'metered', cacheDir, metered);
  const cWorker = await tryLoad(guest, 'worker', cacheDir, metered);
  const post = startEchoWorker();
  const sab = startAtomicsWorker();
  try {
    check(await extism.call(requestJson()), 'Extism in-thread');
    check(await extismWorker.call(requestJson()), 'Extism worker');
    const cRunner = c === undefined ? undefined : await checkedRunner(c, `${guest.label} (metered)`);
    const watRunner = wat === undefined ? undefined : await checkedRunner(wat, 'WAT (metered)');
    if (cWorker === undefined) throw new Error('unreachable: a worker load failure throws');
    const workerRunner = await checkedRunner(cWorker, `${guest.label} (worker)`);
    const fns: Record<string, () => unknown> = { floor, extism: () => extism.call(requestJson()), interceptor: () => interceptor.pre(CALL) };
    if (cRunner !== undefined) fns['metered'] = () => cRunner.pre(CALL);
    if (watRunner !== undefined) fns['metered_wat'] = () => watRunner.pre(CALL);
    const m = await measureInterleaved(fns, plan.fast);
    const w = await measureInterleaved(
      { floor, extism: () => extismWorker.call(requestJson()), worker: () => workerRunner.pre(CALL), post_round_trip: () => post.roundTrip(), sab_round_trip: () => sab.roundTrip() },
      plan.worker,
    );
    const need = (k: string): Stats => {
      const v = m[k];
      if (v === undefined) throw new Error(`unreachable: ${k} not measured`);
      return v;
    };
    return {
      guest: guest.label,
      in_thread: { floor: need('floor'), extism: need('extism'), metered: m['metered'] ?? null, metered_wat: m['metered_wat'] ?? null, interceptor: need('interceptor') },
      worker: w,
    };
  } finally {
    await Promise.all([extism.close(), extismWorker.close(), interceptor.close(), c?.close(), wat?.close(), cWorker?.close(), post.close(), sab.close()]);
  }
}

const CHAIN_LENGTH = 5;

/** A chain of five hooks running the same guest (five transports, as five configured hooks would be). */
async function chainRunner(isolation: Isolation, cacheDir: string, metered: RunState): Promise<HookRunner | undefined> {
  const guest = guestById(CHAIN_GUEST);
  const transports: ComponentTransport[] = [];
  for (let i = 0; i < CHAIN_LENGTH; i++) {
    const transport = await tryLoad(guest, isolation, cacheDir, metered);
    if (transport === undefined) {
      await Promise.all(transports.map((t) => t.close()));
      return undefined;
    }
    transports.push(transport);
  }
  const runner = new HookRunner(transports.map((transport, i) => ({ name: `guard-${i + 1}`, event: 'pre_tool_use' as const, transport })));
  await expectAllowRunner(runner, `chain (${isolation})`);
  if ((await runner.pre(CALL)).trail.length !== CHAIN_LENGTH) throw new Error('chain: not every hook ran');
  return runner;
}

/** Warm-up calls of the one-hop cases in a full run (fresh workers run cold code at first). */
const ONE_HOP_WARMUP = 3000;

/** How long the workers of the polling case poll after a reply (µs): componentWorkers' default (WORKER_SPIN_US). */
const SPIN_US = 50;

/** A runner of `length` worker-isolated hooks of the chain's guest sharing `workers` (loaded and checked). */
async function sharedRunner(length: number, workers: ReturnType<typeof componentWorkers>, cacheDir: string): Promise<HookRunner> {
  const transports = Array.from({ length }, () => componentTransport({ path: guestById(CHAIN_GUEST).path, cache_dir: cacheDir, isolation: 'worker', workers }));
  await Promise.all(transports.map((t) => t.load()));
  const runner = new HookRunner(transports.map((transport, i) => ({ name: `guard-${i + 1}`, event: 'pre_tool_use' as const, transport })));
  await expectAllowRunner(runner, `chain of ${length} sharing workers`);
  if ((await runner.pre(CALL)).trail.length !== length) throw new Error('chain sharing workers: not every hook ran');
  return runner;
}

/**
 * The chain in worker isolation with shared workers — one hop for the five hooks — beside one worker
 * hook alone and the floor (interleaved), with workers that sleep at once (spin_us 0); then both again
 * as a host runs them by default, the workers polling SPIN_US after a reply.
 */
async function benchOneHop(plan: Plan, cacheDir: string): Promise<NonNullable<BenchResult['chain']['one_hop']>> {
  // A fresh worker runs cold code (its JavaScript and the guest's wasm tier up as they get hot): one
  // hook through new workers took 120-150 µs at first and settled after ~1,500-3,000 calls (28 µs
  // asleep, 9 µs polling; scripts/bench/hop.ts, load ~6). Timed once settled, as a running host is.
  const settled = { n: plan.worker.n, warmup: plan.worker.n >= 1000 ? ONE_HOP_WARMUP : plan.worker.warmup };
  const measureCase = async (spinUs: number): Promise<{ chain: HookRunner; one: HookRunner; close: () => Promise<unknown> }> => {
    const chainWorkers = componentWorkers({ spin_us: spinUs });
    const oneWorkers = componentWorkers({ spin_us: spinUs });
    const chain = await sharedRunner(CHAIN_LENGTH, chainWorkers, cacheDir);
    const one = await sharedRunner(1, oneWorkers, cacheDir);
    return { chain, one, close: () => Promise.all([chain.close(), one.close(), chainWorkers.close(), oneWorkers.close()]) };
  };
  progress(`chain of ${CHAIN_LENGTH} sharing workers (one hop), one worker hook, the floor: interleaved`);
  const still = await measureCase(0);
  let plain: Record<'chain' | 'one_hook' | 'floor', Stats>;
  try {
    plain = await measureInterleaved({ chain: () => still.chain.pre(CALL), one_hook: () => still.one.pre(CALL), floor }, settled);
  } finally {
    await still.close();
  }
  progress(`the same with workers that spin ${SPIN_US} µs after a reply the chain alone, one hook interleaved with the floor`);
  const spinning = await measureCase(SPIN_US);
  try {
    const chainSpin = await measure(() => spinning.chain.pre(CALL), settled);
    // With the floor between calls (a few µs): the workers are still polling when the next call comes.
    const oneSpin = await measureInterleaved({ one_hook: () => spinning.one.pre(CALL), floor }, settled);
    return { ...plain, spin_us: SPIN_US, chain_spin: chainSpin, one_hook_spin: oneSpin.one_hook, floor_spin: oneSpin.floor };
  } finally {
    await spinning.close();
  }
}

export async function benchChain(plan: Plan, cacheDir: string, metered: RunState): Promise<BenchResult['chain']> {
  const result: { worker: Stats | undefined; metered: Stats | null; floor: Stats | undefined } = { worker: undefined, metered: null, floor: undefined };
  for (const isolation of ['worker', 'metered'] as const) {
    progress(`chain of ${CHAIN_LENGTH} (${CHAIN_LENGTH} instances of one component): ${isolation}`);
    const runner = await chainRunner(isolation, cacheDir, metered);
    if (runner === undefined) continue;
    try {
      if (isolation === 'worker') result.worker = await measure(() => runner.pre(CALL), plan.worker);
      else {
        const m = await measureInterleaved({ chain: () => runner.pre(CALL), floor }, plan.fast);
        result.metered = m.chain;
        result.floor = m.floor;
      }
    } finally {
      await runner.close();
    }
  }
  if (result.worker === undefined) throw new Error('chain: worker isolation did not run');
  return {
    guest: guestById(CHAIN_GUEST).label,
    length: CHAIN_LENGTH,
    instances_of_one_component: CHAIN_LENGTH,
    worker: result.worker,
    metered: result.metered,
    floor: result.floor ?? (await measure(floor, plan.fast)),
    one_hop: await benchOneHop(plan, cacheDir),
  };
}

export async function benchConcurrency(plan: Plan, cacheDir: string, metered: RunState): Promise<BenchResult['concurrency']> {
  const rows: BenchResult['concurrency'] = [];
  const guest = guestById(CHAIN_GUEST);
  const cases: Array<{ name: string; total: number; make: () => Promise<Transport | undefined> }> = [
    { name: 'interceptor (TS guard)', total: plan.throughputFast, make: async () => interceptorTransport(guard) },
    { name: `component ${guest.label}, worker`, total: plan.throughputWorker, make: () => tryLoad(guest, 'worker', cacheDir, metered) },
    { name: `component ${guest.label}, metered`, total: plan.throughputFast, make: () => tryLoad(guest, 'metered', cacheDir, metered) },
  ];
  for (const c of cases) {
    progress(`concurrency: ${c.name}`);
    const transport = await c.make();
    if (transport === undefined) continue;
    const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport }]);
    try {
      await expectAllowRunner(runner, c.name);
      for (const callers of [1, plan.callers]) {
        rows.push({ case: c.name, callers, calls_per_s: await throughput(() => runner.pre(CALL), { total: c.total, concurrency: callers, warmupMs: plan.throughputWarmupMs }) });
      }
    } finally {
      await runner.close();
    }
  }
  return rows;
}

const NODE_HOOK = `${ROOT}/scripts/bench/allow-hook.mjs`;

export async function benchSubprocess(plan: Plan): Promise<BenchResult['subprocess']> {
  const cases = [
    { id: 'sh', argv: ['/bin/sh', '-c', `echo '{"decision":"allow"}'`], display: ['/bin/sh', '-c', `echo '{"decision":"allow"}'`] },
    { id: 'node', argv: [process.execPath, NODE_HOOK], display: ['node', relative(ROOT, NODE_HOOK)] },
  ];
  const stdin = encodeRequest(REQUEST);
  const rows: BenchResult['subprocess'] = [];
  for (const c of cases) {
    progress(`subprocess hook: ${c.id}`);
    const transport = subprocessTransport({ command: c.argv });
    const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport }]);
    try {
      await expectAllowRunner(runner, `subprocess ${c.id}`);
      // Interleaved, so a burst of load from elsewhere hits the hook and its baseline alike.
      const { hook, bare } = await measureInterleaved({ hook: () => runner.pre(CALL), bare: () => spawnOnce(c.argv, stdin) }, plan.spawn);
      rows.push({ id: c.id, command: c.display, hook, bare });
    } finally {
      await runner.close();
    }
  }
  return rows;
}
