/**
 * What each language's toolchain is called and how to install it — data only, so help texts can show
 * it without loading any toolchain driver.
 */

/** A toolchain's packages and the command that installs them. */
export interface ToolchainInstall {
  readonly packages: readonly string[];
  readonly command: string;
}

/** Debian's C toolchain for wasm32-wasi. */
export const C_TOOLCHAIN: ToolchainInstall = {
  packages: ['clang', 'lld', 'wasi-libc', 'libclang-rt-dev-wasm32'],
  command: 'apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32',
};

/** Debian's rustc with the wasm32 standard libraries. */
export const RUST_TOOLCHAIN: ToolchainInstall = {
  packages: ['rustc', 'libstd-rust-dev-wasm32'],
  command: 'apt-get install -y rustc libstd-rust-dev-wasm32',
};

/** The npm package that compiles AssemblyScript. */
export const ASSEMBLYSCRIPT_TOOLCHAIN: ToolchainInstall = {
  packages: ['assemblyscript'],
  command: 'npm install --save-dev assemblyscript',
};

/** The npm package that type-checks and compiles TypeScript hooks (5.x through 7.x: its `tsc` is run). */
export const TYPESCRIPT_TOOLCHAIN: ToolchainInstall = {
  packages: ['typescript'],
  command: 'npm install --save-dev typescript',
};

/** The npm package of the QuickJS engine for JavaScript and TypeScript hooks (the default engine). */
export const QUICKJS_TOOLCHAIN: ToolchainInstall = {
  packages: ['componentize-qjs'],
  command: 'npm install --save-dev componentize-qjs',
};

/** The npm package of the SpiderMonkey engine for JavaScript and TypeScript hooks. */
export const SPIDERMONKEY_TOOLCHAIN: ToolchainInstall = {
  packages: ['@bytecodealliance/componentize-js'],
  command: 'npm install --save-dev @bytecodealliance/componentize-js',
};

/** Set to use another clang than the `clang` on PATH (e.g. `clang-16`, or a path). */
export const CLANG_ENV = 'BASIS_HOOKS_CLANG';

/**
 * Set to use another rustc than Debian's `/usr/bin/rustc` (one that has the wasm32 targets). The
 * default is a path because rustup's `rustc`, usually first on PATH, has no wasm targets offline.
 */
export const RUSTC_ENV = 'BASIS_HOOKS_RUSTC';
