import { readFile } from 'node:fs/promises';
import { armConfig } from '../../config/arm.js';
import { checkConfig } from '../../config/check.js';
import { loadConfig } from '../../config/load.js';
import { parseCases } from '../../cases/parse.js';
import { openCliAudit } from '../audit-option.js';
import { formatArm, formatCheck } from '../check-report.js';
import { EXIT_OK, EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { write } from '../io.js';
import { EXIT_FAILED } from '../kit-errors.js';
import { describeError } from '../report.js';

const usage = `Usage: basis-hooks check --config <hooks.json> [--json]
       basis-hooks check --config <hooks.json> --agent <name>
       basis-hooks check --config <hooks.json> --cases <canaries.jsonl> [--warm <n>] [--audit <file>] [--json]

Validate a config and verify that every hook can start, without running any:
  - a command's program is an executable on PATH (argv[0], or the first word of a shell string);
  - every argument naming a script file (.py, .mjs, .sh, ... or a path starting with / ./ ../)
    exists; relative ones are looked up beside the config;
  - a component loads;
  - a pinned hook's file has its sha256.
What cannot be known before a call (a path in the call's workspace, a shell string's pipes,
substitutions and globs) is a warning, not a failure. Each hook's sha256 is printed
("basis-hooks pin" writes them into the config).

With --cases, arm the config before a deployment: load every hook, then run the canary cases
through the real chain (every hook of the call's event, in order, with tools, policies, modes and
the budget). Cases use the format of "basis-hooks test": a case naming a "hook" is about that hook's
answer inside the chain; one without is about the chain's outcome (allow, modify with the final
input, replace with the final output, deny with the reason the model is told) — as "basis-hooks test
--config" judges it too when the config has several hooks. A hook passes when it loads, some canary
reaches it, it never fails where no case expected it to, and its cases pass.
Printed per hook: loads (and load time), cases passed, calls answered, first-call and warm latency.

With --agent, also list which of the chain's possible decisions that agent CLI can honour (a rewrite
Qwen Code cannot apply is blocked; a replaced result Kiro cannot apply is not enforced...); exit 1
when one of them is not enforced.

Options:
  -c, --config <file>   the hooks.json to check (required)
      --agent <name>    claude-code, codex, gemini, copilot, qwen, cline, cursor, windsurf or kiro
      --cases <file>    canary cases (JSON lines; blank lines and lines starting with # or // skipped)
      --warm <n>        extra passes over the cases to measure warm latency (default 2); every pass
                        must pass
      --audit <file>    append the canaries' audit stream to this file (the config's own "audit"
                        file is not written: canaries are not live traffic)
      --json            print the report as one JSON object
  -h, --help            show this help

Output: one line per hook: "ok", or the failure code and message; "warn" lines under it.
Exit status: 0 when every hook can start (and, with --cases, answers and every canary passes);
1 when a canary failed or a hook did not answer; 2 when a hook cannot start or load (a pin
mismatch included), or for a usage error or an invalid config or cases file.
`;

/** `basis-hooks check`: is this config valid, can every hook start — and, with cases, does each answer? */
export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a config, verify every hook starts, print digests; --cases runs canaries',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, {
      config: { type: 'string', short: 'c' },
      cases: { type: 'string' },
      warm: { type: 'string' },
      audit: { type: 'string' },
      json: { type: 'boolean' },
      agent: { type: 'string' },
    });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, cases: casesFile, warm, audit: auditFile, json, agent } = parsed.values;
    const { isAgentName, AGENT_NAMES } = await import('../../integrations/agents/names.js');
    if (agent !== undefined && !isAgentName(agent)) return usageError(this, `--agent must be one of ${AGENT_NAMES.join(', ')}`);
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');
    if (casesFile === undefined && (warm !== undefined || auditFile !== undefined)) return usageError(this, '--warm and --audit need --cases');
    const warmPasses = warm === undefined ? undefined : Number(warm);
    if (warmPasses !== undefined && (!Number.isInteger(warmPasses) || warmPasses < 0 || warmPasses > 1000)) {
      return usageError(this, `--warm must be a whole number from 0 to 1000 (got ${JSON.stringify(warm)})`);
    }

    let config;
    try {
      config = await loadConfig(configFile);
    } catch (error) {
      process.stderr.write(describeError(error));
      return EXIT_USAGE;
    }

    if (casesFile === undefined) {
      const report = await checkConfig(config);
      let agentText = '';
      let enforced = true;
      if (agent !== undefined && isAgentName(agent)) {
        const { agentCheck } = await import('../agent-check.js');
        const result = agentCheck(config, agent);
        agentText = `\n${result.text}`;
        enforced = result.enforced;
      }
      await write(process.stdout, json === true ? `${JSON.stringify(report)}\n` : `${formatCheck(report, configFile)}${agentText}`);
      if (!report.ok) return EXIT_USAGE;
      return enforced ? EXIT_OK : EXIT_FAILED;
    }

    let text: string;
    try {
      text = await readFile(casesFile, 'utf8');
    } catch (error) {
      process.stderr.write(`basis-hooks check: cannot read ${casesFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return EXIT_USAGE;
    }
    const cases = parseCases(text, casesFile);
    if (!cases.ok) {
      process.stderr.write(`basis-hooks check: invalid cases (none was run)\n${cases.problems.map((p) => `  ${p}\n`).join('')}`);
      return EXIT_USAGE;
    }
    const audit = await openCliAudit(this.name, auditFile);
    if (typeof audit === 'string') return usageError(this, audit);
    let report;
    let audited = true;
    try {
      report = await armConfig(config, cases.cases, {
        ...(warmPasses === undefined ? {} : { warm_passes: warmPasses }),
        ...(audit.sink === undefined ? {} : { audit: audit.sink }),
      });
    } finally {
      audited = await audit.finish();
    }
    if (json === true) await write(process.stdout, `${JSON.stringify({ ...report, cases_file: casesFile })}\n`);
    else await write(process.stdout, `basis-hooks check: ${configFile}, ${report.hooks.length} hook(s), ${cases.cases.length} canar${cases.cases.length === 1 ? 'y' : 'ies'} from ${casesFile}\n\n${formatArm(report, casesFile)}`);
    if (report.hooks.some((h) => !h.loaded)) return EXIT_USAGE;
    return report.ok && audited ? EXIT_OK : EXIT_FAILED;
  },
};
