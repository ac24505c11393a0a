/**
 * The audit stream's tools outside the runner: a file sink, and reading a stream back — a summary per
 * hook, per tool and per agent, and one self-contained HTML page to investigate it.
 */
export { openAuditFile, type AuditFileSink, type AuditFileOptions, type AuditFileStats } from './file-sink.js';
export {
  AuditSummarizer,
  summarizeAudit,
  summarizeAuditFile,
  type AuditSummary,
  type HookSummary,
  type ToolSummary,
  type Histogram,
  type SkippedLine,
  type AgentSummary,
  type LatencySplit,
} from './summary.js';
export { renderAuditHtml, type AuditHtmlOptions } from './html.js';
export { writeAuditPage, type AuditPageOptions } from './page.js';
export { percentile } from './stats.js';
