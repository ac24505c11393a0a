import { OptionsError } from '../../errors/options-error.js';
import { DIALECT_NAMES, dialectFor, type Dialect, type DialectName } from './dialect/index.js';

/**
 * Options of a subprocess hook: a program that reads one JSON request on stdin and prints one JSON
 * response on stdout. The config file's subprocess entries map onto this one-to-one (snake_case kept
 * so config and API read the same).
 */
export interface SubprocessOptions {
  /** argv array (spawned without a shell) or a string run with `sh -c`. */
  readonly command: string | readonly string[];
  /** Working directory override. Default: the request's `workspace` if it is an existing directory, else process.cwd(). */
  readonly cwd?: string;
  /** Deadline per call in ms (default 10000). On expiry the hook's whole process group is killed → `timeout`. */
  readonly timeout_ms?: number;
  /** Cap on stdout in bytes (default 1 MiB). Exceeding it kills the process group → `output_too_large`. */
  readonly max_output_bytes?: number;
  /** Cap on kept stderr in bytes (default 64 KiB). The first bytes go to the trail; the rest is drained, dropped and marked. */
  readonly max_stderr_bytes?: number;
  /** Variables added to the inherited environment (they win over inherited ones). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The protocol the hook speaks (default `basis`, the basis wire contract). `claude-code`: the hook is
   * a Claude Code command hook — it reads Claude Code's stdin JSON and answers with its exit code
   * (2 = block) and JSON (`permissionDecision`, `updatedInput`, `decision: "block"`, `updatedToolOutput`).
   */
  readonly dialect?: DialectName;
}

/** The defaults applied to every option left out. */
export const SUBPROCESS_DEFAULTS = {
  timeout_ms: 10_000,
  max_output_bytes: 1024 * 1024,
  max_stderr_bytes: 64 * 1024,
} as const satisfies Required<Pick<SubprocessOptions, 'timeout_ms' | 'max_output_bytes' | 'max_stderr_bytes'>>;

/** How a hook is started: the file to exec, its arguments, and how messages name it. */
export interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  /** The command as the user wrote it, shortened, for messages. */
  readonly display: string;
  /** `shell` when the string form is run through `sh -c`. */
  readonly form: 'argv' | 'shell';
}

/** Options with defaults applied and checked once, at construction. */
export interface ResolvedSubprocessOptions {
  readonly launch: Launch;
  readonly cwd: string | undefined;
  readonly timeout_ms: number;
  readonly max_output_bytes: number;
  readonly max_stderr_bytes: number;
  readonly env: Readonly<Record<string, string>>;
  readonly dialect: Dialect;
}

/**
 * The string form runs through the POSIX shell at its canonical path, as Node's own `shell: true`
 * does, so a hook's `env.PATH` cannot change which shell interprets the command.
 */
export const SHELL = '/bin/sh';

/** The longest deadline a timer can keep: `setTimeout` silently turns anything larger into 1 ms. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Apply defaults and refuse options a hook could never run with. Throws an `OptionsError`
 * (`invalid_options`) naming the option: saying so at construction beats failing every call, and it
 * is the caller's mistake, not a hook that failed to start (`spawn_failed`).
 */
export function resolveSubprocessOptions(options: SubprocessOptions): ResolvedSubprocessOptions {
  const launch = toLaunch(options.command);
  const timeout_ms = positive('timeout_ms', options.timeout_ms ?? SUBPROCESS_DEFAULTS.timeout_ms, launch, MAX_TIMEOUT_MS);
  const max_output_bytes = positive('max_output_bytes', options.max_output_bytes ?? SUBPROCESS_DEFAULTS.max_output_bytes, launch);
  const max_stderr_bytes = positive('max_stderr_bytes', options.max_stderr_bytes ?? SUBPROCESS_DEFAULTS.max_stderr_bytes, launch, Number.MAX_SAFE_INTEGER, true);
  if (options.cwd !== undefined && options.cwd === '') throw invalid(launch, 'cwd', 'cwd must not be empty');
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (typeof value !== 'string') throw invalid(launch, 'env', `env.${key} must be a string`);
  }
  const dialectName = options.dialect ?? 'basis';
  if (!DIALECT_NAMES.includes(dialectName)) {
    throw invalid(launch, 'dialect', `dialect must be one of ${DIALECT_NAMES.join(', ')}, got ${JSON.stringify(dialectName)}`);
  }
  return { launch, cwd: options.cwd, timeout_ms, max_output_bytes, max_stderr_bytes, env: { ...options.env }, dialect: dialectFor(dialectName) };
}

function toLaunch(command: string | readonly string[]): Launch {
  if (typeof command === 'string') {
    if (command.trim() === '') throw new OptionsError('subprocess hook: command is empty', { option: 'command' });
    return { file: SHELL, args: ['-c', command], display: `sh -c ${JSON.stringify(shorten(command))}`, form: 'shell' };
  }
  const [file, ...args] = command;
  if (file === undefined || file === '' || !command.every((a) => typeof a === 'string')) {
    throw new OptionsError('subprocess hook: command must be a non-empty argv array of strings', { option: 'command' });
  }
  return { file, args, display: shorten(command.map(quote).join(' ')), form: 'argv' };
}

function positive(name: string, value: number, launch: Launch, max = Number.MAX_SAFE_INTEGER, zeroOk = false): number {
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1) || value > max) {
    throw invalid(launch, name, `${name} must be an integer in [${zeroOk ? 0 : 1}, ${max}], got ${String(value)}`);
  }
  return value;
}

function invalid(launch: Launch, option: string, detail: string): OptionsError {
  return new OptionsError(`subprocess hook ${launch.display}: ${detail}`, { option });
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

function shorten(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
