/**
 * How an instance's export is called — the one thing the engine needs from whoever embeds it (the hook
 * adapter binds `handle`). A binding has two ways to make the same call, which must agree:
 *
 * - through jco's glue ({@link Binding.glueCall}): any component, jco lifting and lowering;
 * - directly through the canonical ABI ({@link Binding.directCall}, over an {@link AbiSession}): only
 *   for components whose glue the planner found shaped as the binding expects ({@link DirectPlanSpec}),
 *   without jco's per-call work.
 *
 * The engine calls one or the other, classifies whatever is thrown (a trap, the meter's stop, an
 * {@link AbiViolation}, a {@link ResultTooLarge}) into an outcome, and never looks inside `A` or `R`.
 * A binding is made from plain data ({@link BindingFactory}) so that a worker can make the same one.
 */
import type { ChargeHostWork } from '../wasi/host-calls.js';
import type { AbiSession } from './abi.js';

export interface Binding<A, R> {
  /** The export's key in jco's glue exports (`basis:hook/handler@1.0.0`) and its function (`handle`). */
  readonly exportKey: string;
  readonly fn: string;
  /**
   * Call through jco's glue: `fn` is the glue's function. jco's `err(...)` arrives as a
   * `ComponentError` (see {@link componentErrorPayload}); a binding turns it into its own `R`.
   * Throws what the guest throws, {@link ResultTooLarge}, or an {@link AbiViolation} when the glue
   * hands back something that is not of the export's type.
   */
  glueCall(fn: (arg: unknown) => unknown, args: A): R;
  /** Call directly: lower `args` and lift the result through `abi` (see {@link AbiSession.call}). */
  directCall(abi: AbiSession, args: A, charge: ChargeHostWork): R;
  /**
   * The scope of a call, for state resets (see the instance's state policy): calls in different scopes
   * see nothing of each other's state. Compared with `===`.
   */
  scopeOf(args: A): string;
  /** What the planner must find in the glue before `directCall` may be used. */
  readonly plan: DirectPlanSpec;
}

/** Makes a {@link Binding} from plain data (what a worker is sent). */
export type BindingFactory<A, R> = (data: unknown) => Binding<A, R>;

/**
 * How the glue must lower and lift the export for a direct call to be the same call: the export takes
 * one pointer to a record of `recordSize` bytes (align 4) holding `strings` UTF-8 strings, and returns
 * one pointer to a result that the glue reads with `liftedStrings` UTF-8 decodes; the glue's memory
 * accesses against the record (`ptr0 + n`) and the result (`ret + n`), as `<method>@<offset>`.
 */
export interface DirectPlanSpec {
  readonly recordSize: number;
  readonly strings: number;
  readonly liftedStrings: number;
  readonly loweringAccesses: readonly string[];
  readonly liftingAccesses: readonly string[];
}

/** jco's `ComponentError` (what `err(...)` becomes) carries its value as an own `payload`. */
export function componentErrorPayload(error: unknown): { payload: unknown } | undefined {
  if (error instanceof Error && Object.prototype.hasOwnProperty.call(error, 'payload')) {
    return { payload: (error as unknown as { payload: unknown }).payload };
  }
  return undefined;
}
