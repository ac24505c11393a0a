import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit codes: 0 done (whatever the hooks decided), 2 the invocation or the config is wrong. */
export const EXIT_OK = 0;
export const EXIT_USAGE = 2;
/** The command ran but something it was asked to do failed (a hook that does not build, an audit file that lost events). */
export const EXIT_FAILED = 1;
/** Stopped by SIGINT/SIGTERM before every call ran (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** One `basis-hooks <name>` command: a thin shell over the public API. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text. */
  readonly usage: string;
  /** Run with the arguments after the command name; resolves to the exit code. */
  run(args: readonly string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parse a command's flags strictly (unknown flags and stray arguments are errors). On a usage error
 * the problem and a pointer to `--help` go to stderr and the result is the exit code; `--help`
 * prints the usage to stdout and yields {@link EXIT_OK}.
 */
export function parseFlags<const O extends Options>(
  command: Pick<Command, 'name' | 'usage'>,
  args: readonly string[],
  options: O,
): { readonly values: ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>['values'] } | number {
  let values;
  try {
    values = parseArgs({ args: [...args], options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return usageError(command, error instanceof Error ? error.message : String(error));
  }
  if ((values as { help?: boolean }).help === true) {
    process.stdout.write(command.usage);
    return EXIT_OK;
  }
  return { values: values as ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>['values'] };
}

/**
 * Report a usage problem on stderr — the problem on one line and where the usage is on the next, not
 * the whole help, which would bury the one line that matters — and give the exit code for it.
 */
export function usageError(command: Pick<Command, 'name' | 'usage'>, problem: string): number {
  process.stderr.write(`basis-hooks ${command.name}: ${problem}\n${usageHint(command.name)}\n`);
  return EXIT_USAGE;
}

/** The line that follows a usage error: where to read the usage. */
export function usageHint(command?: string): string {
  return command === undefined ? 'run "basis-hooks --help" for the commands' : `run "basis-hooks ${command} --help" for usage`;
}
