/**
 * The hook's binding to the engine: how `basis:hook/handler@1.x.handle` is called — through jco's glue
 * or directly through the canonical ABI (direct-binding.ts), with the same outcome either way — and
 * what a tenant is (the scope a state reset separates). Made from plain data so a worker makes the
 * same one (worker-entry.ts).
 */
import * as z from 'zod';
import { WitDecision, witDecisionSize, type WitHookRequest } from '../../codec/wit.js';
import { AbiViolation, type AbiSession } from '../../engine/instance/abi.js';
import { componentErrorPayload, type Binding } from '../../engine/instance/binding.js';
import { lowerRequest, liftResult } from './direct-binding.js';
import { fastWitDecision } from './codec.js';
import { GLUE_LIFTING_ACCESSES, GLUE_LOWERING_ACCESSES, REQUEST } from './layout.js';
import { asWitRequest } from './wit-types.js';

/** What one call of `handle` returned: a decision, the guest's `err`, or an answer over the output cap (not decoded). */
export type HookResult =
  | { readonly tag: 'ok'; readonly decision: WitDecision }
  | { readonly tag: 'err'; readonly message: string }
  | { readonly tag: 'too-large'; readonly bytes: number };

/** What a binding is made from (a worker's init message carries it). */
export const BindingData = z.strictObject({
  /** The handler export's key in the glue's exports, e.g. `basis:hook/handler@1.0.0`. */
  handler: z.string(),
  /** Answers larger than this are refused before they are decoded. */
  maxOutputBytes: z.number().int().positive(),
});
export type BindingData = z.infer<typeof BindingData>;

/** `handle`'s layout, as the planner must find it in the glue (layout.ts). */
const PLAN = {
  recordSize: REQUEST.size,
  strings: 6,
  liftedStrings: 6,
  loweringAccesses: GLUE_LOWERING_ACCESSES,
  liftingAccesses: GLUE_LIFTING_ACCESSES,
} as const;

/** The binding of `handle` for one component. */
export function hookBinding(data: BindingData): Binding<WitHookRequest, HookResult> {
  const { handler, maxOutputBytes } = data;
  // The last scope's key, kept while calls come from the same tenant (no string made per call).
  let workspace: string | undefined;
  let agentId: string | undefined;
  let scope = '';
  const lift = (session: AbiSession, ret: number): HookResult => liftResult(session, ret, maxOutputBytes);
  return {
    exportKey: handler,
    fn: 'handle',
    plan: PLAN,
    glueCall(fn, request) {
      let answer: unknown;
      try {
        answer = fn(asWitRequest(request));
      } catch (error) {
        const err = componentErrorPayload(error);
        if (err === undefined) throw error;
        return { tag: 'err', message: typeof err.payload === 'string' ? err.payload : (JSON.stringify(err.payload) ?? String(err.payload)) };
      }
      const decision = fastWitDecision(answer) ?? WitDecision.safeParse(answer).data;
      if (decision === undefined) throw new AbiViolation('discriminant', 'the glue returned something that is not a decision');
      // Refused here, so an oversized answer never crosses into the host (the direct call refuses it before decoding).
      const bytes = witDecisionSize(decision);
      return bytes > maxOutputBytes ? { tag: 'too-large', bytes } : { tag: 'ok', decision };
    },
    directCall(abi, request, charge) {
      return abi.call(request, lowerRequest, lift, charge);
    },
    // A tenant is the request's workspace and agent together (the one place that says so).
    scopeOf(request) {
      if (request.workspace !== workspace || request.agentId !== agentId) {
        workspace = request.workspace;
        agentId = request.agentId;
        scope = `${workspace.length}:${workspace}${agentId}`;
      }
      return scope;
    },
  };
}
