import type { InFlight } from './in-flight.js';
import type { HopGroup, Segment, SegmentResult, Transport } from './transport.js';

/** What {@link segmentEnd} looks at of a hook in a chain. */
interface ChainHook {
  readonly shadow: boolean;
  readonly definition: { readonly transport: Transport; readonly when?: unknown };
}

/** Whether a hook may be part of a segment: an enforcing hook without a `when` (asked on this thread, at its turn). */
function joins(hook: ChainHook | undefined, group: unknown): boolean {
  return hook !== undefined && !hook.shadow && hook.definition.when === undefined && hook.definition.transport.hop === group;
}

/**
 * Where hooks `from`.. of a chain stop forming one segment for their hop group (runner/transport.ts
 * `HopGroup`): at the first hook that is a shadow, has a `when` (a filter is the caller's, asked at
 * the hook's turn on this thread) or is of another group, or at the end. `allowed` is false for a
 * chain with a budget or a `checkInput` — both the caller's, applied hook by hook on this thread —
 * which runs hook by hook. A segment of one hook is just that hook (`from + 1`).
 */
export function segmentEnd(hooks: readonly ChainHook[], from: number, allowed: boolean): number {
  const group = hooks[from]?.definition.transport.hop;
  if (group === undefined || !allowed || !joins(hooks[from], group)) return from + 1;
  let to = from + 1;
  while (to < hooks.length && joins(hooks[to], group)) to++;
  return to;
}

const FALLBACK: SegmentResult = Object.freeze({ evaluated: [], fallback: true });

/**
 * Hand `segment` to its group, as one of the runner's calls in flight (`closed` answers it when the
 * runner closes first). A group that throws or rejects — it must not — leaves the segment to be run
 * hook by hook, as does one that says it could not run it.
 */
export function handOver(group: HopGroup, segment: Segment, signal: AbortSignal | undefined, inFlight: InFlight<unknown>, closed: () => SegmentResult): Promise<SegmentResult> {
  let running: Promise<SegmentResult>;
  try {
    running = group.runSegment(segment, signal);
  } catch {
    return Promise.resolve(FALLBACK);
  }
  return inFlight.run(running, closed).then(
    (result) => result as SegmentResult,
    (): SegmentResult => FALLBACK,
  );
}
