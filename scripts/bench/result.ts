/**
 * The shape of `npm run bench -- --json`: one object per run. A zod schema, so the smoke test (and
 * anyone reading an old results file) checks it rather than trusting it. Every figure is a finite
 * number; `null` means "not measured in this run" and always comes with a note saying why.
 */
import { z } from 'zod';

/** Latency statistics of one case (see stats.ts). */
export const StatsSchema = z.strictObject({
  n: z.number().int().positive(),
  median_us: z.number().nonnegative(),
  p99_us: z.number().nonnegative(),
  calls_per_s: z.number().positive(),
});

/** A hook measured through HookRunner (what users get) and through its transport's `invoke` alone. */
const Levels = z.strictObject({ runner: StatsSchema, transport: StatsSchema });

const Machine = z.strictObject({
  cpu: z.string(),
  cores: z.number().int().positive(),
  node: z.string(),
  platform: z.string(),
  /** 1, 5 and 15 minute load averages when the run started and when it ended. */
  loadavg_start: z.array(z.number()).length(3),
  loadavg_end: z.array(z.number()).length(3),
});

export const ColdSampleSchema = z.strictObject({
  /** From creating the transport to the first call's outcome (load included), ms. */
  first_call_ms: z.number().nonnegative(),
  /** The second call, for scale, µs. */
  second_call_us: z.number().nonnegative(),
  /** Where the load spent its time (ComponentInfo.timings_ms; `compile` includes fuel instrumentation), ms. */
  timings_ms: z.record(z.string(), z.number()),
  cache_hit: z.boolean(),
  /** Whether the fuel-instrumented modules came from the cache (both isolations run them); null if not reported. */
  meter_cache_hit: z.boolean().nullable(),
  /** Importing the host library in the fresh process, ms (not part of first_call_ms). */
  import_ms: z.number().nonnegative(),
});

export const BenchResultSchema = z.strictObject({
  schema: z.literal(1),
  quick: z.boolean(),
  started_at: z.string(),
  duration_s: z.number().nonnegative(),
  machine: Machine,
  availability: z.strictObject({
    /** Whether the host supports `isolation: 'metered'`. */
    metered: z.boolean(),
    /** What the cold-start processes imported: the built library (dist/) or the TypeScript sources through tsx. */
    cold_start_library: z.enum(['dist', 'sources']),
    /** Where the raw-call baseline's instance came from: the host's instantiateUnguarded, or the bench's own jco transpile. */
    unguarded: z.enum(['host', 'bench']),
    notes: z.array(z.string()),
  }),
  baselines: z.strictObject({
    /** postMessage to a worker that echoes, and back. */
    worker_round_trip: StatsSchema,
  }),
  interceptor: Levels,
  components: z.array(
    z.strictObject({
      id: z.string(),
      label: z.string(),
      size_bytes: z.number().int().positive(),
      /** The same guest's `handle` called in-thread through jco's glue, no host. */
      raw: StatsSchema,
      /** Measured interleaved with `raw`, sample by sample. */
      metered: Levels.nullable(),
      /** Measured interleaved with `round_trip`, a bare worker postMessage round trip taken at the same time. */
      worker: Levels.extend({ round_trip: StatsSchema }),
    }),
  ),
  subprocess: z.array(
    z.strictObject({
      id: z.string(),
      command: z.array(z.string()),
      hook: StatsSchema,
      /** A bare spawn of the same argv with piped stdio, writing the same request. */
      bare: StatsSchema,
    }),
  ),
  chain: z.strictObject({
    guest: z.string(),
    length: z.number().int().positive(),
    worker: StatsSchema,
    metered: StatsSchema.nullable(),
  }),
  cold_start: z.array(
    z.strictObject({
      id: z.string(),
      label: z.string(),
      isolation: z.string(),
      /** Fresh process, fresh (empty) cache directory. */
      cold: ColdSampleSchema,
      /** Fresh process, the cache the cold run filled. */
      warm: ColdSampleSchema,
    }),
  ),
  concurrency: z.array(
    z.strictObject({
      case: z.string(),
      callers: z.number().int().positive(),
      calls_per_s: z.number().positive(),
    }),
  ),
  ratios: z.array(
    z.strictObject({
      name: z.string(),
      value: z.number(),
      unit: z.enum(['x', 'us']),
      /** The target from the performance issue, when there is one, e.g. "<= 2". */
      target: z.string().nullable(),
      met: z.boolean().nullable(),
    }),
  ),
});
export type BenchResult = z.infer<typeof BenchResultSchema>;
export type Stats = z.infer<typeof StatsSchema>;
export type ColdSample = z.infer<typeof ColdSampleSchema>;
