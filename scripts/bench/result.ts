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

const Nullable = StatsSchema.nullable();

/** A building block measured against the path it replaces, interleaved (scripts/bench/micro/). */
export const BlockSchema = z.strictObject({
  block: z.string(),
  case: z.string(),
  /** What it replaced, or the fallback it keeps (jco's glue, postMessage). */
  before: StatsSchema,
  /** The building block. */
  after: StatsSchema,
});

/** The policy hooks, Cedar and CEL (scripts/bench/policies.ts); absent from results of runs before they existed. */
export const PoliciesSchema = z.strictObject({
  engines: z.strictObject({ cedar: z.string(), cel: z.string(), cel_js: z.string() }),
  /** A Cedar set of `policies` policies; interleaved: ours through HookRunner.pre and the package's own statefulIsAuthorized on the same, prebuilt request; then the decision cache on a repeated request and the JSON floor. */
  cedar: z.strictObject({ policies: z.number().int().positive(), runner: StatsSchema, package: StatsSchema, cache_repeat: StatsSchema, cache_floor: StatsSchema }),
  /**
   * A CEL hook of `rules` rules none of which matches (all are asked): through HookRunner.pre beside the
   * JSON floor; the library alone on the same rules beside the floor; and the two CEL packages on 20
   * rules both can run (cel-js 0.8.2 has no string methods), beside each other.
   */
  cel: z.strictObject({
    rules: z.number().int().positive(),
    runner: StatsSchema,
    /** The JSON floor interleaved with `runner`. */
    floor: StatsSchema,
    library: StatsSchema,
    /** The JSON floor interleaved with `library`. */
    library_floor: StatsSchema,
    comparison: z.strictObject({ marcbachmann: StatsSchema, cel_js: StatsSchema }),
  }),
  /** Load time: cold (a fresh process: the engine imported, the policy loaded, the first call) and warm (a second hook of it loaded and called there), ms. */
  load: z.array(z.strictObject({ kind: z.enum(['cedar', 'cel']), label: z.string(), cold_ms: z.number().nonnegative(), warm_ms: z.number().nonnegative(), import_ms: z.number().nonnegative() })),
});
export type PoliciesResult = z.infer<typeof PoliciesSchema>;

export const BenchResultSchema = z.strictObject({
  schema: z.literal(3),
  quick: z.boolean(),
  started_at: z.string(),
  duration_s: z.number().nonnegative(),
  machine: Machine,
  availability: z.strictObject({
    /** Whether the host supports `isolation: 'metered'`. */
    metered: z.boolean(),
    /** What this run measured: the built library (dist/, what users run) or the TypeScript sources through tsx. */
    library: z.enum(['dist', 'sources']),
    /** What the cold-start processes imported: the built library (dist/) or the TypeScript sources through tsx. */
    cold_start_library: z.enum(['dist', 'sources']),
    notes: z.array(z.string()),
  }),
  baselines: z.strictObject({
    /** JSON.stringify + JSON.parse of the request and of an answer. */
    json_floor: StatsSchema,
    /** postMessage to a worker that echoes and back, one persistent listener each side. */
    post_round_trip: StatsSchema,
    /** SharedArrayBuffer flag flip: worker in Atomics.wait, caller awaiting Atomics.waitAsync. */
    sab_round_trip: StatsSchema,
  }),
  /** The TS guard as an in-process interceptor, interleaved with the JSON floor. */
  interceptor: z.strictObject({ runner: StatsSchema, transport: StatsSchema, floor: StatsSchema }),
  /** The same guard policy in Extism (the peer) beside ours, measured interleaved. */
  peer: z.strictObject({
    guest: z.string(),
    in_thread: z.strictObject({
      floor: StatsSchema,
      /** Extism JS SDK, plugin in this thread: call, parse the answer, reset. */
      extism: StatsSchema,
      /** Ours, metered, through HookRunner.pre. */
      metered: Nullable,
      /** The WAT guard (the Extism plugin's own policy code) as a component, metered, through HookRunner.pre. */
      metered_wat: Nullable,
      interceptor: StatsSchema,
    }),
    worker: z.strictObject({
      floor: StatsSchema,
      /** Extism JS SDK, `runInWorker: true`: call, parse, reset. */
      extism: StatsSchema,
      /** Ours, worker isolation, through HookRunner.pre. */
      worker: StatsSchema,
      post_round_trip: StatsSchema,
      sab_round_trip: StatsSchema,
    }),
  }),
  components: z.array(
    z.strictObject({
      id: z.string(),
      label: z.string(),
      size_bytes: z.number().int().positive(),
      /** Whether the direct canonical-ABI call applies to this guest (host/engine/instance/), and why not. */
      direct: z.strictObject({ callable: z.boolean(), reason: z.string().nullable() }),
      /** Timed interleaved, sample by sample. */
      in_thread: z.strictObject({
        floor: StatsSchema,
        /** `handle` through jco's glue, no host, given a WIT record made once (no toWitRequest in the timing). */
        raw: StatsSchema,
        /** `handle` through the direct canonical-ABI caller, no host, the same record. */
        raw_direct: Nullable,
        metered_transport: Nullable,
        metered_runner: Nullable,
      }),
      /** Timed interleaved with the two bare round trips. */
      worker: z.strictObject({ transport: StatsSchema, runner: StatsSchema, post_round_trip: StatsSchema, sab_round_trip: StatsSchema }),
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
    /** The chain runs `length` instances of one component (as `length` hooks configured with the same .wasm). */
    instances_of_one_component: z.number().int().positive(),
    worker: StatsSchema,
    metered: Nullable,
    /** The JSON floor, interleaved with the metered chain. */
    floor: StatsSchema,
    /**
     * Worker isolation with the hooks sharing their workers (`componentWorkers`): the chain runs in
     * one hop. Timed interleaved with one worker hook alone and the JSON floor; then the same two with
     * workers that poll for `spin_us` after a reply before they sleep, each timed alone (a spinning
     * worker would take a core from the cases beside it). Absent from results of earlier versions.
     */
    one_hop: z
      .strictObject({
        chain: StatsSchema,
        one_hook: StatsSchema,
        floor: StatsSchema,
        spin_us: z.number().int().positive(),
        chain_spin: StatsSchema,
        one_hook_spin: StatsSchema,
        /** The floor timed interleaved with `one_hook_spin` (a call every few µs: the workers stay awake). */
        floor_spin: StatsSchema.optional(),
      })
      .optional(),
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
  /** The building blocks of the hot path, each against what it replaced or the fallback it keeps. */
  blocks: z.array(BlockSchema),
  policies: PoliciesSchema.optional(),
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
export type Block = z.infer<typeof BlockSchema>;
