import type { AuditEvent } from '../contract/audit.js';
import type { HookDecision } from '../contract/response.js';

/**
 * The audit page's investigation table, built while the stream is read: one row per notable hook
 * decision — every deny, modify, replace and failure (a shadow's too, marked) — and one per call whose
 * chain had none of those (an allowed call, so "what did this agent try" has its whole answer). Rows
 * are handed out in chunks as they are made, so a stream of any size is never held; only the strings
 * that repeat (agents, workspaces, tools, hooks, reasons) are kept, once each, in a table the rows
 * index.
 */

/** A row: `[time, agent, workspace, tool, event, hook, decision, flags, reason, call id, failure code]`. */
export type Row = [number, number, number, number, 0 | 1, number, number, number, number, string, number];

/** Row flags. */
export const FLAG = { shadow: 1, failure: 2, cold: 4 } as const;
/** Decisions by their row code. */
export const DECISION_CODES: readonly HookDecision[] = ['allow', 'deny', 'modify', 'replace'];
const CODE: Readonly<Record<HookDecision, number>> = { allow: 0, deny: 1, modify: 2, replace: 3 };

/** Longest reason kept in a row (a reason can quote a whole input). */
export const MAX_REASON_CHARS = 600;
/** Rows per chunk handed out. */
export const CHUNK_ROWS = 5000;
/** Chains whose end has not been read yet, at most (a stream cut short leaves some open). */
const MAX_OPEN = 100_000;

function clip(text: string): string {
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS)}…`;
}

export class RowCollector {
  readonly #strings: string[] = [];
  readonly #index = new Map<string, number>();
  readonly #onChunk: (rows: readonly Row[]) => void;
  #chunk: Row[] = [];
  #rows = 0;
  /** Chains that have had a notable row (so their end makes no allow row). */
  readonly #noted = new Set<string>();
  #last = Number.NEGATIVE_INFINITY;

  constructor(onChunk: (rows: readonly Row[]) => void) {
    this.#onChunk = onChunk;
  }

  /** Rows made so far. */
  get rows(): number {
    return this.#rows;
  }

  /** The latest event time seen (ms since the epoch), for "the last hour of the stream". */
  get last(): number {
    return this.#last;
  }

  /** The interned strings, in index order. */
  get strings(): readonly string[] {
    return this.#strings;
  }

  event(event: AuditEvent): void {
    const time = Date.parse(event.time);
    if (Number.isFinite(time) && time > this.#last) this.#last = time;
    const key = `${event.event}\u0000${event.tool_call_id}\u0000${event.agent_id}\u0000${event.workspace}`;
    if (event.type === 'hook_decided') {
      const failed = event.failure !== undefined;
      if (event.decision === 'allow' && !failed) return;
      let flags = 0;
      if (event.shadow) flags |= FLAG.shadow;
      if (failed) flags |= FLAG.failure;
      if (event.cold === true) flags |= FLAG.cold;
      const reason = failed ? `${event.failure?.code ?? ''}: ${event.failure?.message ?? ''}` : (event.reason ?? '');
      this.#push([time, this.#id(event.agent_id), this.#id(event.workspace), this.#id(event.tool_name), event.event === 'pre_tool_use' ? 0 : 1, this.#id(event.hook), CODE[event.decision], flags, reason === '' ? -1 : this.#id(clip(reason)), event.tool_call_id, failed ? this.#id(event.failure?.code ?? '') : -1]);
      if (!event.shadow && this.#noted.size < MAX_OPEN) this.#noted.add(key);
    } else if (event.type === 'chain_decided') {
      if (this.#noted.delete(key)) return;
      const decision: HookDecision = event.decision === 'deny' ? 'deny' : 'allow';
      const reason = event.reason === undefined ? -1 : this.#id(clip(event.reason));
      this.#push([time, this.#id(event.agent_id), this.#id(event.workspace), this.#id(event.tool_name), event.event === 'pre_tool_use' ? 0 : 1, -1, CODE[decision], 0, reason, event.tool_call_id, -1]);
    }
  }

  /** Hand out the rows not yet handed out. */
  flush(): void {
    if (this.#chunk.length === 0) return;
    const chunk = this.#chunk;
    this.#chunk = [];
    this.#onChunk(chunk);
  }

  #push(row: Row): void {
    this.#chunk.push(row);
    this.#rows += 1;
    if (this.#chunk.length >= CHUNK_ROWS) this.flush();
  }

  #id(text: string): number {
    let id = this.#index.get(text);
    if (id === undefined) {
      id = this.#strings.length;
      this.#strings.push(text);
      this.#index.set(text, id);
    }
    return id;
  }
}
