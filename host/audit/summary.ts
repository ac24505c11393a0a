import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AUDIT_SCHEMA_VERSION, AuditEvent, GatewayAuditEvent } from '../contract/audit.js';
import type { HookDecision } from '../contract/response.js';
import type { FailureCode } from '../contract/failure.js';
import { percentile } from './stats.js';

/** Latency counts in logarithmic bins: `counts[i]` calls took from `edges_ms[i]` up to `edges_ms[i + 1]` ms. */
export interface Histogram {
  readonly edges_ms: readonly number[];
  readonly counts: readonly number[];
}

/** Latency of some of a hook's calls. */
export interface LatencySplit {
  readonly calls: number;
  readonly p50_ms: number | undefined;
  readonly p99_ms: number | undefined;
}

/** One hook across an audit stream. */
export interface HookSummary {
  readonly hook: string;
  /** `enforce`, `shadow`, or `mixed` when the stream has both (its mode changed). */
  readonly mode: 'enforce' | 'shadow' | 'mixed';
  readonly calls: number;
  /** What took effect (for a failed hook its policy's decision; for a shadow what it would have done). */
  readonly decisions: Readonly<Record<HookDecision, number>>;
  readonly failures: Readonly<Partial<Record<FailureCode, number>>>;
  readonly p50_ms: number | undefined;
  readonly p99_ms: number | undefined;
  readonly max_ms: number | undefined;
  /**
   * Its cold starts — its first call in each runner (`cold` in the stream): a process's first chain,
   * a component's first instance — apart from its warm calls, which are what a resident host pays.
   */
  readonly cold: LatencySplit;
  readonly warm: LatencySplit;
  readonly histogram: Histogram;
}

/** One agent across an audit stream: what its calls' chains decided. */
export interface AgentSummary {
  readonly agent: string;
  readonly chains: number;
  readonly denied: number;
  readonly modified: number;
  readonly replaced: number;
  /** Hook failures in its calls (whatever their policy decided). */
  readonly failures: number;
  /** Distinct tools and workspaces it used. */
  readonly tools: number;
  readonly workspaces: number;
}

/** One tool across an audit stream: what its calls' chains decided. */
export interface ToolSummary {
  readonly tool: string;
  /** Chains decided for the tool (a call seen before and after it counts twice). */
  readonly chains: number;
  readonly denied: number;
  /** pre_tool_use chains whose input a hook rewrote. */
  readonly modified: number;
  /** post_tool_use chains whose output a hook replaced. */
  readonly replaced: number;
}

/** A line of the stream that was not read, and why. */
export interface SkippedLine {
  readonly line: number;
  readonly problem: string;
}

/** What {@link summarizeAudit} found. */
export interface AuditSummary {
  readonly source: string;
  readonly events: number;
  readonly chains: number;
  /** The first and last event's time. */
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly hooks: readonly HookSummary[];
  readonly tools: readonly ToolSummary[];
  /** Per agent, the most refused first. */
  readonly agents: readonly AgentSummary[];
  /** Lines not read: not JSON, not an event, or another `audit_schema` (at most the first 20 kept). */
  readonly skipped: readonly SkippedLine[];
  readonly skipped_count: number;
}

/** 4 bins per decade from 1 µs to 100 s: fine enough to tell a spawn from an in-thread call. */
const EDGES_MS: readonly number[] = Array.from({ length: 33 }, (_, i) => Number((10 ** (-3 + i / 4)).toPrecision(3)));
const KEPT_SKIPS = 20;
const MIN_BINS = 8;

interface HookAcc {
  readonly ms: number[];
  /** The latencies of the calls marked cold (a subset of `ms`). */
  readonly coldMs: number[];
  readonly decisions: Record<HookDecision, number>;
  readonly failures: Partial<Record<FailureCode, number>>;
  shadow: number;
  enforce: number;
}

/**
 * Folds audit events into per-hook and per-tool figures, one line at a time (a stream of any size
 * is read without holding it; only each hook's latencies are kept, for the percentiles).
 */
export class AuditSummarizer {
  readonly #source: string;
  readonly #hooks = new Map<string, HookAcc>();
  readonly #tools = new Map<string, { chains: number; denied: number; modified: number; replaced: number }>();
  readonly #agents = new Map<string, { chains: number; denied: number; modified: number; replaced: number; failures: number; tools: Set<string>; workspaces: Set<string> }>();
  readonly #skipped: SkippedLine[] = [];
  #skippedCount = 0;
  #events = 0;
  #chains = 0;
  #from: string | undefined;
  #to: string | undefined;
  #line = 0;

  constructor(source: string) {
    this.#source = source;
  }

  /** Read one line of the stream (blank lines are skipped). */
  line(text: string): void {
    this.#line += 1;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#skip('not JSON (a line cut short?)');
      return;
    }
    const version = (value as { audit_schema?: unknown } | null)?.audit_schema;
    if (version !== AUDIT_SCHEMA_VERSION) {
      this.#skip(`audit_schema ${JSON.stringify(version)} is not one this version reads (${AUDIT_SCHEMA_VERSION})`);
      return;
    }
    // The MCP gateway's own events (tool definitions, refused calls) are in the stream, not in the summary.
    if (GatewayAuditEvent.safeParse(value).success) return;
    const parsed = AuditEvent.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.#skip(`not an audit event (${issue === undefined ? 'invalid' : `${issue.path.join('.') || 'event'}: ${issue.message}`})`);
      return;
    }
    this.event(parsed.data);
  }

  /** Fold one (validated) event in. */
  event(event: AuditEvent): void {
    this.#events += 1;
    if (this.#from === undefined || event.time < this.#from) this.#from = event.time;
    if (this.#to === undefined || event.time > this.#to) this.#to = event.time;
    if (event.type === 'hook_decided') {
      let acc = this.#hooks.get(event.hook);
      if (acc === undefined) {
        acc = { ms: [], coldMs: [], decisions: { allow: 0, deny: 0, modify: 0, replace: 0 }, failures: {}, shadow: 0, enforce: 0 };
        this.#hooks.set(event.hook, acc);
      }
      acc.ms.push(event.ms);
      if (event.cold === true) acc.coldMs.push(event.ms);
      if (event.failure !== undefined) this.#agent(event.agent_id).failures += 1;
      acc.decisions[event.decision] += 1;
      if (event.failure !== undefined) acc.failures[event.failure.code] = (acc.failures[event.failure.code] ?? 0) + 1;
      if (event.shadow) acc.shadow += 1;
      else acc.enforce += 1;
    } else if (event.type === 'chain_decided') {
      this.#chains += 1;
      let tool = this.#tools.get(event.tool_name);
      if (tool === undefined) {
        tool = { chains: 0, denied: 0, modified: 0, replaced: 0 };
        this.#tools.set(event.tool_name, tool);
      }
      tool.chains += 1;
      if (event.decision === 'deny') tool.denied += 1;
      if (event.modified === true) tool.modified += 1;
      if (event.replaced === true) tool.replaced += 1;
      const agent = this.#agent(event.agent_id);
      agent.chains += 1;
      if (event.decision === 'deny') agent.denied += 1;
      if (event.modified === true) agent.modified += 1;
      if (event.replaced === true) agent.replaced += 1;
      agent.tools.add(event.tool_name);
      agent.workspaces.add(event.workspace);
    }
  }

  #agent(name: string): { chains: number; denied: number; modified: number; replaced: number; failures: number; tools: Set<string>; workspaces: Set<string> } {
    let agent = this.#agents.get(name);
    if (agent === undefined) {
      agent = { chains: 0, denied: 0, modified: 0, replaced: 0, failures: 0, tools: new Set(), workspaces: new Set() };
      this.#agents.set(name, agent);
    }
    return agent;
  }

  summary(): AuditSummary {
    const hooks = [...this.#hooks.entries()]
      .map(([hook, acc]): HookSummary => ({
        hook,
        mode: acc.shadow === 0 ? 'enforce' : acc.enforce === 0 ? 'shadow' : 'mixed',
        calls: acc.ms.length,
        decisions: acc.decisions,
        failures: acc.failures,
        p50_ms: percentile(acc.ms, 50),
        p99_ms: percentile(acc.ms, 99),
        max_ms: acc.ms.length === 0 ? undefined : acc.ms.reduce((a, b) => Math.max(a, b)),
        cold: split(acc.coldMs),
        warm: split(warmOf(acc)),
        histogram: histogram(acc.ms),
      }))
      .sort((a, b) => b.calls - a.calls || a.hook.localeCompare(b.hook));
    const tools = [...this.#tools.entries()]
      .map(([tool, t]): ToolSummary => ({ tool, ...t }))
      .sort((a, b) => b.denied + b.modified + b.replaced - (a.denied + a.modified + a.replaced) || b.chains - a.chains || a.tool.localeCompare(b.tool));
    const agents = [...this.#agents.entries()]
      .map(([agent, a]): AgentSummary => ({ agent, chains: a.chains, denied: a.denied, modified: a.modified, replaced: a.replaced, failures: a.failures, tools: a.tools.size, workspaces: a.workspaces.size }))
      .sort((a, b) => b.denied + b.failures - (a.denied + a.failures) || b.chains - a.chains || a.agent.localeCompare(b.agent));
    return {
      source: this.#source,
      events: this.#events,
      chains: this.#chains,
      from: this.#from,
      to: this.#to,
      hooks,
      tools,
      agents,
      skipped: [...this.#skipped],
      skipped_count: this.#skippedCount,
    };
  }

  #skip(problem: string): void {
    this.#skippedCount += 1;
    if (this.#skipped.length < KEPT_SKIPS) this.#skipped.push({ line: this.#line, problem });
  }
}

function split(ms: readonly number[]): LatencySplit {
  return { calls: ms.length, p50_ms: percentile(ms, 50), p99_ms: percentile(ms, 99) };
}

/** The warm calls' latencies: every call's but the cold ones (each cold value taken out once). */
function warmOf(acc: HookAcc): number[] {
  if (acc.coldMs.length === 0) return acc.ms;
  const cold = new Map<number, number>();
  for (const ms of acc.coldMs) cold.set(ms, (cold.get(ms) ?? 0) + 1);
  return acc.ms.filter((ms) => {
    const left = cold.get(ms) ?? 0;
    if (left === 0) return true;
    cold.set(ms, left - 1);
    return false;
  });
}

/** Latencies in the fixed logarithmic bins, trimmed to the bins from the first to the last used. */
function histogram(ms: readonly number[]): Histogram {
  const counts = new Array<number>(EDGES_MS.length + 1).fill(0);
  for (const value of ms) {
    let bin = EDGES_MS.findIndex((edge) => value < edge); // bin i: below EDGES_MS[i]
    if (bin === -1) bin = EDGES_MS.length;
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  const first = counts.findIndex((c) => c > 0);
  if (first === -1) return { edges_ms: [], counts: [] };
  let last = counts.length - 1;
  while ((counts[last] ?? 0) === 0) last -= 1;
  // At least two decades wide, so one busy bin does not fill the whole chart and read as a spread.
  let from = first;
  while (last - from + 1 < MIN_BINS) {
    if (last < counts.length - 1) last += 1;
    if (last - from + 1 < MIN_BINS && from > 0) from -= 1;
  }
  // Bin i spans [EDGES_MS[i-1], EDGES_MS[i]); the open ends are 0 and Infinity.
  const edge = (i: number): number => (i <= 0 ? 0 : i > EDGES_MS.length ? Infinity : (EDGES_MS[i - 1] as number));
  const edges_ms: number[] = [];
  for (let i = from; i <= last + 1; i++) edges_ms.push(edge(i));
  return { edges_ms, counts: counts.slice(from, last + 1) };
}

/** Summarize the text of an audit stream (JSON lines). */
export function summarizeAudit(text: string, source = '<audit>'): AuditSummary {
  const summarizer = new AuditSummarizer(source);
  for (const line of text.split('\n')) summarizer.line(line);
  return summarizer.summary();
}

/** Summarize an audit file, reading it line by line. Rejects when it cannot be read (ENOENT...). */
export async function summarizeAuditFile(file: string): Promise<AuditSummary> {
  const summarizer = new AuditSummarizer(file);
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  await opened;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) summarizer.line(line);
  return summarizer.summary();
}

