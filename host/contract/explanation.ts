import * as z from 'zod';

/**
 * One piece of a policy hook's reasoning on one call, for `basis-hooks explain`: a Cedar policy that
 * determined the decision or failed to evaluate, or a CEL rule and what its `when` came to.
 */
export const ExplanationItem = z.strictObject({
  /** A Cedar policy's id (`@id`, or `policy<N>` in file order), or a CEL rule's path (`cel[1]`). */
  id: z.string(),
  /**
   * - `determining`: a Cedar policy whose effect is the decision (a `forbid` that denied, a `permit` that allowed);
   * - `matched`: the CEL rule whose `when` was true first (it decided);
   * - `not_matched`: a CEL rule before it whose `when` was false;
   * - `error`: a Cedar policy or CEL rule that failed to evaluate on this call.
   */
  status: z.enum(['determining', 'matched', 'not_matched', 'error']),
  /** The policy's effect (`permit`/`forbid`) or the rule's decision (`allow`/`deny`). */
  effect: z.string().optional(),
  /** The `@reason` annotation or the rule's `reason`. */
  reason: z.string().optional(),
  /** Where it is written: `policies/tools.cedar:12:1`, `cel[1].when`. */
  where: z.string().optional(),
  /** The rule's expression (CEL), for reading. */
  source: z.string().optional(),
  /** What went wrong (status `error`). */
  message: z.string().optional(),
});
export type ExplanationItem = z.infer<typeof ExplanationItem>;

/** Why a policy hook decided what it did on one call. */
export const Explanation = z.strictObject({
  engine: z.enum(['cedar', 'cel']),
  /** One line: `denied by forbid policy "no-force-push" (tools.cedar:3:1)`, `no rule matched: allow`. */
  summary: z.string(),
  items: z.array(ExplanationItem),
});
export type Explanation = z.infer<typeof Explanation>;
