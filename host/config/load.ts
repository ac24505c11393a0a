import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors/config-error.js';
import { parseConfig } from './parse.js';
import type { HooksConfig } from './schema.js';

/**
 * Read, validate and resolve a `hooks.json` file. Relative paths in it are relative to the file's
 * directory, whatever the process's working directory.
 *
 * Throws a {@link ConfigError}: `config_unreadable` when the file cannot be read or is not JSON
 * (with line:column when the parser says where), `config_invalid` when it does not match the schema.
 *
 * @example
 * const config = await loadConfig('hooks.json');
 * const runner = await createRunner(config);
 */
export async function loadConfig(file: string): Promise<HooksConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError('config_unreadable', file, [{ path: '', message: readProblem(error) }], { cause: error });
  }
  // A BOM is not JSON, but editors write one; it says nothing about the content.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('config_unreadable', file, [{ path: '', message: jsonProblem(error, text) }], { cause: error });
  }
  return parseConfig(value, file);
}

function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** V8 says "… in JSON at position 18" for most errors: turn the offset into line:column. */
function jsonProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /\s*in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
  if (at?.[1] === undefined) {
    // "Unexpected token '}', "…whole text…" is not valid JSON": keep the token, drop the echo.
    const token = /^(Unexpected token '[^']*')/.exec(message);
    return `invalid JSON: ${token?.[1] ?? message}`;
  }
  const offset = Number(at[1]);
  const before = text.slice(0, offset).split('\n');
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  return `invalid JSON at ${line}:${column}: ${message.replace(at[0], '')}`;
}
