/**
 * The measured cases. Every hook is built through the public API and checked to answer `allow` before
 * it is timed: a bench of a hook that fails (fast) would measure the failure path.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { guard } from '../../guest-examples/ts-interceptor/policies.js';
import {
  encodeRequest,
  HookRunner,
  interceptorTransport,
  subprocessTransport,
  type ComponentTransport,
  type Transport,
} from '../../host/index.js';
import { spawnOnce, startEchoWorker, workerRoundTrip } from './baselines.js';
import { CALL, CHAIN_GUEST, GUESTS, REQUEST, ROOT, guestById, type BenchGuest } from './guests.js';
import { loadComponentHook, type Isolation } from './isolation.js';
import type { BenchResult, Stats } from './result.js';
import { measure, measureInterleaved, throughput } from './stats.js';
import { loadUnguarded } from './unguarded.js';

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

/** A hook measured through HookRunner and through its transport alone, interleaved. */
async function levels(transport: Transport, plan: { n: number; warmup: number }, what: string): Promise<{ runner: Stats; transport: Stats }> {
  const runner = await checkedRunner(transport, what);
  const context = { hook: 'guard' };
  return measureInterleaved({ runner: () => runner.pre(CALL), transport: () => transport.invoke(REQUEST, context) }, plan);
}

export async function benchWorkerRoundTrip(plan: Plan): Promise<Stats> {
  progress('baseline: worker postMessage round trip');
  return workerRoundTrip(plan.worker.n);
}

export async function benchInterceptor(plan: Plan): Promise<BenchResult['interceptor']> {
  progress('in-process interceptor (TS reference guard)');
  return levels(interceptorTransport(guard), plan.fast, 'interceptor');
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
 * Per guest: the raw call, the metered hook and the worker hook, all loaded at once. The in-thread
 * cases (raw, metered via transport and via runner) are timed interleaved, sample by sample, and so
 * are the worker cases with a bare worker round trip: each comparison is made under the same load.
 */
export async function benchComponents(plan: Plan, cacheDir: string, metered: RunState): Promise<{ rows: BenchResult['components']; unguarded: 'host' | 'bench' }> {
  const rows: BenchResult['components'] = [];
  let source: 'host' | 'bench' = 'bench';
  const echo = startEchoWorker();
  const context = { hook: 'guard' };
  try {
    for (const guest of GUESTS) {
      progress(`component ${guest.label}: loading (raw, worker, metered)`);
      const raw = await loadUnguarded(guest.path, cacheDir, REQUEST);
      source = raw.source;
      const worker = await tryLoad(guest, 'worker', cacheDir, metered);
      const inThread = await tryLoad(guest, 'metered', cacheDir, metered);
      try {
        const first = raw.call();
        if (JSON.stringify(first) !== JSON.stringify({ tag: 'allow' })) throw new Error(`${guest.label} (raw): expected allow, got ${JSON.stringify(first)}`);
        if (worker === undefined) throw new Error('unreachable: a worker load failure throws');
        const workerRunner = await checkedRunner(worker, `${guest.label} (worker)`);
        const meteredRunner = inThread === undefined ? undefined : await checkedRunner(inThread, `${guest.label} (metered)`);

        progress(`component ${guest.label}: raw${meteredRunner === undefined ? '' : ' + metered'}`);
        let rawStats: Stats;
        let meteredStats: { runner: Stats; transport: Stats } | null = null;
        if (inThread === undefined || meteredRunner === undefined) rawStats = await measure(() => raw.call(), plan.fast);
        else {
          const m = await measureInterleaved(
            { raw: () => raw.call(), transport: () => inThread.invoke(REQUEST, context), runner: () => meteredRunner.pre(CALL) },
            plan.fast,
          );
          rawStats = m.raw;
          meteredStats = { runner: m.runner, transport: m.transport };
        }

        progress(`component ${guest.label}: worker + round trip`);
        const w = await measureInterleaved(
          { transport: () => worker.invoke(REQUEST, context), runner: () => workerRunner.pre(CALL), round_trip: () => echo.roundTrip() },
          plan.worker,
        );
        rows.push({ id: guest.id, label: guest.label, size_bytes: statSync(guest.path).size, raw: rawStats, metered: meteredStats, worker: w });
      } finally {
        await raw.close();
        await worker?.close();
        await inThread?.close();
      }
    }
  } finally {
    await echo.close();
  }
  return { rows, unguarded: source };
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

export async function benchChain(plan: Plan, cacheDir: string, metered: RunState): Promise<BenchResult['chain']> {
  const result: { worker: Stats | undefined; metered: Stats | null } = { worker: undefined, metered: null };
  for (const isolation of ['worker', 'metered'] as const) {
    progress(`chain of ${CHAIN_LENGTH}: ${isolation}`);
    const runner = await chainRunner(isolation, cacheDir, metered);
    if (runner === undefined) continue;
    try {
      result[isolation] = await measure(() => runner.pre(CALL), isolation === 'worker' ? plan.worker : plan.fast);
    } finally {
      await runner.close();
    }
  }
  if (result.worker === undefined) throw new Error('chain: worker isolation did not run');
  return { guest: guestById(CHAIN_GUEST).label, length: CHAIN_LENGTH, worker: result.worker, metered: result.metered };
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
