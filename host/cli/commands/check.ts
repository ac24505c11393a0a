import { checkConfig } from '../../config/check.js';
import { loadConfig } from '../../config/load.js';
import { EXIT_OK, EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { write } from '../io.js';
import { describeError } from '../report.js';

const usage = `Usage: basis-hooks check --config <hooks.json> [--json]

Validate a config and verify that every hook can start, without running any:
  - a command's program is an executable on PATH (argv[0], or the first word of a shell string);
  - every argument naming a script file (.py, .mjs, .sh, ... or a path starting with / ./ ../)
    exists; relative ones are looked up beside the config;
  - a component loads.
What cannot be known before a call (a path in the call's workspace, a shell string's pipes,
substitutions and globs) is a warning, not a failure.

Options:
  -c, --config <file>   the hooks.json to check (required)
      --json            print the report as one JSON object
  -h, --help            show this help

Output: one line per hook: "ok", or the failure code and message; "warn" lines under it.
Exit status: 0 when every hook can start; 2 otherwise (or for a usage error or an invalid config).
`;

/** `basis-hooks check`: is this config valid, and can every hook start? */
export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a config and verify every hook can start',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, {
      config: { type: 'string', short: 'c' },
      json: { type: 'boolean' },
    });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, json } = parsed.values;
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');

    let report;
    try {
      report = await checkConfig(await loadConfig(configFile));
    } catch (error) {
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }
    if (json === true) {
      await write(process.stdout, `${JSON.stringify(report)}\n`);
    } else {
      const width = Math.max(0, ...report.hooks.map((hook) => hook.name.length));
      const lines = report.hooks.map(
        (hook) =>
          (hook.ok
            ? `ok    ${hook.name.padEnd(width)}  (${hook.kind})\n`
            : `FAIL  ${hook.name.padEnd(width)}  (${hook.kind}) ${hook.code}: ${hook.message}\n`) +
          (hook.warnings ?? []).map((warning) => `warn  ${hook.name.padEnd(width)}  ${warning}\n`).join(''),
      );
      const failed = report.hooks.filter((hook) => !hook.ok).length;
      const summary =
        report.hooks.length === 0 ? 'no hooks declared\n' : failed === 0 ? '' : `${configFile}: ${failed} of ${report.hooks.length} hook(s) cannot start\n`;
      await write(process.stdout, lines.join('') + summary);
    }
    return report.ok ? EXIT_OK : EXIT_USAGE;
  },
};
