import * as z from 'zod';

/**
 * What an instance may spend — data, validated where it crosses into a worker.
 *
 * - `deadlineMs`: wall-clock time a call may take from its start, for everything it triggers: making a
 *   fresh instance when the last one was discarded (start functions included), a state reset, the
 *   guest's own work and its host calls. A call may be given a shorter one (a chain's budget).
 * - `loadDeadlineMs`: the first instantiation's deadline, when the component is loaded (a cold start
 *   compiles lazily).
 * - `fuel`: an optional deterministic cap per call besides the deadline (units: meter/costs.ts).
 * - `memoryBytes`: every linear memory and table of the component together.
 * - `resultBytes`: the most a call's result may hold (its strings, as the binding counts them); larger
 *   is a `limit` of kind `result`, refused before it is decoded.
 */
export const Limits = z.strictObject({
  deadlineMs: z.number().int().positive(),
  loadDeadlineMs: z.number().int().positive(),
  fuel: z.number().int().positive().optional(),
  memoryBytes: z.number().int().positive(),
  resultBytes: z.number().int().positive(),
});
export type Limits = z.infer<typeof Limits>;

/**
 * When an instance's state is put back to what it was just after instantiation:
 * - `per-scope`: before a call whose scope (the binding's {@link Binding.scopeOf}) differs from the
 *   previous call's;
 * - `per-call`: before every call (but the first on a fresh instance);
 * - `shared`: never — one instance keeps what it keeps until it traps.
 */
export const StatePolicy = z.enum(['per-call', 'per-scope', 'shared']);
export type StatePolicy = z.infer<typeof StatePolicy>;
