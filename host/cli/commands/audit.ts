import { writeFile } from 'node:fs/promises';
import { renderAuditHtml } from '../../audit/html.js';
import { summarizeAuditFile, type AuditSummary } from '../../audit/summary.js';
import { parseCommandArgs } from '../args.js';
import { formatAuditSummary } from '../audit-report.js';
import { EXIT_OK, EXIT_USAGE, type Command } from '../command.js';
import { write } from '../io.js';

const usage = `Usage: basis-hooks audit <audit.jsonl> [--html <page.html>] [--json]

Summarize an audit stream (written by --audit or a config's "audit"):
  per hook: calls, decisions by kind, failures by code, p50/p99 latency;
  per tool: chains, denies, rewritten inputs, replaced outputs.
Lines that are not audit events of a version this release reads (a line cut short by a crash,
another audit_schema) are skipped and counted.

Options:
      --html <file>     also write the summary as one self-contained HTML page (tables and a latency
                        histogram per hook; inline CSS and SVG, nothing loaded from anywhere)
      --json            print the summary as one JSON object instead of tables
  -h, --help            show this help

Exit status: 0 when the file was read; 2 for a usage error or a file that cannot be read or written.
`;

/** `basis-hooks audit`: what happened, per hook and per tool, over an audit stream. */
export const auditCommand: Command = {
  name: 'audit',
  summary: 'summarize an audit stream per hook and per tool (--html for a page)',
  usage,
  async run(args) {
    const parsed = parseCommandArgs(this, args, { html: { type: 'string' }, json: { type: 'boolean' } }, { min: 1, max: 1, what: '<audit.jsonl>' });
    if (typeof parsed === 'number') return parsed;
    const [file] = parsed.positionals as [string];
    const { html, json } = parsed.values;
    let summary: AuditSummary;
    try {
      summary = await summarizeAuditFile(file);
    } catch (error) {
      process.stderr.write(`basis-hooks audit: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return EXIT_USAGE;
    }
    if (html !== undefined) {
      try {
        await writeFile(html, renderAuditHtml(summary));
      } catch (error) {
        process.stderr.write(`basis-hooks audit: cannot write ${html}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
        return EXIT_USAGE;
      }
    }
    await write(process.stdout, json === true ? `${JSON.stringify(summary)}\n` : `${formatAuditSummary(summary)}${html === undefined ? '' : `\nwrote ${html}\n`}`);
    return EXIT_OK;
  },
};
