/**
 * The audit stream's tools outside the runner: a file sink, and reading a stream back — a summary per
 * hook and per tool, and that summary as one self-contained HTML page.
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
} from './summary.js';
export { renderAuditHtml, type AuditHtmlOptions } from './html.js';
export { percentile } from './stats.js';
