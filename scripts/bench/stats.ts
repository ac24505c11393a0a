/** Latency statistics for the benchmark: medians and tails, never means of noisy samples. */
export interface Stats {
  readonly n: number;
  /** Median per-call latency, µs. */
  readonly median_us: number;
  /** 99th percentile per-call latency, µs. */
  readonly p99_us: number;
  /** Calls per second at the median latency (1 / median). */
  readonly calls_per_s: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[pos] ?? Number.NaN;
}

/** Summarise samples given in milliseconds. */
export function summarize(samplesMs: readonly number[]): Stats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  return {
    n: sorted.length,
    median_us: round(median * 1000),
    p99_us: round(quantile(sorted, 0.99) * 1000),
    calls_per_s: round(1000 / median),
  };
}

export function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x) >= 100) return Math.round(x);
  if (Math.abs(x) >= 1) return Math.round(x * 100) / 100;
  return Math.round(x * 1000) / 1000;
}

/**
 * Time `fn` `n` times after `warmup` untimed runs. Each sample is one call, so the distribution (p99)
 * is real; calls are sequential (one caller). A synchronous `fn` (one returning no promise) is not
 * awaited, so µs-scale cases do not also measure a microtask turn.
 */
export async function measure(fn: () => unknown, options: { n: number; warmup: number }): Promise<Stats> {
  for (let i = 0; i < options.warmup; i++) {
    const r = fn();
    if (isThenable(r)) await r;
  }
  const samples: number[] = new Array<number>(options.n);
  for (let i = 0; i < options.n; i++) {
    const t = performance.now();
    const r = fn();
    if (isThenable(r)) await r;
    samples[i] = performance.now() - t;
  }
  return summarize(samples);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Throughput with `concurrency` callers issuing `total` calls in all: calls per second. Warmed up
 * first the same way, for at least `warmup` calls and `warmupMs`: a pool that grows while calls wait
 * (the component transport's workers) must have grown before the clock starts.
 */
export async function throughput(
  fn: () => Promise<unknown>,
  options: { total: number; concurrency: number; warmup?: number; warmupMs?: number },
): Promise<number> {
  const run = async (total: number, minMs = 0): Promise<void> => {
    let next = 0;
    const until = performance.now() + minMs;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < total || performance.now() < until) {
          next++;
          await fn();
        }
      }),
    );
  };
  await run(options.warmup ?? Math.min(200, options.total), options.warmupMs ?? 0);
  const started = performance.now();
  await run(options.total);
  return round((options.total * 1000) / (performance.now() - started));
}

/**
 * Time several functions sample by sample in turn (a, b, a, b, ...), so load from elsewhere on a
 * shared machine falls on all of them alike: for a hook and the baseline it is compared with.
 */
export async function measureInterleaved<K extends string>(
  fns: Readonly<Record<K, () => unknown>>,
  options: { n: number; warmup: number },
): Promise<Record<K, Stats>> {
  const keys = Object.keys(fns) as K[];
  const samples = new Map<K, number[]>(keys.map((k) => [k, []]));
  for (let i = 0; i < options.warmup + options.n; i++) {
    for (const key of keys) {
      const t = performance.now();
      const r = fns[key]();
      if (isThenable(r)) await r;
      if (i >= options.warmup) samples.get(key)?.push(performance.now() - t);
    }
  }
  return Object.fromEntries(keys.map((k) => [k, summarize(samples.get(k) ?? [])])) as Record<K, Stats>;
}
