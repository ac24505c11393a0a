/**
 * Why the authoring kit refused or failed, as a closed set (callers and tests switch on it):
 *
 * | code | meaning |
 * | --- | --- |
 * | `init_refused` | `init` would overwrite a non-empty directory, or was given an unusable name |
 * | `manifest_invalid` | a hook directory's `hook.json` is missing, not JSON or not a valid manifest |
 * | `build_failed` | the hook's source did not compile (the compiler's diagnostics are in the message) |
 * | `verify_failed` | the component was built but does not load in the sandbox |
 * | `cases_invalid` | a cases file is unreadable, empty or has invalid lines (all are listed) |
 * | `target_invalid` | the hook to test cannot be chosen (no such hook in the config, ambiguous cases) |
 * | `package_incomplete` | this installation of basis-hooks lacks a file the kit ships (the glue, the WIT) |
 *
 * A missing toolchain is its own class, {@link ToolchainMissingError}, because it carries what to install.
 */
export type KitErrorCode =
  | 'init_refused'
  | 'manifest_invalid'
  | 'build_failed'
  | 'verify_failed'
  | 'cases_invalid'
  | 'target_invalid'
  | 'package_incomplete';

/**
 * The authoring kit (`init`, `build`, `inspect`, `test`) could not do what it was asked. The message
 * names the file or the step and, where there is one, what to do about it.
 */
export class KitError extends Error {
  override readonly name = 'KitError' as const;
  readonly code: KitErrorCode;

  constructor(code: KitErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** True when `value` is a {@link KitError} (checked by name, so it works across realms). */
export function isKitError(value: unknown): value is KitError {
  return value instanceof Error && value.name === 'KitError' && typeof (value as KitError).code === 'string';
}
