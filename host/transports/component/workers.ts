/**
 * Guest workers shared by several component hooks. Every worker holds an instance of each of their
 * components, so consecutive hooks of a chain that share them run in **one hop**: the runner hands
 * them over together (runner/transport.ts `HopGroup`), one worker runs them one after another with
 * the chain's own rules (segment.ts), and the caller pays one wake-up and one round trip for the lot.
 */
import type { WitHookRequest } from '../../codec/wit.js';
import { WorkerPool } from '../../engine/executor/pool.js';
import type { HopGroup, Segment, SegmentResult, Transport } from '../../runner/transport.js';
import type { HookResult } from './binding.js';
import { hookCodec } from './codec.js';
import { COMPONENT_DEFAULTS } from './options.js';
import { SegmentOutput, fastSegmentOutput, type SegmentInput } from './segment.js';

/** A worker gets this long to start and instantiate its components (large guests are slow to compile). */
export const STARTUP_TIMEOUT_MS = 30_000;

/**
 * How long the caller polls for a hop's reply before it awaits it (µs): about what a warm hook's hop
 * takes here when the worker is awake, so a quick hook is answered within it. Only for a worker found
 * polling, and backed off after polls that caught nothing (the engine's `PollBackoff`): a slow hook
 * costs the caller's thread about one wasted poll in 64 hops (docs/architecture.md has the figures).
 */
export const CALLER_SPIN_US = 50;

/**
 * How long a worker polls for its next job after a reply before it sleeps (µs). A job within the poll
 * finds the worker awake: no wake-up on either side (each ~10–25 µs on a shared VM, the bulk of a
 * hop). It costs the worker's core at most this long after each reply when no job follows (50 µs
 * after each of 10 calls a second: 0.05 % of a core). 0 opts out: the worker sleeps at once.
 */
export const WORKER_SPIN_US = 50;

/** After a worker's job is answered at its deadline, it has this long to come back before it is replaced. */
export const WORKER_GRACE_MS = 250;

/**
 * A worker's JavaScript heap for one component: the glue lifts guest strings into it and a reply is
 * serialised and copied — room for a few copies of a full memory and of the largest answer. V8
 * enforces a worker's heap limit at garbage collection; one allocation larger than what is left ends
 * the whole process (FatalProcessOutOfMemory), so no allocation a guest can cause may come near it.
 */
export function heapMbFor(memoryMb: number, maxOutputBytes: number): number {
  return 128 + 4 * memoryMb + 4 * Math.ceil(maxOutputBytes / (1024 * 1024));
}

/** The adapter's worker entry: the engine's worker runtime with the hook binding (from dist/ the `.js`, from sources the `.ts`). */
export function workerEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./worker-entry.ts', here) : new URL('./worker-entry.js', here);
}

/** Options of {@link componentWorkers}. */
export interface ComponentWorkersOptions {
  /** Most worker threads (each holds every component) for hops that overlap (default 2). */
  readonly workers?: number;
  /**
   * How long a worker keeps polling for its next job after a reply before it sleeps, in µs (default
   * {@link WORKER_SPIN_US}; 0: it sleeps at once). A job that arrives within it skips the thread's
   * wake-up, and the caller then polls for the reply (`caller_spin_us`) instead of awaiting it; the
   * poll costs a core meanwhile (see docs/architecture.md for what it buys on this kind of machine).
   */
  readonly spin_us?: number;
  /**
   * How long the caller polls for a hop's reply before it awaits it, in µs (default
   * {@link CALLER_SPIN_US}; never past the call's deadline; 0: it awaits at once) — only when the
   * worker was found polling for the job (awake), never for one that must first be woken. A reply
   * within it costs no wake-up of the caller's thread, and a single hook's result comes back without a
   * promise; the poll holds the caller's thread (the host's event loop) meanwhile.
   */
  readonly caller_spin_us?: number;
  /** Stop the workers when the last hook using them closes (what a config's runner does; default false: call `close`). */
  readonly close_when_empty?: boolean;
}

/** What the group knows of one hook that runs in it. */
interface Member {
  readonly slot: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly memoryMb: number;
  readonly heapMb: number;
}

/** Worker threads shared by component hooks (pass as their `workers` option). */
export interface ComponentWorkers extends HopGroup {
  /** The engine's pool (the component transport adds its component to it). */
  readonly pool: WorkerPool<WitHookRequest, HookResult>;
  /** Record a loaded hook of the group (the component transport does). */
  join(transport: Transport, member: Member): void;
  /** Forget a hook (its transport closed). */
  leave(transport: Transport): void;
  /** Stop every worker. Calls still running end as failures. */
  close(): Promise<void>;
}

/**
 * Worker threads to share between component hooks in worker isolation: give the same object as the
 * `workers` option of each, and consecutive hooks of a chain that share it run in one hop. Each
 * worker holds an instance of every component (its heap sized for all of them); a worker stopped at a
 * deadline takes every instance in it along (the next calls make fresh ones).
 *
 * @example
 * const workers = componentWorkers();
 * const a = componentTransport({ path: 'a.wasm', isolation: 'worker', workers });
 * const b = componentTransport({ path: 'b.wasm', isolation: 'worker', workers });
 */
export function componentWorkers(options: ComponentWorkersOptions = {}): ComponentWorkers {
  const members = new Map<Transport, Member>();
  const pool = new WorkerPool<WitHookRequest, HookResult>({
    entry: workerEntry(),
    codec: hookCodec,
    maxWorkers: options.workers ?? COMPONENT_DEFAULTS.pool_size,
    graceMs: WORKER_GRACE_MS,
    startupTimeoutMs: STARTUP_TIMEOUT_MS,
    // Every component's room, for a worker started now.
    heapMb: () => Math.max(heapMbFor(COMPONENT_DEFAULTS.memory_mb, COMPONENT_DEFAULTS.max_output_bytes), [...members.values()].reduce((n, m) => n + m.heapMb, 0)),
    spinUs: options.spin_us ?? WORKER_SPIN_US,
    callerSpinUs: options.caller_spin_us ?? CALLER_SPIN_US,
    closeWhenEmpty: options.close_when_empty === true,
  });

  async function runSegment(segment: Segment, signal: AbortSignal | undefined): Promise<SegmentResult> {
    const hooks: SegmentInput['hooks'] = [];
    let deadlineMs = WORKER_GRACE_MS;
    for (const hook of segment.hooks) {
      const member = members.get(hook.transport);
      // A hook not loaded yet (or closed): hook by hook, which loads it.
      if (member === undefined) return { evaluated: [], fallback: true };
      hooks.push({ slot: member.slot, name: hook.name, policy: hook.policy, timeoutMs: member.timeoutMs, maxOutputBytes: member.maxOutputBytes, memoryMb: member.memoryMb });
      deadlineMs += member.timeoutMs;
    }
    const { call, state } = segment;
    const input: SegmentInput = { call: { workspace: call.workspace, agent_id: call.agent_id, tool_call_id: call.tool_call_id, tool_name: call.tool_name }, state, hooks };
    const ran = await pool.program(input, deadlineMs, signal);
    // Each hook is stopped by its own meter: a segment outliving all their deadlines, a worker that
    // died, or a call given up lost what the hooks did — the runner runs them hook by hook instead.
    if (!ran.ok) return { evaluated: [], fallback: true };
    const output = fastSegmentOutput(ran.output) ?? SegmentOutput.safeParse(ran.output).data;
    if (output === undefined) return { evaluated: [], fallback: true };
    return { evaluated: output.evaluated.map(({ entry, step }) => ({ entry, step: step.kind === 'deny' ? step : { kind: 'continue', response: step.response } })) };
  }

  return {
    pool,
    runSegment,
    join(transport, member) {
      members.set(transport, member);
    },
    leave(transport) {
      members.delete(transport);
    },
    close: () => pool.close(),
  };
}
