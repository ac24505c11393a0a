import type * as WasiEnvironment from './generated/interfaces/wasi-cli-environment.js';
import type * as WasiExit from './generated/interfaces/wasi-cli-exit.js';
import type * as WasiStderr from './generated/interfaces/wasi-cli-stderr.js';
import type * as WasiStdin from './generated/interfaces/wasi-cli-stdin.js';
import type * as WasiStdout from './generated/interfaces/wasi-cli-stdout.js';
import type * as WasiTerminalInput from './generated/interfaces/wasi-cli-terminal-input.js';
import type * as WasiTerminalOutput from './generated/interfaces/wasi-cli-terminal-output.js';
import type * as WasiTerminalStderr from './generated/interfaces/wasi-cli-terminal-stderr.js';
import type * as WasiTerminalStdin from './generated/interfaces/wasi-cli-terminal-stdin.js';
import type * as WasiTerminalStdout from './generated/interfaces/wasi-cli-terminal-stdout.js';
import { InputStream, OutputStream } from './io.js';
import type { LogBuffer } from './log-buffer.js';
import type { ResourceLedger } from './resources.js';
import { GuestExit } from './wasi-error.js';

/** What a guest's `wasi:cli` shows it: only what was granted, never the host's. */
export interface CliGrants {
  /** The whole environment the guest sees (explicit values and passed-through names, resolved by the host). */
  readonly env: ReadonlyArray<readonly [string, string]>;
}

class TerminalInput {}
class TerminalOutput {}

/**
 * `wasi:cli` with nothing of the host in it: the granted environment only (empty by default), no
 * arguments, no working directory, stdin at end of stream, stdout/stderr into capped buffers, no
 * terminals, and exit as a failure of the call instead of the host's `process.exit`.
 */
export function createCli(grants: CliGrants, logs: { readonly stdout: LogBuffer; readonly stderr: LogBuffer }, ledger: ResourceLedger) {
  const environment = {
    getEnvironment: () => grants.env.map(([k, v]): [string, string] => [k, v]),
    getArguments: () => [],
    initialCwd: () => undefined,
  } satisfies typeof WasiEnvironment;

  const exit = {
    exit(status: { tag: 'ok'; val: void } | { tag: 'err'; val: void }): void {
      throw new GuestExit(status.tag === 'ok' ? 0 : 1);
    },
    exitWithCode(statusCode: number): void {
      throw new GuestExit(statusCode);
    },
  } satisfies typeof WasiExit;

  // The standard streams are the instance's: guests fetch them once and keep them across calls.
  const stdin = { getStdin: () => ledger.track(new InputStream(), 'instance') } satisfies typeof WasiStdin;
  const stdout = { getStdout: () => ledger.track(new OutputStream((bytes) => logs.stdout.write(bytes)), 'instance') } satisfies typeof WasiStdout;
  const stderr = { getStderr: () => ledger.track(new OutputStream((bytes) => logs.stderr.write(bytes)), 'instance') } satisfies typeof WasiStderr;

  return {
    environment,
    exit,
    stdin,
    stdout,
    stderr,
    terminalInput: { TerminalInput } satisfies typeof WasiTerminalInput,
    terminalOutput: { TerminalOutput } satisfies typeof WasiTerminalOutput,
    terminalStdin: { getTerminalStdin: () => undefined } satisfies typeof WasiTerminalStdin,
    terminalStdout: { getTerminalStdout: () => undefined } satisfies typeof WasiTerminalStdout,
    terminalStderr: { getTerminalStderr: () => undefined } satisfies typeof WasiTerminalStderr,
  };
}
