import * as z from 'zod';
import { JsonValue } from './json.js';

/*
 * Responses are plain (non-strict) objects on purpose: the contract says unknown extra fields are
 * ignored, so a hook written against a later minor shape keeps working. Known fields are typed
 * strictly: a `reason` that is not a string is malformed, not coerced.
 */

/** Let the call (or its result) through unchanged. */
export const AllowResponse = z.object({ decision: z.literal('allow') });
export type AllowResponse = z.infer<typeof AllowResponse>;

/** Refuse: before the call it does not run; after it the model sees `reason` instead of the output. */
export const DenyResponse = z.object({
  decision: z.literal('deny'),
  /** Shown to the model, so it must say something: empty or blank is malformed. */
  reason: z.string().refine((s) => s.trim().length > 0, { message: 'a deny must carry a non-empty reason' }),
});
export type DenyResponse = z.infer<typeof DenyResponse>;

/** Rewrite the input before the call (pre_tool_use only). `reason` goes to the audit trail only. */
export const ModifyResponse = z.object({
  decision: z.literal('modify'),
  input: JsonValue,
  reason: z.string().optional(),
});
export type ModifyResponse = z.infer<typeof ModifyResponse>;

/**
 * Rewrite the result after the call (post_tool_use only). `is_error` absent leaves the tool's claim
 * standing. `reason` goes to the audit trail only.
 */
export const ReplaceResponse = z.object({
  decision: z.literal('replace'),
  output: JsonValue,
  is_error: z.boolean().optional(),
  reason: z.string().optional(),
});
export type ReplaceResponse = z.infer<typeof ReplaceResponse>;

/** What a hook answered: one JSON object, discriminated by `decision`. */
export const HookResponse = z.discriminatedUnion('decision', [
  AllowResponse,
  DenyResponse,
  ModifyResponse,
  ReplaceResponse,
]);
export type HookResponse = z.infer<typeof HookResponse>;

/** Every decision a hook can answer with. */
export const HookDecision = z.enum(['allow', 'deny', 'modify', 'replace']);
export type HookDecision = z.infer<typeof HookDecision>;
