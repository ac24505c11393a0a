import * as z from 'zod';

/** The two points in a tool call's life where hooks run. */
export const HookEvent = z.enum(['pre_tool_use', 'post_tool_use']);
export type HookEvent = z.infer<typeof HookEvent>;

/** Every event, in the order a call passes through them. */
export const HOOK_EVENTS: readonly HookEvent[] = HookEvent.options;
