import { BasisHooksError } from './basis-hooks-error.js';

/**
 * A transport was given options no hook could run with (`timeout_ms: 0`, a negative cap, an empty
 * command): refused at construction, before anything is spawned or loaded. Distinct from a hook's
 * failure codes (`spawn_failed`, `load_failed`), which say a hook *could not run*: this says the
 * caller asked for something that cannot be. A config file's options are checked by its schema
 * first, so a config yields a `ConfigError` naming the JSON path instead.
 */
export class OptionsError extends BasisHooksError {
  override readonly name = 'OptionsError' as const;
  readonly code = 'invalid_options' as const;
  /** The option at fault (`timeout_ms`, `command`), when one is. */
  readonly option: string | undefined;

  constructor(message: string, options: { option?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.option = options.option;
  }
}

/** True when `value` is an {@link OptionsError} (by name, so it works across realms). */
export function isOptionsError(value: unknown): value is OptionsError {
  return value instanceof Error && value.name === 'OptionsError' && (value as OptionsError).code === 'invalid_options';
}
