import { BasisHooksError } from './basis-hooks-error.js';

/**
 * The runner was misused: a call that does not match the contract (`invalid_call`), a hook list that
 * cannot form a chain (`invalid_hooks`), or a call after `close()` (`runner_closed`). Refused loudly,
 * never guessed around.
 */
export class RunnerError extends BasisHooksError {
  override readonly name = 'RunnerError' as const;
  readonly code: 'invalid_call' | 'invalid_hooks' | 'runner_closed';

  constructor(code: 'invalid_call' | 'invalid_hooks' | 'runner_closed', message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
