import { pinConfig } from '../../config/pin-file.js';
import { EXIT_OK, EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { columns } from '../columns.js';
import { write } from '../io.js';
import { describeError } from '../report.js';

const usage = `Usage: basis-hooks pin --config <hooks.json> [--json]

Pin every hook of a config to the sha256 of its file: write each digest as the hook's "sha256",
editing the file minimally (its formatting, indentation, line endings and key order are kept; a
hook that has a "sha256" gets it replaced in place) and replacing it atomically. A pinned hook whose
file later changes fails to load (load_failed, naming both digests) — and a command hook's file is
checked again before every call.

What is hashed is the hook's own code: a component's file; a command's "pin_files" when it lists
them; else, when argv[0] is an interpreter or launcher (node, python3, /usr/bin/env, sh, npx...),
the first later argument that is an existing file (the script it runs; relative paths beside the
config count) — the interpreter itself is not covered, and a command with no such file (python3 -m
pkg) is skipped; else argv[0] itself (a path, or the program found on PATH). A shell command string
is skipped unless it has "pin_files". Several files: the sha256 of their digests, one hex line each.
Each row says exactly which files the pin covers and what runs uncovered.

Options:
  -c, --config <file>   the hooks.json to pin (required)
      --json            print the report as one JSON object
  -h, --help            show this help

Exit status: 0 when every pinnable hook is pinned; 2 for a usage error, an invalid config, or a hook
file that cannot be read (then nothing is written).
`;

/** `basis-hooks pin`: write each hook's sha256 into its config. */
export const pinCommand: Command = {
  name: 'pin',
  summary: 'write each hook\'s sha256 into the config (formatting kept)',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, { config: { type: 'string', short: 'c' }, json: { type: 'boolean' } });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, json } = parsed.values;
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');
    let report;
    try {
      report = await pinConfig(configFile);
    } catch (error) {
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }
    if (json === true) {
      await write(process.stdout, `${JSON.stringify(report)}\n`);
      return EXIT_OK;
    }
    const rows = [
      ...report.pinned.map((p) => [p.action === 'unchanged' ? 'kept' : p.action, p.name, p.sha256, `covers ${p.files.join(', ')}${p.uncovered.length === 0 ? '' : `; not covered: ${p.uncovered.join(', ')}`}`]),
      ...report.skipped.map((s) => ['skipped', s.name, s.reason, '']),
    ];
    const updated = report.pinned.filter((p) => p.action === 'updated');
    const notes = updated.map((p) => `note: ${p.name} was pinned to ${p.previous ?? '?'}; its files have changed since\n`);
    const tail = report.written ? `wrote ${report.file}\n` : `${report.file} already pins every hook: nothing written\n`;
    await write(process.stdout, `${columns(rows)}${notes.join('')}${tail}`);
    return EXIT_OK;
  },
};
