import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { writeAuditPage } from '../../audit/page.js';
import { summarizeAuditFile, type AuditSummary } from '../../audit/summary.js';
import { parseCommandArgs } from '../args.js';
import { formatAuditSummary } from '../audit-report.js';
import { EXIT_OK, EXIT_USAGE, type Command } from '../command.js';
import { write } from '../io.js';

const usage = `Usage: basis-hooks audit <audit.jsonl> [--html <page.html>] [--json]

Summarize an audit stream (written by --audit or a config's "audit"):
  per hook: calls, decisions by kind, failures by code, p50/p99 latency (warm and cold apart);
  per tool: chains, denies, rewritten inputs, replaced outputs;
  per agent: chains, denies, rewrites, hook failures, tools used.
Lines that are not audit events of a version this release reads (a line cut short by a crash,
another audit_schema) are skipped and counted.

Options:
      --html <file>     also write one self-contained HTML page to investigate the stream: the
                        summary, a timeline of calls by decision, and a table of every deny,
                        modify, replace and hook failure (and every allowed call) to filter by
                        agent, workspace, tool, hook, decision, time window and text. Nothing is
                        loaded from anywhere; the page's one script runs offline. The stream is
                        read once, never held whole (a stream of hundreds of MB is fine)
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
    if (html === undefined) {
      try {
        summary = await summarizeAuditFile(file);
      } catch (error) {
        process.stderr.write(`basis-hooks audit: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
        return EXIT_USAGE;
      }
    } else {
      const page = await writePage(file, html);
      if (typeof page === 'string') {
        process.stderr.write(`basis-hooks audit: ${page}\n`);
        return EXIT_USAGE;
      }
      summary = page;
    }
    await write(process.stdout, json === true ? `${JSON.stringify(summary)}\n` : `${formatAuditSummary(summary)}${html === undefined ? '' : `\nwrote ${html}\n`}`);
    return EXIT_OK;
  },
};

/** Read the stream once, writing the page as it goes; a sentence when either file fails. */
async function writePage(file: string, html: string): Promise<AuditSummary | string> {
  const input = createReadStream(file, { encoding: 'utf8' });
  try {
    await new Promise<void>((resolve, reject) => {
      input.once('open', () => resolve());
      input.once('error', reject);
    });
  } catch (error) {
    return `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  let handle;
  try {
    handle = await open(html, 'w');
  } catch (error) {
    input.destroy();
    return `cannot write ${html}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  const out = handle.createWriteStream();
  const failed = new Promise<never>((_, reject) => {
    out.once('error', reject);
    input.once('error', reject);
  });
  failed.catch(() => undefined);
  try {
    const summary = await Promise.race([writeAuditPage(createInterface({ input, crlfDelay: Infinity }), file, out), failed]);
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return summary;
  } catch (error) {
    input.destroy();
    out.destroy();
    return `cannot write ${html} from ${file}: ${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`;
  }
}
