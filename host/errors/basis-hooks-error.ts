import type { FailureCode } from '../contract/failure.js';

/**
 * Every code a basis-hooks error can carry: a hook failure code, or one of the library's own.
 * Closed on purpose: callers switch on it.
 */
export type ErrorCode =
  | FailureCode
  | 'config_unreadable'
  | 'config_invalid'
  | 'invalid_call'
  | 'invalid_hooks'
  | 'runner_closed'
  | 'invalid_options'
  | 'package_missing'
  | 'policy_invalid';

/**
 * Base of every error basis-hooks throws. Subclasses set a literal `name` so type guards work across
 * realms (a worker's error crosses as plain data), and a `code` from {@link ErrorCode}.
 */
export abstract class BasisHooksError extends Error {
  abstract override readonly name: string;
  abstract readonly code: ErrorCode;
}

/** True when `value` is any basis-hooks error, checked by shape so it works across realms. */
export function isBasisHooksError(value: unknown): value is BasisHooksError {
  return (
    value instanceof Error &&
    typeof (value as { code?: unknown }).code === 'string' &&
    ['HookError', 'ConfigError', 'RunnerError', 'OptionsError', 'PackageMissingError', 'PolicyError'].includes(value.name)
  );
}
