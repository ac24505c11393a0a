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
import { openCliAudit, type CliAudit } from '../audit-option.js';
import { EXIT_FAILED } from '../kit-errors.js';
import { describeError } from '../report.js';
import { formatTable } from '../table.js';

const usage = `Usage: basis-hooks run --config <hooks.json> [--calls <calls.jsonl>] [--table] [--audit <file>]

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
      --audit <file>    also append the audit stream to this file (JSON lines; the config's
                        "audit" file, if any, is written as well)
  -h, --help            show this help

Output: one outcome JSON object per line on stdout, in call order, and nothing else.
Exit status: 0 when every call ran (whatever the hooks decided); 2 for a usage error, an invalid
config or call, a component hook that cannot be loaded or an audit file that cannot be opened;
1 when every call ran but an audit file lost events (reported on stderr); 130 when interrupted.
`;

/** Why a run stopped early: SIGINT/SIGTERM, or stdout's reader went away (EPIPE). */
const INTERRUPTED = 'interrupted';
const READER_GONE = 'stdout closed';

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
      audit: { type: 'string' },
    });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, calls: callsFile, table, audit: auditFile } = parsed.values;
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');

    let runner: HookRunner;
    let calls: readonly HookCall[];
    let audit: CliAudit | undefined;
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
      const opened = await openCliAudit(this.name, auditFile, config.audit);
      if (typeof opened === 'string') return usageError(this, opened);
      audit = opened;
      runner = await createRunner(config, { ...(audit.sink === undefined ? {} : { audit: audit.sink }), on_audit_file_error: audit.onError(config.audit ?? '') });
    } catch (error) {
      await audit?.finish();
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }

    // Hooks run in their own process groups, out of reach of the terminal's Ctrl-C: on SIGINT/SIGTERM
    // stop the running hook through the runner and close it, rather than leave hook processes behind.
    const interrupt = new AbortController();
    const onSignal = (): void => interrupt.abort(INTERRUPTED);
    // A reader that went away (`| head -1`) wants nothing more: stop the running hook and run no other.
    const onClosed = (): void => interrupt.abort(READER_GONE);
    let refused = 0;
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    process.stdout.once('error', onClosed);
    try {
      const rows: { call: HookCall; outcome: Outcome }[] = [];
      for (const [index, call] of calls.entries()) {
        if (interrupt.signal.aborted) break;
        let outcome: Outcome;
        try {
          // Shadow hooks are waited for: this is a batch tool, and each printed trail should be whole.
          outcome = await runner.run(call, { signal: interrupt.signal, wait_for_shadows: true });
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
      if (table === true && !interrupt.signal.aborted) await write(process.stdout, formatTable(rows));
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.stdout.off('error', onClosed);
      await runner.close();
    }
    const audited = await audit.finish();
    // Nobody reads the rest: end quietly, as a filter in a pipeline does.
    if (interrupt.signal.reason === READER_GONE) return EXIT_OK;
    if (interrupt.signal.aborted) {
      process.stderr.write('basis-hooks run: interrupted; the remaining calls were not run\n');
      return EXIT_INTERRUPTED;
    }
    if (refused !== 0) return EXIT_USAGE;
    return audited ? EXIT_OK : EXIT_FAILED;
  },
};
