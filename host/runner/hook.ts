import type { HookEvent } from '../contract/event.js';
import type { FailurePolicy } from '../contract/failure.js';
import type { HookMode } from '../contract/mode.js';
import type { CallFilter, ToolPattern } from './matcher.js';
import type { Transport } from './transport.js';

/**
 * One hook in a chain: when it runs (event + tool matcher + optional filter), how it runs (its transport) and what its
 * failure does (`on_failure`, default `deny` — fail closed).
 */
export interface HookDefinition {
  /** Unique within the runner; names the hook in the trail and in failure reasons. */
  readonly name: string;
  readonly event: HookEvent;
  /**
   * Which tools it runs for: exact names, `*` globs or `{ regex }` (see {@link ToolPattern}); absent =
   * every tool. An empty list or a regex-looking string is refused (`invalid_hooks`): it would match
   * nothing, and the hook would silently never run.
   */
  readonly tools?: readonly ToolPattern[] | undefined;
  /**
   * Which requests it runs for beyond event and tools, asked at the hook's turn on the request it would
   * see (see {@link CallFilter}); absent = every request `tools` selects.
   */
  readonly when?: CallFilter | undefined;
  readonly on_failure?: FailurePolicy | undefined;
  /** `enforce` (default) or `shadow`: run and record, never change the outcome (see {@link HookRunner}). */
  readonly mode?: HookMode | undefined;
  readonly transport: Transport;
}
