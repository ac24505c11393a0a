/**
 * What the meter charges, in units, and why. A unit is an abstract amount of work: a plain
 * instruction costs 1. The wall-clock deadline, not the units, bounds a call: the units only decide how
 * often the instrumented code asks the host for more ({@link SLICE_UNITS} at a time), and the host
 * compares the clock with the deadline each time. So what matters is that no kind of work runs much
 * longer per unit than any other: every instruction V8 executes slowly is charged what it really
 * costs (measured on the development machine, Node 20 / V8 11.3, 2 shared cores, with
 * scripts/bench/meter-calibration.ts — see docs/sandbox-and-limits.md for the resulting bounds),
 * so that a slice never lasts more than ~8 ms, whatever mix of instructions fills it.
 *
 * Measured per operation (ns), and the charge that keeps it at or under ~16 ns per unit:
 *
 * | operation | cost | charge |
 * |---|---|---|
 * | plain instruction | 0.1–1 | 1 |
 * | memory load that misses every cache (a chain of dependent loads over 60 MiB) | 130–240 | {@link LOAD_UNITS} |
 * | function entry, loop iteration (the check itself, the call or branch back) | 1–30 | {@link CHARGE_POINT_UNITS} |
 * | a call's locals (zeroed on entry): 1000 i64 locals | 108 | 1 per {@link LOCALS_PER_UNIT} |
 * | unwinding a frame during a `throw` (V8's unwinder) | ~350 | {@link EH_ENTRY_UNITS} per call in a module that can throw |
 * | `throw` / `rethrow` | 700–3,500 | {@link THROW_UNITS} |
 * | `call_indirect` | 3 | {@link CALL_INDIRECT_UNITS} |
 * | `table.set` (grows with the instances sharing the table: 60 ns alone, 356 with 10) | 60–360 | {@link TABLE_SET_UNITS} |
 * | `table.fill`/`copy`/`init` per element (same growth: 40–530) | 40–530 | {@link TABLE_ELEMENT_UNITS} |
 * | `memory.fill`/`copy`/`init`, 0 bytes (a runtime call) / per byte, first touch of a page | 106 / ~1.1 | {@link BULK_BASE_UNITS} + bytes >> {@link BULK_BYTES_SHIFT} |
 * | `memory.atomic.notify`, `table.get`, `elem.drop`, `data.drop` | 1–11 | {@link SMALL_RUNTIME_UNITS} |
 *
 * Not charged here: `memory.grow` and `table.grow` (240 ns for `memory.grow 0`, up to 40 µs for one
 * page, and a table grow copies the whole table once per instance sharing it: 285 ns per element) go
 * through the host, which checks the deadline and the component's memory cap on each one (see
 * call-meter.ts), and calls to host imports are timed by the clock itself.
 *
 * Bulk operations are cut into chunks of {@link BULK_CHUNK_BYTES} bytes or {@link BULK_CHUNK_ELEMENTS}
 * elements, each charged before it runs: one `memory.fill` of 64 MiB of fresh pages takes ~70 ms, one
 * `table.copy` of a million elements ~300 ms — a single instruction must not outlast a deadline.
 */

/** Units the host grants at a time (a slice); the deadline is checked each time one runs out. */
export const SLICE_UNITS = 500_000;

/** Units each check (function entry, loop iteration) adds to its segment's count: the check itself, the call or the branch back. */
export const CHARGE_POINT_UNITS = 8;

/**
 * A memory load: it may miss every cache — ~130–240 ns on the development machine for a chain of
 * dependent loads over 60 MiB (8 units per load left such a chain at 29 ns per unit: 15 ms a slice).
 */
export const LOAD_UNITS = 16;

/** A function's entry pays 1 unit per this many locals and parameters (V8 zeroes the locals on every call). */
export const LOCALS_PER_UNIT = 16;

/** Added to every function entry of a module that can throw: an exception unwinds frames at ~350 ns each. */
export const EH_ENTRY_UNITS = 48;

/** `throw`, `rethrow`: creating and dispatching a WebAssembly exception. */
export const THROW_UNITS = 512;

/** `call_indirect`, `return_call_indirect`: the signature check and dispatch. */
export const CALL_INDIRECT_UNITS = 4;

/** `table.set`: V8 updates the dispatch table of every instance sharing the table. */
export const TABLE_SET_UNITS = 32;

/** `table.fill`/`copy`/`init`: per element, for the same reason. */
export const TABLE_ELEMENT_UNITS = 48;

/** `memory.*` and `table.*` bulk operations: per chunk, even an empty one (a runtime call). */
export const BULK_BASE_UNITS = 32;

/** `memory.fill`/`copy`/`init`: 1 unit per 2^this bytes. */
export const BULK_BYTES_SHIFT = 1;

/** Small runtime calls: `table.get`, `table.size`, `elem.drop`, `data.drop`, `memory.atomic.notify`. */
export const SMALL_RUNTIME_UNITS = 4;

/** Largest piece of a memory bulk operation run between two charges. */
export const BULK_CHUNK_BYTES = 1 << 20;

/** Largest piece of a table bulk operation run between two charges. */
export const BULK_CHUNK_ELEMENTS = 4096;

/**
 * Most instances that may share one table (the one defining it and those importing it). V8 keeps a
 * dispatch table per instance, so every `table.set`, `table.fill` or `table.grow` costs once per
 * sharer; real components share a table between 1 or 2 instances.
 */
export const MAX_TABLE_SHARERS = 4;

/**
 * What one table element costs in memory, per instance sharing the table (bytes): the element (8) and
 * V8's dispatch entry for `call_indirect` (signature, target, instance), measured at 29–83 bytes per
 * funcref element with 0–1 importers; `externref` tables have no dispatch entries (~10 bytes).
 */
export const FUNCREF_ELEMENT_BYTES = 64;
export const EXTERNREF_ELEMENT_BYTES = 16;

/**
 * Time a `table.grow` is predicted to take, per element of the grown table and per instance sharing
 * it (V8 copies the table and every dispatch table): measured 130–285 ns alone. A grow predicted to
 * end past the deadline stops the guest instead of starting.
 */
export const TABLE_GROW_NS_PER_ELEMENT = 300;

/** Time a `memory.grow` is predicted to take per new 64 KiB page (2–8 ms for 1023 pages measured). */
export const MEMORY_GROW_NS_PER_PAGE = 10_000;

/** Units a `memory.grow` or `table.grow` costs against an explicit `fuel` (the host call and V8's grow). */
export const GROW_UNITS = 4096;
