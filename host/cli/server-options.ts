import { readTokenFile, TokenFileError } from '../integrations/shared/token.js';

/*
 * The flags every long-running hook server takes (`claude-code --http`, `serve`), parsed in one place so
 * a new server-wide option is added once.
 */

/** The `parseArgs` options of a server's shared flags. */
export const SERVER_FLAGS = {
  'token-file': { type: 'string' },
  'max-body-bytes': { type: 'string' },
} as const;

/** The usage lines of {@link SERVER_FLAGS}. */
export const SERVER_FLAGS_USAGE = `      --token-file <file>   require "Authorization: Bearer <token>" with the token in this file
                            (made, mode 0600, when it does not exist; refused when others can read it)
      --max-body-bytes <n>  the largest event accepted, in bytes (default 8388608 = 8 MiB); a larger
                            one is refused before it is buffered, answered as a block`;

/** What the shared flags say, validated. */
export interface ServerOptions {
  readonly tokenFile?: string;
  readonly maxBodyBytes?: number;
}

/** Validate the shared flags: the options, or the problem for `usageError`. */
export function serverOptions(values: { readonly 'token-file'?: string | undefined; readonly 'max-body-bytes'?: string | undefined }): ServerOptions | string {
  const out: { tokenFile?: string; maxBodyBytes?: number } = {};
  if (values['token-file'] !== undefined) out.tokenFile = values['token-file'];
  const max = values['max-body-bytes'];
  if (max !== undefined) {
    const n = Number(max);
    if (!/^\d+$/.test(max) || n < 1024 || n > 1024 * 1024 * 1024) return `--max-body-bytes must be a whole number of bytes from 1024 to 1073741824, got ${JSON.stringify(max)}`;
    out.maxBodyBytes = n;
  }
  return out;
}

/** The token of `--token-file` (undefined without it), or a one-line problem. */
export async function serverToken(options: ServerOptions, log: (line: string) => void): Promise<{ readonly token?: string } | string> {
  if (options.tokenFile === undefined) return {};
  try {
    const { token, created } = await readTokenFile(options.tokenFile);
    if (created) log(`made a new token in ${options.tokenFile} (mode 0600)`);
    return { token };
  } catch (error) {
    if (error instanceof TokenFileError) return error.message;
    throw error;
  }
}

/**
 * A logger of refused requests that cannot be turned into a flood of its own: per refusal code, one
 * line at once, then at most one line a second saying how many more there were.
 */
export function refusalLog(write: (line: string) => void): (code: string, message: string) => void {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (code, message) => {
    const now = Date.now();
    const seen = last.get(code);
    if (seen !== undefined && now - seen.at < 1000) {
      seen.suppressed++;
      return;
    }
    const more = seen !== undefined && seen.suppressed > 0 ? ` (and ${seen.suppressed} more ${code} refusals in the last second)` : '';
    last.set(code, { at: now, suppressed: 0 });
    write(`refused a request (${code}): ${message}${more}`);
  };
}
