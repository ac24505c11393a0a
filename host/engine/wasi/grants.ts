import { realpath, stat } from 'node:fs/promises';
import type { WasiConfig } from './index.js';

/** What a guest may see beyond the deny-by-default sandbox; every grant explicit. */
export interface WasiGrants {
  /** Environment variables with explicit values. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Names of host environment variables passed through (unset ones are simply absent). */
  readonly envAllow?: readonly string[] | undefined;
  /** Read-only directories: guest path (absolute) → host directory. */
  readonly readOnlyDirs?: Readonly<Record<string, string>> | undefined;
}

/** A grant that cannot be used: its message names which and why. */
export class GrantError extends Error {
  override readonly name = 'GrantError' as const;
}

function detail(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}

/**
 * Resolve grants once, when a component is loaded (not per call): the environment's values (explicit
 * ones win over passed-through ones), and each directory's real path, which must be a directory.
 * Throws {@link GrantError}.
 */
export async function resolveGrants(grants: WasiGrants | undefined): Promise<Pick<WasiConfig, 'env' | 'readOnlyDirs'>> {
  const env: Array<[string, string]> = [];
  for (const name of grants?.envAllow ?? []) {
    const value = process.env[name];
    if (value !== undefined) env.push([name, value]);
  }
  for (const [name, value] of Object.entries(grants?.env ?? {})) {
    const existing = env.findIndex(([n]) => n === name);
    if (existing >= 0) env.splice(existing, 1);
    env.push([name, value]);
  }
  const readOnlyDirs: Array<[string, string]> = [];
  for (const [guestPath, hostDir] of Object.entries(grants?.readOnlyDirs ?? {})) {
    if (!guestPath.startsWith('/')) throw new GrantError(`grant read_only_dirs["${guestPath}"]: the guest path must be absolute`);
    let real: string;
    try {
      real = await realpath(hostDir);
    } catch (error) {
      throw new GrantError(`grant read_only_dirs["${guestPath}"]: cannot use ${hostDir} (${detail(error)})`, { cause: error });
    }
    let directory: boolean;
    try {
      directory = (await stat(real)).isDirectory();
    } catch (error) {
      throw new GrantError(`grant read_only_dirs["${guestPath}"]: cannot use ${hostDir} (${detail(error)})`, { cause: error });
    }
    if (!directory) throw new GrantError(`grant read_only_dirs["${guestPath}"]: ${hostDir} is not a directory`);
    readOnlyDirs.push([guestPath, real]);
  }
  return { env, readOnlyDirs };
}
