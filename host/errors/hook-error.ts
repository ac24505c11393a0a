import type { FailureCode, HookFailure } from '../contract/failure.js';
import { BasisHooksError } from './basis-hooks-error.js';

/**
 * A hook failed, with a typed cause. Transports return failures as data during a call; this class is
 * what is *thrown* where a failure cannot be data — chiefly `load_failed` when a component cannot be
 * loaded before any call runs.
 */
export class HookError extends BasisHooksError {
  override readonly name = 'HookError' as const;
  readonly code: FailureCode;
  /** The hook's configured name, when known. */
  readonly hook: string | undefined;

  constructor(code: FailureCode, message: string, options: { hook?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hook = options.hook;
  }

  /** The failure as data, for the trail. */
  toFailure(): HookFailure {
    return { code: this.code, message: this.message };
  }
}

/** True when `value` is a {@link HookError} (by name, so it works across realms). */
export function isHookError(value: unknown): value is HookError {
  return value instanceof Error && value.name === 'HookError' && typeof (value as HookError).code === 'string';
}
