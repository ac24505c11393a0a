import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBasisHooksError } from '../../host/errors/basis-hooks-error.js';
import {
  importOptional,
  installCommand,
  isPackageMissingError,
  isPackageNotFound,
  OPTIONAL_PACKAGES,
  PackageMissingError,
  resolveOptional,
  type OptionalPackage,
} from '../../host/errors/package-missing-error.js';

/*
 * The optional peer dependencies (jco-transpile for component hooks, the MCP SDK for the gateway): the
 * table the errors quote agrees with package.json, and only "this package is not installed" becomes a
 * PackageMissingError — found by Node's own module resolution from a directory where they are not
 * installed. (The installed package without them: test/cli/install.test.ts.)
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const NAMES = Object.keys(OPTIONAL_PACKAGES) as OptionalPackage[];

let outside: string;
beforeAll(async () => {
  // Under the system temp directory no node_modules/ is on the resolution path.
  outside = await mkdtemp(path.join(tmpdir(), 'basis-optional-'));
});
afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});

const run = promisify(execFile);

interface Attempt {
  readonly ok: boolean;
  readonly name?: string;
  readonly code?: string;
  readonly package?: string;
  readonly install?: string;
  readonly causeCode?: string;
}

/**
 * Node itself (not vitest's module runner, which resolves imports its own way) running `importOptional`
 * from the built library on `import(specifier)`, in a module written under `dir`: a directory outside
 * the repository sees no package installed, the repository sees its node_modules.
 */
async function attempt(name: OptionalPackage, specifier: string, dir: string): Promise<Attempt> {
  const file = path.join(dir, `attempt-${Math.random().toString(36).slice(2)}.mjs`);
  const library = pathToFileURL(path.join(ROOT, 'dist/errors/package-missing-error.js')).href;
  await writeFile(
    file,
    `import { importOptional } from ${JSON.stringify(library)};
try {
  await importOptional(${JSON.stringify(name)}, () => import(${JSON.stringify(specifier)}));
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.name, code: error.code, package: error.package, install: error.install, causeCode: error.cause?.code }));
}
`,
  );
  try {
    return JSON.parse((await run(process.execPath, [file], { cwd: dir })).stdout) as Attempt;
  } finally {
    await rm(file, { force: true });
  }
}

describe('optional packages', () => {
  it("are package.json's optional peer dependencies, at the same range, installed here as devDependencies and never as dependencies", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    for (const name of NAMES) {
      expect(pkg['peerDependencies']?.[name], name).toBe(OPTIONAL_PACKAGES[name].range);
      expect(pkg['peerDependenciesMeta']?.[name], name).toEqual({ optional: true });
      expect(pkg['devDependencies']?.[name], name).toBe(OPTIONAL_PACKAGES[name].range);
      expect(pkg['dependencies']?.[name], name).toBeUndefined();
    }
  });

  it('the install command names the package at its range', () => {
    expect(installCommand('@bytecodealliance/jco-transpile')).toBe('npm install @bytecodealliance/jco-transpile@^0.15.0');
    expect(installCommand('@modelcontextprotocol/sdk')).toBe('npm install @modelcontextprotocol/sdk@^1.32.2');
  });

  it('PackageMissingError is a basis-hooks error with code package_missing, the package, the command and the cause', () => {
    const cause = new Error('not found');
    const error = new PackageMissingError('@modelcontextprotocol/sdk', { cause });
    expect(error).toMatchObject({ name: 'PackageMissingError', code: 'package_missing', package: '@modelcontextprotocol/sdk', install: 'npm install @modelcontextprotocol/sdk@^1.32.2', cause });
    expect(error.message).toContain('Install it with: npm install @modelcontextprotocol/sdk@^1.32.2');
    expect(isBasisHooksError(error)).toBe(true);
    expect(isPackageMissingError(error)).toBe(true);
    expect(isPackageMissingError(new Error('x'))).toBe(false);
  });
});

describe('importOptional', () => {
  it('passes on what the import resolves to when the package is installed', async () => {
    expect(await attempt('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/types.js', path.join(ROOT, 'test'))).toEqual({ ok: true });
    const sdk = await importOptional('@modelcontextprotocol/sdk', () => import('@modelcontextprotocol/sdk/types.js'));
    expect(typeof sdk.ContentBlockSchema.parse).toBe('function');
  });

  it.each(NAMES)('turns "%s is not installed" (ERR_MODULE_NOT_FOUND from a real import) into a PackageMissingError', async (name) => {
    expect(await attempt(name, name, outside)).toEqual({ ok: false, name: 'PackageMissingError', code: 'package_missing', package: name, install: installCommand(name), causeCode: 'ERR_MODULE_NOT_FOUND' });
  });

  it('leaves other failures alone: another package missing, a module missing inside an installed package', async () => {
    const other = await attempt('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk-not-this-one', outside);
    expect(other).toMatchObject({ ok: false, name: 'Error', code: 'ERR_MODULE_NOT_FOUND' });
    const inside = await attempt('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/no-such-module.js', path.join(ROOT, 'test'));
    expect(inside).toMatchObject({ ok: false, name: 'Error', code: 'ERR_MODULE_NOT_FOUND' });
  });
});

describe('resolveOptional and isPackageNotFound', () => {
  it('resolve an installed package (and an exported subpath) to its file', () => {
    expect(resolveOptional('@bytecodealliance/jco-transpile')).toMatch(/jco-transpile[\\/]dist[\\/]index\.js$/);
    expect(resolveOptional('@bytecodealliance/jco-transpile', '@bytecodealliance/jco-transpile/wasm-tools')).toMatch(/wasm-tools\.js$/);
  });

  it("recognise require.resolve's MODULE_NOT_FOUND for the package or a subpath of it, not for another package", () => {
    const require = createRequire(path.join(outside, 'x.js'));
    const failure = (specifier: string): unknown => {
      try {
        require.resolve(specifier);
      } catch (error) {
        return error;
      }
      throw new Error(`${specifier} resolved from ${outside}`);
    };
    expect(isPackageNotFound(failure('@bytecodealliance/jco-transpile'), '@bytecodealliance/jco-transpile')).toBe(true);
    expect(isPackageNotFound(failure('@bytecodealliance/jco-transpile/wasm-tools'), '@bytecodealliance/jco-transpile')).toBe(true);
    expect(isPackageNotFound(failure('@bytecodealliance/jco-transpile-other'), '@bytecodealliance/jco-transpile')).toBe(false);
    expect(isPackageNotFound(new Error("Cannot find package '@bytecodealliance/jco-transpile'"), '@bytecodealliance/jco-transpile')).toBe(false);
  });
});
