import * as z from 'zod';

/**
 * Whether a hook's decisions take effect: `enforce` (the default) or `shadow` — it runs and its
 * decision is recorded (trail, audit stream) but never changes the outcome, and its failures never
 * deny, so a new policy can be watched on live traffic before it is enforced.
 */
export const HookMode = z.enum(['enforce', 'shadow']);
export type HookMode = z.infer<typeof HookMode>;
