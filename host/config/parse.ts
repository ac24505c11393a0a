import path from 'node:path';
import { ConfigError } from '../errors/config-error.js';
import { describeConfigIssues } from './issues.js';
import { resolveConfigPaths } from './resolve.js';
import { HooksConfig } from './schema.js';

/**
 * Validate a parsed `hooks.json` value and resolve its paths against the directory of `file` (see
 * {@link resolveConfigPaths}). `file` also names the config in error messages.
 *
 * Throws a {@link ConfigError} (`config_invalid`) listing *every* problem, each with its JSON path
 * and the key and value it is about — never only the first.
 *
 * @example
 * const config = parseConfig({ hook_schema: 1, hooks: [] }, '/etc/agent/hooks.json');
 */
export function parseConfig(value: unknown, file: string): HooksConfig {
  const result = HooksConfig.safeParse(value);
  if (!result.success) {
    throw new ConfigError('config_invalid', file, describeConfigIssues(result.error, value), { cause: result.error });
  }
  return resolveConfigPaths(result.data, path.dirname(path.resolve(file)));
}
