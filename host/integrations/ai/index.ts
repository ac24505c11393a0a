/**
 * `basis-hooks/ai`: put every tool call of the AI SDK (`ai`) through a {@link HookRunner}.
 * `ai` is an optional peer dependency; the core package never imports it.
 *
 * @packageDocumentation
 */
export { withHooks, type WithHooksOptions } from './with-hooks.js';
export { ToolCallBlockedError, isToolCallBlockedError, ToolCallNotJsonError, type ToolCallBlockedCode } from '../shared/errors.js';
export type { HookScope } from '../shared/guard.js';
