import type { ImportObject } from './generated/wasi.js';
import { NO_LOGS, type EngineLogs } from '../outcome.js';
import { createCli } from './cli.js';
import { createMonotonicClock, wallClock } from './clocks.js';
import { OpenFiles, createFilesystem, type ReadOnlyDir } from './filesystem.js';
import { createGlueHost, GLUE_HOST_KEY, type GlueHost, type GlueHostOptions } from './host-calls.js';
import { createIoPoll, ioError, ioStreams, sleepUntil, type Sleeper } from './io.js';
import { LogBuffer } from './log-buffer.js';
import { randomInsecure, randomInsecureSeed, randomRandom } from './random.js';
import { ResourceLedger, type CallResources } from './resources.js';

/**
 * jco's glue looks WASI imports up without their version (`wasi:cli/stdout`) and everything else with
 * it: the generated import object with the WASI keys' versions stripped. Typed from the WIT, so an
 * interface the sandbox does not implement, or implements with the wrong shape, fails to compile.
 */
export type WasiImports = {
  [K in keyof ImportObject as K extends `wasi:${infer Name}@${string}` ? `wasi:${Name}` : never]: ImportObject[K];
} & {
  /** Not an interface a guest can import (the allowlist has no such name): what the host's patch of the glue calls. */
  readonly [GLUE_HOST_KEY]: GlueHost;
} & Readonly<Record<string, unknown>>;

/** What the sandbox gives its guest beyond nothing: resolved by the embedder from its grants. */
export interface WasiConfig {
  /** The guest's whole environment (explicit values and allowed host variables). */
  readonly env: ReadonlyArray<readonly [string, string]>;
  /** Read-only directories: guest path → real host directory. */
  readonly readOnlyDirs: readonly ReadOnlyDir[];
  /** Cap on captured stdout and on captured stderr, each, per call. */
  readonly maxLogBytes: number;
}

export type { Sleeper } from './io.js';

/** How the host runs the guest, as far as its imports care. */
export interface WasiHost {
  /**
   * How a guest's wait on a clock (`pollable.block`, `poll`) is done. Default: block the thread until
   * the instant (a worker's deadline still applies). In-thread isolation refuses waits past what the
   * call may still spend — a sleeping guest must not hold the host's thread beyond its budget.
   */
  readonly sleep?: Sleeper;
  /** How the glue's lifts are charged and capped, and who is told the handle tables (wasi/host-calls.ts). */
  readonly glue?: GlueHostOptions;
  /**
   * Import keys (with version) the component's world names that carry only types: nothing to supply,
   * but the glue asks for the key (`basis:hook/types@1.0.0`).
   */
  readonly typeOnly?: readonly string[] | undefined;
}

/** One instance's WASI: deny-by-default imports, and a log sink of what the guest writes. */
export interface Wasi {
  readonly imports: WasiImports;
  /** What the guest wrote since the last take, capped; empty streams are left out. */
  takeLogs(): EngineLogs;
  /** The call is over: close what it opened and left open (see resources.ts). */
  endCall(): CallResources;
  /** How many of the sandbox's resources the guest holds now. */
  held(): number;
  /** Close everything the guest holds; the instance is being discarded. */
  dispose(): void;
}

/**
 * Build the WASI imports for one guest instance, deny by default: no preopened directories, the
 * granted environment only (empty without grants), no arguments, stdin at end of stream, stdout and
 * stderr captured into capped buffers (never the host's), no sockets or HTTP (not even importable:
 * the loader refuses such components). Clocks and random are provided. No import blocks the thread
 * except a wait on a clock, which goes through `host.sleep`.
 */
export function createWasi(config: WasiConfig, host: WasiHost = {}): Wasi {
  const sleep = host.sleep ?? sleepUntil;
  const logs = { stdout: new LogBuffer(config.maxLogBytes), stderr: new LogBuffer(config.maxLogBytes) };
  const files = new OpenFiles();
  const ledger = new ResourceLedger();
  const cli = createCli({ env: config.env }, logs, ledger);
  const fs = createFilesystem(config.readOnlyDirs, files, ledger);
  const typeOnly: Record<string, object> = {};
  for (const key of host.typeOnly ?? []) typeOnly[key] = {};
  const imports: WasiImports = {
    ...typeOnly,
    'wasi:cli/environment': cli.environment,
    'wasi:cli/exit': cli.exit,
    'wasi:cli/stdin': cli.stdin,
    'wasi:cli/stdout': cli.stdout,
    'wasi:cli/stderr': cli.stderr,
    'wasi:cli/terminal-input': cli.terminalInput,
    'wasi:cli/terminal-output': cli.terminalOutput,
    'wasi:cli/terminal-stdin': cli.terminalStdin,
    'wasi:cli/terminal-stdout': cli.terminalStdout,
    'wasi:cli/terminal-stderr': cli.terminalStderr,
    'wasi:clocks/monotonic-clock': createMonotonicClock(sleep, ledger),
    'wasi:clocks/wall-clock': wallClock,
    'wasi:filesystem/preopens': fs.preopens,
    'wasi:filesystem/types': fs.types,
    'wasi:io/error': ioError,
    'wasi:io/poll': createIoPoll(sleep),
    'wasi:io/streams': ioStreams,
    'wasi:random/random': randomRandom,
    'wasi:random/insecure': randomInsecure,
    'wasi:random/insecure-seed': randomInsecureSeed,
    [GLUE_HOST_KEY]: createGlueHost(host.glue),
  };
  return {
    imports,
    takeLogs() {
      const stdout = logs.stdout.take();
      const stderr = logs.stderr.take();
      // Literals per shape, not spreads: this runs on every call (and most calls write nothing).
      if (stdout === undefined) return stderr === undefined ? NO_LOGS : { stderr };
      return stderr === undefined ? { stdout } : { stdout, stderr };
    },
    endCall() {
      return ledger.endCall();
    },
    held() {
      return ledger.size;
    },
    dispose() {
      ledger.closeAll();
      files.closeAll();
    },
  };
}
