import { isBasisHooksError } from '../errors/basis-hooks-error.js';
import { isKitError, isToolchainMissingError } from '../kit/errors/index.js';
import { EXIT_FAILED, EXIT_USAGE } from './command.js';

/** The hook's own code did not build or its component does not load (as opposed to a usage problem). */
export { EXIT_FAILED };

/**
 * The stderr text and exit code for an error a kit command expected: a missing toolchain (2, with
 * the install command), a manifest or cases file that is wrong (2), a hook that does not compile or a
 * component that does not load (1), a config or load error of the library (2). Anything else is a bug
 * and is rethrown.
 */
export function reportKitError(command: string, error: unknown): { readonly text: string; readonly code: number } {
  if (isToolchainMissingError(error)) return { text: `basis-hooks ${command}: ${error.code}: ${error.message}\n`, code: EXIT_USAGE };
  if (isKitError(error)) {
    const code = error.code === 'build_failed' || error.code === 'verify_failed' ? EXIT_FAILED : EXIT_USAGE;
    return { text: `basis-hooks ${command}: ${error.code}: ${error.message}\n`, code };
  }
  if (isBasisHooksError(error)) {
    const text = error.name === 'ConfigError' ? error.message : `${error.code}: ${error.message}`;
    return { text: `basis-hooks ${command}: ${text}\n`, code: EXIT_USAGE };
  }
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (errno === 'ENOENT' || errno === 'EISDIR' || errno === 'EACCES') {
    return { text: `basis-hooks ${command}: ${(error as Error).message}\n`, code: EXIT_USAGE };
  }
  throw error;
}
