import { createRequire } from 'node:module';
import { BasisHooksError } from './basis-hooks-error.js';

/**
 * The npm packages basis-hooks loads only for one feature, declared as optional peer dependencies so
 * that `npm install basis-hooks` does not install them for everyone: jco's transpiler (with binaryen,
 * ~110 MB) for component hooks, the MCP SDK (~20 MB with its dependencies) for the MCP gateway, the
 * Cedar engine (~13 MB: its WebAssembly build three times over, for ESM, Node and the web) for Cedar hooks. The
 * ranges are package.json's `peerDependencies` (a test keeps them equal).
 */
export const OPTIONAL_PACKAGES = {
  '@bytecodealliance/jco-transpile': { range: '^0.15.0', feature: 'WebAssembly component hooks (to load, inspect and build them)' },
  '@modelcontextprotocol/sdk': { range: '^1.32.2', feature: 'the MCP gateway (basis-hooks mcp, and basis-hooks/mcp)' },
  jose: { range: '^6.2.19', feature: "checking clients' bearer tokens in the MCP gateway (--jwks)" },
  '@cedar-policy/cedar-wasm': { range: '^4.13.0', feature: 'Cedar policy hooks (the official Cedar engine)' },
} as const satisfies Record<string, { readonly range: string; readonly feature: string }>;

/** One of {@link OPTIONAL_PACKAGES}. */
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** The command that installs an optional package at a version basis-hooks supports. */
export function installCommand(name: OptionalPackage): string {
  return `npm install ${name}@${OPTIONAL_PACKAGES[name].range}`;
}

/**
 * A feature needs an optional package that is not installed where basis-hooks is. The message names
 * the feature, the package and the exact command that installs it, e.g.
 * `npm install @bytecodealliance/jco-transpile@^0.15.0`.
 */
export class PackageMissingError extends BasisHooksError {
  override readonly name = 'PackageMissingError' as const;
  readonly code = 'package_missing' as const;
  /** The npm package that is missing. */
  readonly package: OptionalPackage;
  /** The command that installs it. */
  readonly install: string;

  constructor(name: OptionalPackage, options: { cause?: unknown } = {}) {
    const install = installCommand(name);
    super(`the npm package ${name} is not installed; basis-hooks needs it for ${OPTIONAL_PACKAGES[name].feature}. Install it with: ${install}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.package = name;
    this.install = install;
  }
}

/** True when `value` is a {@link PackageMissingError} (by name, so it works across realms). */
export function isPackageMissingError(value: unknown): value is PackageMissingError {
  return value instanceof Error && value.name === 'PackageMissingError' && (value as PackageMissingError).code === 'package_missing';
}

/**
 * Whether `error` says that the package `name` itself cannot be found — Node's `ERR_MODULE_NOT_FOUND`
 * ("Cannot find package 'name' imported from ...") for `import`, `MODULE_NOT_FOUND` ("Cannot find
 * module 'name...'") for `require.resolve`. A module missing *inside* an installed package, or another
 * package missing, is a different problem and is not taken for this one.
 */
export function isPackageNotFound(error: unknown, name: OptionalPackage): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_MODULE_NOT_FOUND') return error.message.includes(`Cannot find package '${name}'`);
  if (code === 'MODULE_NOT_FOUND') return error.message.startsWith(`Cannot find module '${name}'`) || error.message.startsWith(`Cannot find module '${name}/`);
  return false;
}

/**
 * Run `load` (a dynamic `import()` of an optional package, or of a module that imports one), turning
 * "the package is not installed" into a {@link PackageMissingError} naming the install command. Any
 * other failure is passed on unchanged. The specifier stays a literal at the call site, so TypeScript
 * types the result and bundlers see it.
 *
 * @example
 * const jco = await importOptional('@bytecodealliance/jco-transpile', () => import('@bytecodealliance/jco-transpile'));
 */
export async function importOptional<T>(name: OptionalPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isPackageNotFound(error, name) ? new PackageMissingError(name, { cause: error }) : error;
  }
}

/**
 * Where `specifier` (the package `name`, or one of its exported subpaths) resolves from basis-hooks —
 * where its `import()` would look — without loading it: for checking up front, before work that would
 * need the package at its end. Throws a {@link PackageMissingError} when the package is not installed.
 */
export function resolveOptional(name: OptionalPackage, specifier: string = name): string {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch (error) {
    throw isPackageNotFound(error, name) ? new PackageMissingError(name, { cause: error }) : error;
  }
}
