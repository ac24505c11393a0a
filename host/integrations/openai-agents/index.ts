/**
 * `basis-hooks/openai-agents`: put every function-tool call of the OpenAI Agents SDK
 * (`@openai/agents`) through a {@link HookRunner}. `@openai/agents` is an optional peer dependency;
 * the core package never imports it.
 *
 * @packageDocumentation
 */
export { withHooks, hookTool, type WithHooksOptions } from './with-hooks.js';
export { ToolCallBlockedError, isToolCallBlockedError, ToolCallNotJsonError, type ToolCallBlockedCode } from '../shared/errors.js';
export type { HookScope } from '../shared/guard.js';
