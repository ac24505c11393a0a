import { loadConfig } from '../../config/load.js';
import { createRunner } from '../../config/create-runner.js';
import type { HookCall } from '../../contract/call.js';
import type { Outcome } from '../../contract/outcome.js';
import { preview } from '../../contract/preview.js';
import { RunnerError } from '../../errors/runner-error.js';
import type { HookRunner } from '../../runner/runner.js';
import { parseCalls } from '../calls.js';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { readInput, write } from '../io.js';
import { describeError } from '../report.js';
import { formatTable } from '../table.js';

const usage = `Usage: basis-hooks run --config <hooks.json> [--calls <calls.jsonl>] [--table]

Run every call through the hooks of a config and print one outcome per call.

Calls are read from --calls (one JSON call per line, blank lines skipped) or from stdin
(JSON lines, or one JSON object that may span several lines). A call looks like
  {"event":"pre_tool_use","workspace":"/repo","agent_id":"agent-1","tool_call_id":"call-1",
   "tool_name":"shell","input":{"command":"ls"}}
with "output" and "is_error" added for post_tool_use. A string "input" is the raw tool text.
Every call is validated before any runs.

Options:
  -c, --config <file>   the hooks.json to load (required)
      --calls <file>    read calls from this file instead of stdin ("-" = stdin)
      --table           print a table for people instead of JSON lines
  -h, --help            show this help

Output: one outcome JSON object per line on stdout, in call order, and nothing else.
Exit status: 0 when every call ran (whatever the hooks decided); 2 for a usage error, an invalid
config or call, or a component hook that cannot be loaded; 130 when interrupted (SIGINT/SIGTERM).
`;

/** `basis-hooks run`: calls in, outcomes out. */
export const runCommand: Command = {
  name: 'run',
  summary: 'run tool calls through the hooks and print each outcome',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, {
      config: { type: 'string', short: 'c' },
      calls: { type: 'string' },
      table: { type: 'boolean' },
    });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, calls: callsFile, table } = parsed.values;
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');

    let runner: HookRunner;
    let calls: readonly HookCall[];
    try {
      const config = await loadConfig(configFile);
      if (callsFile === undefined && process.stdin.isTTY) {
        process.stderr.write('basis-hooks run: reading calls from the terminal (end with Ctrl-D)\n');
      }
      let text: string;
      try {
        text = await readInput(callsFile);
      } catch (error) {
        process.stderr.write(`basis-hooks run: cannot read calls from ${String(callsFile)}: ${(error as Error).message}\n`);
        return EXIT_USAGE;
      }
      const read = parseCalls(text, callsFile === undefined || callsFile === '-' ? '<stdin>' : callsFile);
      if (!read.ok) {
        process.stderr.write(`basis-hooks run: invalid calls (none was run)\n${read.problems.map((p) => `  ${p}\n`).join('')}`);
        return EXIT_USAGE;
      }
      calls = read.calls;
      runner = await createRunner(config);
    } catch (error) {
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }

    // Hooks run in their own process groups, out of reach of the terminal's Ctrl-C: on SIGINT/SIGTERM
    // stop the running hook through the runner and close it, rather than leave hook processes behind.
    const interrupt = new AbortController();
    let refused = 0;
    const onSignal = (): void => interrupt.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const rows: { call: HookCall; outcome: Outcome }[] = [];
      for (const [index, call] of calls.entries()) {
        let outcome: Outcome;
        try {
          outcome = await runner.run(call, { signal: interrupt.signal });
        } catch (error) {
          // Calls are checked before any runs, so this is not expected; if one is refused anyway, say
          // which, and still run the ones after it.
          if (!(error instanceof RunnerError) || error.code === 'runner_closed') throw error;
          process.stderr.write(`basis-hooks run: call ${index + 1} (${preview(call.tool_call_id)}) was refused: ${error.message}\n`);
          refused += 1;
          continue;
        }
        // An interrupted call's outcome is the policy's, not the hooks' verdict: do not report it.
        if (interrupt.signal.aborted) break;
        // Written as soon as it is known, so a consumer can stream; `write` waits out backpressure.
        if (table === true) rows.push({ call, outcome });
        else await write(process.stdout, `${JSON.stringify(outcome)}\n`);
      }
      if (table === true) await write(process.stdout, formatTable(rows));
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await runner.close();
    }
    if (interrupt.signal.aborted) {
      process.stderr.write('basis-hooks run: interrupted; the remaining calls were not run\n');
      return EXIT_INTERRUPTED;
    }
    return refused === 0 ? EXIT_OK : EXIT_USAGE;
  },
};
