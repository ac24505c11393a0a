import type { PostToolUseOutcome, PreToolUseDenied } from '../../contract/outcome.js';

/** Why the chain turned a tool call into an error the model sees. Closed: callers switch on it. */
export type ToolCallBlockedCode =
  /** A `pre_tool_use` hook denied the call (or failed closed): the tool did not run. */
  | 'denied'
  /** A `post_tool_use` hook denied the result (or failed closed): the tool ran, its output is withheld. */
  | 'output_denied'
  /** A `post_tool_use` hook replaced the result with one marked `is_error: true`. */
  | 'error_replaced';

/**
 * Thrown (or handed to the framework's error path) when the hook chain refused a tool call or made
 * its result an error. `message` is exactly what the model is shown — the deny reason, or the
 * replaced output as text — so a framework that turns a thrown error into its message shows the
 * model the reason and nothing else. The full outcome, trail included, is on `outcome`.
 *
 * @example
 * const errors = steps.flatMap((s) => s.content).filter((p) => p.type === 'tool-error');
 * for (const e of errors) if (isToolCallBlockedError(e.error)) console.log(e.error.outcome.trail);
 */
export class ToolCallBlockedError extends Error {
  override readonly name = 'ToolCallBlockedError' as const;
  readonly code: ToolCallBlockedCode;
  readonly toolName: string;
  readonly toolCallId: string;
  /** The chain's verdict, trail included. */
  readonly outcome: PreToolUseDenied | PostToolUseOutcome;

  constructor(
    code: ToolCallBlockedCode,
    message: string,
    details: { toolName: string; toolCallId: string; outcome: PreToolUseDenied | PostToolUseOutcome; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.toolName = details.toolName;
    this.toolCallId = details.toolCallId;
    this.outcome = details.outcome;
  }
}

/** True when `value` is a {@link ToolCallBlockedError} (checked by name, so it works across realms). */
export function isToolCallBlockedError(value: unknown): value is ToolCallBlockedError {
  return value instanceof Error && value.name === 'ToolCallBlockedError' && typeof (value as { code?: unknown }).code === 'string';
}

/**
 * A tool's input or output cannot be shown to the hooks because it is not JSON (a `BigInt`, a cycle).
 * The call fails closed: what hooks cannot inspect does not reach the tool, or the model.
 */
export class ToolCallNotJsonError extends Error {
  override readonly name = 'ToolCallNotJsonError' as const;
  readonly code: 'input_not_json' | 'output_not_json';
  readonly toolName: string;

  constructor(code: 'input_not_json' | 'output_not_json', toolName: string, options: { cause?: unknown } = {}) {
    const what = code === 'input_not_json' ? 'input' : 'output';
    const detail = options.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`the ${what} of tool "${toolName}" is not JSON${detail}; hooks cannot inspect it, so it is withheld`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.toolName = toolName;
  }
}
