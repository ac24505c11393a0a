import { explainCall, type ExplainReport, type HookExplanation } from '../../config/explain.js';
import { loadConfig } from '../../config/load.js';
import type { Explanation } from '../../contract/explanation.js';
import { parseCalls } from '../calls.js';
import { EXIT_OK, EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { readInput, write } from '../io.js';
import { describeError } from '../report.js';

const usage = `Usage: basis-hooks explain --config <hooks.json> [--call <call.json>] [--json]

Run one call through the chain of a config and say, for each hook, what it decided and why: for a
Cedar hook the determining and the erroring policies (with file and line), for a CEL hook the rule
that matched (and those that did not), for a command or component hook the reason it gave, and for
a hook that did not run why not (the other event, its tools, its when, a deny before its turn).

The call is read from stdin (or --call): one JSON object, as "basis-hooks run" reads it:
  {"event":"pre_tool_use","workspace":"/repo","agent_id":"agent-1","tool_call_id":"call-1",
   "tool_name":"shell","input":{"command":"git push --force"}}

Options:
  -c, --config <file>   the hooks.json (required)
      --call <file>     read the call from this file instead of stdin
      --json            print the report as one JSON object
  -h, --help            show this help

The config's audit file is not written: an explanation is not traffic.
Exit status: 0 when the call ran (whatever was decided); 2 for a usage error, an invalid config or
call, or a hook that cannot load.
`;

/** Paths under the current directory shown relative to it (policies are named by absolute path once loaded). */
function shorter(text: string): string {
  const here = `${process.cwd()}/`;
  return text.split(here).join('');
}

function explanationLines(explanation: Explanation): string[] {
  const lines = [`       ${explanation.summary}`];
  for (const item of explanation.items) {
    const what = [item.effect, item.status.replace('_', ' ')].filter((w) => w !== undefined).join(', ');
    const detail = item.status === 'error' ? item.message : item.reason;
    const source = item.source === undefined ? '' : ` ${item.source}`;
    lines.push(`         ${item.id} (${what})${item.where === undefined ? '' : ` at ${item.where}`}${source}${detail === undefined ? '' : ` — ${detail}`}`);
  }
  return lines;
}

function hookLines(hook: HookExplanation, index: number): string[] {
  const head = `  ${index + 1}. ${hook.name} (${hook.kind}${hook.mode === 'shadow' ? ', shadow' : ''}): `;
  if (hook.status !== 'decided') return [`${head}not run — ${hook.why}`];
  const lines = [`${head}${hook.decision ?? ''} — ${hook.why}`];
  if (hook.explanation !== undefined) lines.push(...explanationLines(hook.explanation));
  return lines;
}

/** The text report: the call and its outcome, then every hook in declared order. */
export function formatExplain(report: ExplainReport): string {
  const { outcome } = report;
  const result =
    outcome.event === 'pre_tool_use'
      ? outcome.decision === 'deny'
        ? `deny: ${outcome.reason}`
        : `allow${outcome.modified ? ' (input modified)' : ''}`
      : `${outcome.decision}${outcome.replaced ? ' (output replaced)' : ''}${outcome.decision === 'deny' ? `: ${String(outcome.output)}` : ''}`;
  return shorter([`basis-hooks explain: ${outcome.tool_call_id} at ${outcome.event} → ${result}`, '', ...report.hooks.flatMap(hookLines), ''].join('\n'));
}

/** `basis-hooks explain`: one call, each hook's decision and why. */
export const explainCommand: Command = {
  name: 'explain',
  summary: 'explain one call: each hook\'s decision and why (Cedar policies, CEL rules, reasons)',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, { config: { type: 'string', short: 'c' }, call: { type: 'string' }, json: { type: 'boolean' } });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, call: callFile, json } = parsed.values;
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');
    let config;
    try {
      config = await loadConfig(configFile);
    } catch (error) {
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }
    const source = callFile ?? 'stdin';
    let text: string;
    try {
      text = await readInput(callFile);
    } catch (error) {
      process.stderr.write(`basis-hooks explain: cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return EXIT_USAGE;
    }
    const calls = parseCalls(text, source);
    if (!calls.ok) {
      process.stderr.write(`basis-hooks explain: invalid call\n${calls.problems.map((p) => `  ${p}\n`).join('')}`);
      return EXIT_USAGE;
    }
    const [call, ...more] = calls.calls;
    if (call === undefined || more.length > 0) return usageError(this, `give exactly one call (got ${calls.calls.length})`);
    let report: ExplainReport;
    try {
      report = await explainCall(config, call);
    } catch (error) {
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }
    await write(process.stdout, json === true ? `${JSON.stringify(report)}\n` : formatExplain(report));
    return EXIT_OK;
  },
};
