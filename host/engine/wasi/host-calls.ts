/**
 * What bounds the work a guest can make the host do in one host call, whatever sizes it controls.
 *
 * The meter checks the clock when an import returns (call-meter.ts); an import that takes long is
 * only noticed after it. So nothing the glue or the sandbox does for a guest may take long: jco's
 * glue lifts every list and string a guest passes *before* the sandbox's import runs (element by
 * element for a list of handles), and the copies between a component's inner memories and the lift of
 * `handle`'s answer are glue too. The host's patch of the glue (glue-patch.ts) sends every such
 * guest-sized length through {@link GlueHost.lift} first, which:
 *
 * - refuses a length past a cap where no well-behaved guest goes ({@link LIFT_LIMITS}: a list of
 *   handles longer than the handles a guest may hold, a write larger than the permit `check-write`
 *   grants, a string argument larger than any path) → {@link HostCallLimit}, the call fails
 *   `memory_limit`; an answer string longer than `max_output_bytes` → {@link AnswerTooLarge};
 * - charges the predicted time of the work against the call's deadline ({@link LIFT_NS}): work that
 *   would end past the deadline stops the guest before it starts (`timeout`).
 *
 * The sandbox's own imports are each bounded by a cap of the same kind (see docs/sandbox-host-calls.md
 * for the table of every import).
 */
import { MAX_INSTANCE_RESOURCES, MAX_LIVE_RESOURCES } from './resources.js';

/** A guest passed a host call more than the sandbox takes in one call. */
export class HostCallLimit extends Error {
  override readonly name = 'HostCallLimit' as const;
  constructor(
    /** The host call (`wasi:io/poll@0.2.12#poll`) or the glue's own work (`copy`, `handles`). */
    readonly site: string,
    readonly length: number,
    readonly limit: number,
    message: string,
  ) {
    super(message);
  }
}

/** `handle`'s answer holds a string (or list) longer than the output cap: not lifted. */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge' as const;
  constructor(readonly bytes: number) {
    super(`the guest's answer holds ${bytes} bytes in one value, over the output cap`);
  }
}

/** Across realms and bundles (the worker's copy of this module): by name. */
export function isHostCallLimit(error: unknown): error is HostCallLimit {
  return error instanceof Error && error.name === 'HostCallLimit';
}

export function isAnswerTooLarge(error: unknown): error is AnswerTooLarge {
  return error instanceof Error && error.name === 'AnswerTooLarge';
}

/** What a guest-sized length in the glue measures (the patch tells which, from the code that uses it). */
export type LiftKind =
  /** A string argument of a host call (UTF-8 bytes, or UTF-16 code units). */
  | 'param-text'
  /** A list of plain numbers (bytes for `list<u8>`) copied at once into a typed array. */
  | 'param-bytes'
  /** A list lifted element by element (handles, records of numbers). */
  | 'param-elements'
  /** A string (or typed list) of `handle`'s answer. */
  | 'answer-text'
  | 'answer-bytes'
  /** A copy between two core memories of the component (a fused adapter's string copy). */
  | 'copy-bytes'
  /** A transcoding between string encodings of the component's inner memories. */
  | 'copy-text';

/**
 * Caps on what one host call lifts (in the unit the glue counts: bytes, UTF-16 code units or elements).
 * `param-elements`: a list of handles cannot name more distinct resources than a guest may hold
 * (resources.ts), and `wasi:io/poll.poll` is the only import of the sandbox that takes a list of
 * anything but bytes. `param-bytes`: `check-write` grants 1 MiB, and WASI traps a write past its
 * permit. `param-text`: the only string arguments are paths (at most 4,096 bytes on Linux; longer
 * ones answer `name-too-long`), so 64 KiB is generous and decodes in well under a millisecond.
 */
export const LIFT_LIMITS = {
  'param-elements': MAX_LIVE_RESOURCES,
  'param-bytes': 1024 * 1024,
  'param-text': 64 * 1024,
} as const;

/**
 * Most entries one of jco's handle tables may hold (live and free). A guest holds at most
 * {@link MAX_LIVE_RESOURCES} of the sandbox's resources at once, plus the instance's own; a table
 * bigger than this only grows from handles the component makes for itself (`resource.new` between its
 * inner components), which would otherwise fill the host's JavaScript heap, outside `memory_mb`.
 */
export const MAX_HANDLE_ENTRIES = 4 * (MAX_LIVE_RESOURCES + MAX_INSTANCE_RESOURCES);

/**
 * Predicted cost of the glue's work per unit, in ns: the worst measured on the development machine
 * (Node 20, 2 shared cores; 1 MiB–64 MiB, scripts/bench/lift-cost.ts) with room for a loaded machine.
 * Fatal UTF-8 decoding: ~1 ns per ASCII byte, ~7 per byte of multi-byte text; copying a list out of
 * guest memory (`buffer.slice`): ~0.7–0.8; a copy between memories: 0.03–0.14; one handle of a
 * list of borrows (table lookup, a borrow recorded, the glue's bookkeeping): ~70–500.
 */
export const LIFT_NS: Readonly<Record<LiftKind, number>> = {
  'param-text': 8,
  'param-bytes': 1,
  'param-elements': 500,
  'answer-text': 8,
  'answer-bytes': 1,
  'copy-bytes': 0.25,
  'copy-text': 8,
};

/**
 * Work predicted to take less than this is not charged (no clock read): at most a few such lifts run
 * between two of the meter's own checks, so they add at most a few times this to a call.
 */
export const UNCHARGED_LIFT_NS = 250_000;

/** What the patched glue calls (the imports' key {@link GLUE_HOST_KEY}). */
export interface GlueHost {
  /**
   * Every guest-sized length the glue is about to lift or copy, before it does: returns it unchanged,
   * or throws ({@link HostCallLimit}, {@link AnswerTooLarge}, or the meter's stop at the deadline).
   * `unit` is the size of one counted item in bytes (a `list<u32>` counts 4 per element).
   */
  lift(length: number, kind: LiftKind, unit: number, site: string): number;
  /** The component instance's handle tables (jco's `HANDLE_TABLES`), handed over as the glue makes them. */
  handleTables(tables: unknown[], freeFlag: number): void;
  /** A handle table reached {@link MAX_HANDLE_ENTRIES}: refuse another handle. */
  tooManyHandles(entries: number): never;
}

/** The key under which the sandbox's imports carry the {@link GlueHost} (not importable by a guest: not in the allowlist). */
export const GLUE_HOST_KEY = 'basis:hooks/glue';

/** How the glue host charges time: throws when `ns` more of work would end past the call's deadline. */
export type ChargeHostWork = (ns: number) => void;

/** How a {@link GlueHost} is made for one instance. */
export interface GlueHostOptions {
  /** Charge predicted work against the deadline (none: only the caps apply). */
  readonly charge?: ChargeHostWork | undefined;
  /** The output cap: an answer value longer than this is not lifted. */
  readonly maxAnswerBytes?: number | undefined;
  /** Receives the instance's handle tables (for state resets). */
  readonly onHandleTables?: ((tables: unknown[], freeFlag: number) => void) | undefined;
}

function refuse(site: string, length: number, limit: number, what: string): never {
  throw new HostCallLimit(site, length, limit, `the guest passed ${site} ${length} ${what} at once (at most ${limit})`);
}

/** The glue host of one instance. */
export function createGlueHost(options: GlueHostOptions = {}): GlueHost {
  const { charge, maxAnswerBytes = Number.POSITIVE_INFINITY, onHandleTables } = options;
  return {
    lift(length, kind, unit, site) {
      // The glue's lengths are i32 values as JavaScript sees them: a negative one is the guest's 2^31 and up.
      const n = length >>> 0;
      switch (kind) {
        case 'param-elements':
          if (n > LIFT_LIMITS['param-elements']) refuse(site, n, LIFT_LIMITS['param-elements'], 'list elements');
          break;
        case 'param-bytes':
          if (n * unit > LIFT_LIMITS['param-bytes']) refuse(site, n * unit, LIFT_LIMITS['param-bytes'], 'bytes');
          break;
        case 'param-text':
          if (n * unit > LIFT_LIMITS['param-text']) refuse(site, n * unit, LIFT_LIMITS['param-text'], 'bytes of text');
          break;
        case 'answer-text':
        case 'answer-bytes':
          if (n * unit > maxAnswerBytes) throw new AnswerTooLarge(n * unit);
          break;
        case 'copy-bytes':
        case 'copy-text':
          break;
      }
      // Elements are counted as such; everything else by its bytes.
      const ns = (kind === 'param-elements' ? n : n * unit) * LIFT_NS[kind];
      if (ns > UNCHARGED_LIFT_NS) charge?.(ns);
      return length;
    },
    handleTables(tables, freeFlag) {
      onHandleTables?.(tables, freeFlag);
    },
    tooManyHandles(entries) {
      throw new HostCallLimit('handles', entries, MAX_HANDLE_ENTRIES, `the component holds ${entries} handles in one table (at most ${MAX_HANDLE_ENTRIES})`);
    },
  };
}
