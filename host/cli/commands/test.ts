import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOOK_EVENTS, type HookEvent } from '../../contract/event.js';
import type { TestReport } from '../../kit/cases/run.js';
import type { OpenedTarget, TestTarget } from '../../kit/cases/target.js';
import { openCliAudit } from '../audit-option.js';
import { badChoice, parseCommandArgs } from '../args.js';
import { EXIT_OK, EXIT_USAGE, usageError, type Command } from '../command.js';
import { write } from '../io.js';
import { EXIT_FAILED, reportKitError } from '../kit-errors.js';

const usage = `Usage: basis-hooks test <hook.wasm | dir> --cases <cases.jsonl> [options]
       basis-hooks test --command "<cmd>" --cases <cases.jsonl> [options]
       basis-hooks test --config <hooks.json> [--hook <name>] --cases <cases.jsonl> [options]

Table-driven hook tests, like "opa test": every line of the cases file is a call and what the hook
must answer; each runs through the real runner with the hook registered at the call's event, so an
answer for the wrong event is a failure, as in production. A failing case shows a diff of expected
(-) against actual (+).

  {"name": "rm -rf / is denied", "call": {"event": "pre_tool_use", "workspace": "/repo",
   "agent_id": "a1", "tool_call_id": "c1", "tool_name": "shell", "input": {"command": "rm -rf /"}},
   "expect": {"decision": "deny", "reason": "..."}}

"expect" is {"decision": "allow"|"deny"|"modify"|"replace", "reason"?, "input"?, "output"?,
"is_error"?} (keys left out are not compared) or {"failure": "<code>"} (timeout, trap,
wrong_decision_for_event, ...). An optional "hook" names the hook a case is for: it picks the hook
of a config, and cases for another hook than the one under test are skipped. A config's hook runs
at its own event only, so cases at the other event are skipped too; the summary counts each skip.

A case naming no hook, against a config of several hooks (and no --hook), is about the whole chain:
every hook of the call's event in order, with their tools, policies and modes and the config's
budget, judged on the chain's outcome exactly as "basis-hooks check --cases" judges it. Against one
hook (a component, a command, --hook, or a config of one), it is about that hook's own answer.

The hook under test:
  <hook.wasm>              a component
  <dir>                    a hook directory from "basis-hooks init" (its built component, or for a
                           Cedar or CEL policy its hooks.json; --cases defaults to <dir>/cases.jsonl)
  --command "<cmd>"        a subprocess hook, run with sh -c in the current directory
  --config <hooks.json>    the config's hooks, with their limits, grants, tools and on_failure
                           (a case naming no hook runs through its chain, as above)

Options:
      --cases <file>     the cases (JSON lines; blank lines and lines starting with # or // skipped)
      --hook <name>      the hook under test: picks a config's hook; cases for other hooks (and,
                         for a config, at the other event) are skipped
      --event <event>    run only the cases at ${HOOK_EVENTS.join(' or ')}
      --json             print one JSON report instead of the text report
      --audit <file>     append the cases' audit stream to this file (JSON lines)
  -h, --help             show this help

Exit status: 0 when every case that ran passed (and one did); 1 when a case failed or none ran;
2 for a usage error, an invalid cases file or config, or a hook that cannot be loaded.
`;

/** `basis-hooks test`: run a cases file against a hook. */
export const testCommand: Command = {
  name: 'test',
  summary: 'run table-driven cases against a hook (component, command or config)',
  usage,
  async run(args) {
    const parsed = parseCommandArgs(
      this,
      args,
      {
        cases: { type: 'string' },
        command: { type: 'string' },
        config: { type: 'string', short: 'c' },
        hook: { type: 'string' },
        event: { type: 'string' },
        json: { type: 'boolean' },
        audit: { type: 'string' },
      },
      { min: 0, max: 1, what: '<hook.wasm>' },
    );
    if (typeof parsed === 'number') return parsed;
    const { cases: casesOption, command, config, hook, event, json, audit: auditFile } = parsed.values;
    const [positional] = parsed.positionals;
    const given = [positional, command, config].filter((v) => v !== undefined).length;
    if (given !== 1) return usageError(this, 'give exactly one hook to test: <hook.wasm | dir>, --command or --config');
    const badEvent = badChoice('event', event, HOOK_EVENTS);
    if (badEvent !== undefined) return usageError(this, badEvent);

    // Loaded on use: `basis-hooks run` should not pay for the kit at startup.
    const [{ parseCases }, { runCases }, { isHookDir, isPolicyDir, openTarget, POLICY_DIR_CONFIG }, { formatResult, formatSummary }] = await Promise.all([
      import('../../cases/parse.js'),
      import('../../kit/cases/run.js'),
      import('../../kit/cases/target.js'),
      import('../test-report.js'),
    ]);
    const named = hook === undefined ? {} : { hook };
    let target: TestTarget;
    let casesFile = casesOption;
    if (positional !== undefined && isHookDir(positional)) {
      target = { kind: 'dir', dir: positional, ...named };
      casesFile ??= join(positional, 'cases.jsonl');
    } else if (positional !== undefined && isPolicyDir(positional)) {
      // A policy hook from `init --lang cedar|cel`: its hooks.json is the target, nothing to build.
      target = { kind: 'config', config: join(positional, POLICY_DIR_CONFIG), ...named };
      casesFile ??= join(positional, 'cases.jsonl');
    } else if (positional !== undefined) {
      target = { kind: 'component', path: positional, ...named };
    } else if (command !== undefined) {
      target = { kind: 'command', command, ...named };
    } else {
      target = { kind: 'config', config: config ?? '', ...named };
    }
    if (casesFile === undefined) return usageError(this, '--cases <cases.jsonl> is required');

    let text: string;
    try {
      text = await readFile(casesFile, 'utf8');
    } catch (error) {
      process.stderr.write(`basis-hooks test: cannot read ${casesFile}: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT_USAGE;
    }
    const cases = parseCases(text, casesFile);
    if (!cases.ok) {
      process.stderr.write(`basis-hooks test: cases_invalid: invalid cases (none was run)\n${cases.problems.map((p) => `  ${p}\n`).join('')}`);
      return EXIT_USAGE;
    }

    const audit = await openCliAudit(this.name, auditFile);
    if (typeof audit === 'string') return usageError(this, audit);
    let opened: OpenedTarget;
    try {
      opened = await openTarget(target);
    } catch (error) {
      await audit.finish();
      const { text: message } = reportKitError(this.name, error);
      process.stderr.write(message);
      return EXIT_USAGE;
    }
    let report: TestReport;
    try {
      if (json !== true) await write(process.stdout, `basis-hooks test: ${opened.label}, ${cases.cases.length} case(s) from ${casesFile}\n\n`);
      // Streamed as each case finishes, one write after the other: `write` waits out backpressure, and
      // a chain (not a write per case in flight, each waiting for 'drain') keeps listeners to one.
      let written: Promise<void> = Promise.resolve();
      report = await runCases(opened, cases.cases, {
        ...(event === undefined ? {} : { event: event as HookEvent }),
        ...(audit.sink === undefined ? {} : { audit: audit.sink }),
        onResult: (result) => {
          if (json === true) return;
          written = written.then(() => write(process.stdout, formatResult(result, casesFile)));
          // Handled now (a reader that went away must not crash the process), reported below.
          written.catch(() => {});
        },
      });
      await written;
      await write(process.stdout, json === true ? `${JSON.stringify({ ...report, cases_file: casesFile })}\n` : formatSummary(report));
    } finally {
      await opened.close();
    }
    const audited = await audit.finish();
    return report.ok && audited ? EXIT_OK : EXIT_FAILED;
  },
};
