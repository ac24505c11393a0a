import { BasisHooksError } from './basis-hooks-error.js';

/** One problem in a config file: where (a JSON path like `hooks[0].event`) and what. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * A config file could not be read (`config_unreadable`) or is not valid (`config_invalid`). The
 * message names the file, and every issue names the JSON path and the problem.
 */
export class ConfigError extends BasisHooksError {
  override readonly name = 'ConfigError' as const;
  readonly code: 'config_unreadable' | 'config_invalid';
  readonly file: string;
  readonly issues: readonly ConfigIssue[];

  constructor(
    code: 'config_unreadable' | 'config_invalid',
    file: string,
    issues: readonly ConfigIssue[],
    options: { cause?: unknown } = {},
  ) {
    const lines = issues.map((i) => (i.path === '' ? `  ${i.message}` : `  ${i.path}: ${i.message}`));
    super(`${file}: ${code === 'config_unreadable' ? 'cannot read config' : 'invalid config'}\n${lines.join('\n')}`,
      options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.file = file;
    this.issues = issues;
  }
}
