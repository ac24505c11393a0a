import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT_OK, usageError, type Command } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>['values'];

/**
 * Like `parseFlags`, for commands that also take positional arguments (`init <dir>`): unknown flags
 * are errors, and the number of positionals must be within `[min, max]`. On a usage error the problem
 * and a pointer to `--help` go to stderr and the result is the exit code; `--help` prints the usage.
 */
export function parseCommandArgs<const O extends Options>(
  command: Pick<Command, 'name' | 'usage'>,
  args: readonly string[],
  options: O,
  positionals: { readonly min: number; readonly max: number; readonly what: string },
): { readonly values: Values<O>; readonly positionals: readonly string[] } | number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    return usageError(command, error instanceof Error ? error.message : String(error));
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    process.stdout.write(command.usage);
    return EXIT_OK;
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) return usageError(command, `${positionals.what} is required`);
  if (count > positionals.max) return usageError(command, `unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}`);
  return { values: parsed.values as Values<O>, positionals: parsed.positionals };
}

/** Check a flag's value against its allowed values; the problem text for `usageError`, or undefined. */
export function badChoice(flag: string, value: string | undefined, allowed: readonly string[]): string | undefined {
  if (value === undefined || allowed.includes(value)) return undefined;
  return `unknown ${flag} ${JSON.stringify(value)} (one of: ${allowed.join(', ')})`;
}
