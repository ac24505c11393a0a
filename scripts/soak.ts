/**
 * `npm run soak`: nothing leaks. 10^6 calls through one mixed chain — a metered component, a worker
 * component and an interceptor on every call; a subprocess hook on every 1,000th; a runaway and a
 * trap on every 1,000th (alternately metered and worker isolation, the conformance `hang` and
 * `crash` guests with a small timeout_ms) — sampling RSS, open file descriptors, active handles and
 * threads. Fails (exit 1) when RSS grows more than 64 MiB after warm-up (the median of the last
 * quarter of samples against the median of the first quarter after warm-up, the first tenth of the
 * calls), or when a count keeps growing (its floor over the second half of the run is above its
 * ceiling over the first).
 *
 *   node --expose-gc --import tsx scripts/soak.ts [--calls N] [--concurrency N] [--out FILE] [--markdown]
 *
 * Outside `npm test` (minutes, not seconds). Needs the WAT guests (`npm run build-guests`).
 */
import { getEventListeners } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { componentTransport, HookRunner, interceptorTransport, subprocessTransport, type HookCall } from '../host/index.js';
import { containment } from '../host/transports/subprocess/containment.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WAT = join(ROOT, 'guest-examples/wat/build');
const MiB = 1024 * 1024;
const RSS_GROWTH_LIMIT = 64 * MiB;

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '4' },
    samples: { type: 'string', default: '100' },
    out: { type: 'string' },
    markdown: { type: 'boolean', default: false },
  },
});
const CALLS = Number(args.calls);
const CONCURRENCY = Number(args.concurrency);
const SAMPLE_EVERY = Math.max(1, Math.floor(CALLS / Number(args.samples)));
const WARMUP = Math.floor(CALLS / 10);

interface Sample {
  readonly calls: number;
  readonly seconds: number;
  readonly rss: number;
  readonly heapUsed: number;
  readonly fds: number;
  readonly handles: number;
  readonly threads: number;
}

function threads(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
}

function sample(calls: number, started: number): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  return {
    calls,
    seconds: (performance.now() - started) / 1000,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    fds: readdirSync('/proc/self/fd').length,
    // Timers, sockets, child processes, workers... everything that keeps the loop alive.
    handles: process.getActiveResourcesInfo().length,
    threads: threads(),
  };
}

for (const guest of ['guard.wasm', 'conformance/allow.wasm', 'conformance/hang.wasm', 'conformance/crash.wasm']) {
  if (!existsSync(join(WAT, guest))) {
    process.stderr.write(`soak: ${join(WAT, guest)} is missing; run npm run build-guests first\n`);
    process.exit(2);
  }
}

const cacheDir = join(ROOT, '.cache', 'soak');
const component = (path: string, options: Record<string, unknown>) => componentTransport({ path: join(WAT, path), cache_dir: cacheDir, ...options });

const runner = new HookRunner([
  // Every call: a metered policy, a worker component, an interceptor.
  { name: 'guard-metered', event: 'pre_tool_use', transport: component('guard.wasm', { isolation: 'metered' }) },
  { name: 'allow-worker', event: 'pre_tool_use', transport: component('conformance/allow.wasm', { isolation: 'worker', pool_size: 2 }) },
  {
    name: 'interceptor',
    event: 'pre_tool_use',
    transport: interceptorTransport((request) =>
      typeof request.input === 'object' && request.input !== null && 'secret' in request.input ? { decision: 'modify', input: { redacted: true } } : { decision: 'allow' },
    ),
  },
  // Every 1,000th call, by tool.
  { name: 'subprocess', event: 'pre_tool_use', tools: ['subprocess'], transport: subprocessTransport({ command: ['/bin/sh', '-c', 'cat >/dev/null; echo \'{"decision":"allow"}\''] }) },
  { name: 'runaway-metered', event: 'pre_tool_use', tools: ['runaway-metered'], on_failure: 'allow', transport: component('conformance/hang.wasm', { isolation: 'metered', timeout_ms: 10 }) },
  { name: 'runaway-worker', event: 'pre_tool_use', tools: ['runaway-worker'], on_failure: 'allow', transport: component('conformance/hang.wasm', { isolation: 'worker', timeout_ms: 50 }) },
  { name: 'trap-metered', event: 'pre_tool_use', tools: ['trap-metered'], on_failure: 'allow', transport: component('conformance/crash.wasm', { isolation: 'metered' }) },
  { name: 'trap-worker', event: 'pre_tool_use', tools: ['trap-worker'], on_failure: 'allow', transport: component('conformance/crash.wasm', { isolation: 'worker' }) },
]);

/** Which tool call `i` is: mostly ordinary, one in 1,000 each of the special ones. */
function toolFor(i: number): string {
  switch (i % 1000) {
    case 250:
      return 'subprocess';
    case 500:
      return i % 2000 === 500 ? 'runaway-metered' : 'runaway-worker';
    case 750:
      return i % 2000 === 750 ? 'trap-metered' : 'trap-worker';
    default:
      return i % 3 === 0 ? 'shell' : 'read_file';
  }
}

function callFor(i: number): HookCall {
  return {
    event: 'pre_tool_use',
    workspace: i % 2 === 0 ? '/workspace-a' : '/workspace-b',
    agent_id: i % 2 === 0 ? 'tenant-a' : 'tenant-b',
    tool_call_id: `call-${i}`,
    tool_name: toolFor(i),
    input: i % 7 === 0 ? { secret: `s-${i}`, path: `/tmp/${i}` } : { command: `ls -la /tmp/${i % 97}`, args: [i, i % 5 === 0] },
  };
}

const shutdown = new AbortController();
const counts = { allow: 0, deny: 0, modified: 0, failures: {} as Record<string, number> };
const samples: Sample[] = [];
const started = performance.now();
let next = 0;
let leakedListeners = 0;
let done = 0;

async function lane(): Promise<void> {
  for (;;) {
    const i = next++;
    if (i >= CALLS) return;
    // One signal for every call, as the CLI passes: a listener left on it per call would show.
    const outcome = await runner.run(callFor(i), { signal: shutdown.signal });
    if (outcome.decision === 'allow') counts.allow += 1;
    else counts.deny += 1;
    if (outcome.event === 'pre_tool_use' && outcome.decision === 'allow' && outcome.modified) counts.modified += 1;
    for (const entry of outcome.trail) if (entry.failure) counts.failures[entry.failure.code] = (counts.failures[entry.failure.code] ?? 0) + 1;
    done += 1;
    if (done % SAMPLE_EVERY === 0) {
      const s = sample(done, started);
      const listeners = getEventListeners(shutdown.signal, 'abort').length;
      if (listeners > CONCURRENCY * 4) leakedListeners = Math.max(leakedListeners, listeners);
      samples.push(s);
      process.stderr.write(
        `soak: ${String(done).padStart(8)} calls  ${s.seconds.toFixed(0).padStart(5)} s  rss ${(s.rss / MiB).toFixed(1)} MiB  heap ${(s.heapUsed / MiB).toFixed(1)} MiB  fds ${s.fds}  handles ${s.handles}  threads ${s.threads}\n`,
      );
    }
  }
}

const how = await containment();
samples.push(sample(0, started));
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
const seconds = (performance.now() - started) / 1000;
await runner.close();

// ── verdict ─────────────────────────────────────────────────────────────────────────────────────
const afterWarmup = samples.filter((s) => s.calls >= WARMUP);
// RSS moves by tens of MiB as workers are replaced (runaways, traps): compare the typical level at
// the end with the typical level just after warm-up (medians of a quarter of the samples each),
// not one sample with another.
const quarter = Math.max(1, Math.floor(afterWarmup.length / 4));
const medianOf = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const rssEarly = medianOf(afterWarmup.slice(0, quarter).map((s) => s.rss));
const rssLate = medianOf(afterWarmup.slice(-quarter).map((s) => s.rss));
const rssGrowth = rssLate - rssEarly;
const rssPeak = Math.max(...afterWarmup.map((s) => s.rss));
const half = Math.floor(afterWarmup.length / 2);
const firstHalf = afterWarmup.slice(0, half);
const secondHalf = afterWarmup.slice(half);
const growing: string[] = [];
for (const key of ['fds', 'handles', 'threads', 'heapUsed'] as const) {
  if (firstHalf.length === 0 || secondHalf.length === 0) break;
  const ceiling = Math.max(...firstHalf.map((s) => s[key]));
  const floor = Math.min(...secondHalf.map((s) => s[key]));
  // heapUsed: only a growth worth a MiB counts (the GC does not return to the same byte).
  if (floor > ceiling + (key === 'heapUsed' ? MiB : 0)) growing.push(`${key} (first-half max ${ceiling}, second-half min ${floor})`);
}
if (leakedListeners > 0) growing.push(`abort listeners on the caller's signal (${leakedListeners})`);
const failed = rssGrowth > RSS_GROWTH_LIMIT || growing.length > 0;
const range = (key: 'fds' | 'handles' | 'threads'): string => `${Math.min(...afterWarmup.map((s) => s[key]))}–${Math.max(...afterWarmup.map((s) => s[key]))}`;

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
  containment: how.kind,
  calls: CALLS,
  concurrency: CONCURRENCY,
  seconds: Math.round(seconds),
  calls_per_second: Math.round(CALLS / seconds),
  outcomes: counts,
  rss_mib: {
    start: +((samples[0]?.rss ?? 0) / MiB).toFixed(1),
    after_warmup: +(rssEarly / MiB).toFixed(1),
    end: +(rssLate / MiB).toFixed(1),
    growth_after_warmup: +(rssGrowth / MiB).toFixed(1),
    peak: +(rssPeak / MiB).toFixed(1),
  },
  fds: range('fds'),
  handles: range('handles'),
  threads: range('threads'),
  growing,
  passed: !failed,
  samples,
};

const summary = `soak: ${CALLS.toLocaleString('en')} calls in ${result.seconds} s (${result.calls_per_second}/s, ${CONCURRENCY} callers, load ${result.loadavg.join(' ')}); RSS ${result.rss_mib.after_warmup} MiB after warm-up → ${result.rss_mib.end} MiB at the end (growth ${result.rss_mib.growth_after_warmup} MiB, limit 64; peak ${result.rss_mib.peak} MiB); fds ${result.fds}, handles ${result.handles}, threads ${result.threads} after warm-up; failures ${JSON.stringify(counts.failures)}; ${failed ? `FAILED${growing.length > 0 ? `: growing ${growing.join(', ')}` : ''}` : 'passed'}`;
process.stdout.write(`${summary}\n`);
if (args.markdown) {
  process.stdout.write(
    [
      '',
      `| calls | time | RSS after warm-up → end (growth; peak) | open fds | handles | threads | verdict |`,
      `| --- | --- | --- | --- | --- | --- | --- |`,
      `| ${CALLS.toLocaleString('en')} (${CONCURRENCY} callers) | ${result.seconds} s (${result.calls_per_second}/s) | ${result.rss_mib.after_warmup} → ${result.rss_mib.end} MiB (${result.rss_mib.growth_after_warmup >= 0 ? '+' : ''}${result.rss_mib.growth_after_warmup}; peak ${result.rss_mib.peak}) | ${result.fds} | ${result.handles} | ${result.threads} | ${failed ? 'failed' : 'passed'} |`,
      '',
    ].join('\n'),
  );
}
if (args.out !== undefined) {
  await mkdir(dirname(resolve(args.out)), { recursive: true });
  await writeFile(resolve(args.out), `${JSON.stringify(result, null, 2)}\n`);
}
process.exitCode = failed ? 1 : 0;
