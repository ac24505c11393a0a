/**
 * A language's toolchain is not installed (or cannot build for WebAssembly): the message says what was
 * missing and the exact command that installs it, e.g.
 * `apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32`.
 */
export class ToolchainMissingError extends Error {
  override readonly name = 'ToolchainMissingError' as const;
  readonly code = 'toolchain_missing' as const;
  /** The language whose toolchain is missing (`c`, `rust`, ...). */
  readonly lang: string;
  /** The packages that provide it (Debian packages, or npm packages for npm-installed tools). */
  readonly packages: readonly string[];
  /** The command that installs them. */
  readonly install: string;

  constructor(lang: string, detail: string, install: { readonly packages: readonly string[]; readonly command: string }, options: { cause?: unknown } = {}) {
    super(`${detail}. Install the ${lang} toolchain with: ${install.command}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.lang = lang;
    this.packages = install.packages;
    this.install = install.command;
  }
}

/** True when `value` is a {@link ToolchainMissingError} (checked by name, so it works across realms). */
export function isToolchainMissingError(value: unknown): value is ToolchainMissingError {
  return value instanceof Error && value.name === 'ToolchainMissingError';
}
