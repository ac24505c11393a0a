import * as z from 'zod';

/**
 * One rule of a CEL hook: when its `when` is true — the first such rule, in order — the hook answers
 * its `decision`. A deny needs a `reason` (the model is told it); an allow's reason goes to the trail.
 *
 * @example
 * { "when": "tool_name == 'shell' && input.command.matches('rm\\\\s+-rf')", "decision": "deny", "reason": "no rm -rf" }
 */
export const CelRule = z
  .strictObject({
    when: z.string().min(1).describe('A CEL expression over the request (tool_name, input, output, is_error, agent_id, workspace, event); a bool.'),
    decision: z.enum(['allow', 'deny']).describe('What the hook answers when this is the first rule whose when is true.'),
    reason: z.string().regex(/\S/, 'a reason must say something (not only spaces)').optional().describe('Why: told to the model on deny (required for deny), kept in the trail on allow.'),
  })
  .refine((rule) => rule.decision !== 'deny' || rule.reason !== undefined, { message: 'a deny rule needs a reason (the model is told it)', path: ['reason'] })
  .meta({ title: 'CEL rule' });
export type CelRule = z.infer<typeof CelRule>;

/** A CEL hook's rules: at least one, tried in order. */
export const CelRules = z.array(CelRule).min(1).describe('Rules tried in order; the first whose when is true decides; no match = allow.');
export type CelRules = z.infer<typeof CelRules>;
