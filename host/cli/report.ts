import { isBasisHooksError } from '../errors/basis-hooks-error.js';

/**
 * The stderr text for an error a command expected (bad config, a hook that cannot load): its code
 * and message, which already name the file or the hook. Anything else is a bug and is rethrown.
 */
export function describeError(error: unknown): string {
  if (!isBasisHooksError(error)) throw error;
  // A ConfigError's message starts with the file and lists every issue on its own line.
  return error.name === 'ConfigError' ? `basis-hooks: ${error.message}\n` : `basis-hooks: ${error.code}: ${error.message}\n`;
}
