import { fromWitDecision } from '../../codec/wit.js';
import type { HookLogs, InvokeResult } from '../../runner/transport.js';
import type { GuestReply } from './guest-runner.js';
import type { FuelBudget } from './meter/fuel.js';

/** What the mapping needs to know about the hook. */
export interface ReplyContext {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly memoryMb: number;
  /** Metered isolation: the per-call budget. */
  readonly budget?: FuelBudget;
}

function budgetText(context: ReplyContext): string {
  const budget = context.budget;
  if (budget === undefined) return 'its budget';
  return budget.derived ? `its fuel (${budget.fuel} units, timeout_ms ${context.timeoutMs})` : `its fuel (${budget.fuel} units)`;
}

function logsOf(reply: GuestReply): HookLogs | undefined {
  if (!('logs' in reply)) return undefined;
  const { stdout, stderr } = reply.logs;
  if (stdout === undefined && stderr === undefined) return undefined;
  return { ...(stdout === undefined ? {} : { stdout }), ...(stderr === undefined ? {} : { stderr }) };
}

/**
 * The one place where what happened to a component call becomes the contract's result: a decision
 * goes through the codec (JSON text, output cap, response schema); `err(msg)` is `guest_error`; a trap
 * is `trap` — or `memory_limit` when a memory was at its cap; a deadline is `timeout`, and so is a
 * metered guest that ran out of fuel (the metered form of the deadline); a worker that
 * died is `memory_limit` when it ran out of heap, else `internal_error`; a component that cannot be
 * instantiated is `load_failed`. Captured stdout/stderr ride along for the trail.
 */
export function toInvokeResult(reply: GuestReply, context: ReplyContext): InvokeResult {
  const logs = logsOf(reply);
  const withLogs = (result: InvokeResult): InvokeResult => (logs === undefined ? result : { ...result, logs });
  switch (reply.type) {
    case 'result': {
      const decoded = fromWitDecision(reply.decision, context.maxOutputBytes);
      return withLogs(decoded.ok ? { ok: true, response: decoded.value } : { ok: false, failure: decoded.failure });
    }
    case 'guest-error':
      return withLogs({ ok: false, failure: { code: 'guest_error', message: `the guest returned err: ${reply.message}` } });
    case 'too-large':
      return withLogs({ ok: false, failure: { code: 'output_too_large', message: `the guest returned ${reply.bytes} bytes (cap ${context.maxOutputBytes})` } });
    case 'trap': {
      if (reply.memoryAtLimit) {
        return withLogs({ ok: false, failure: { code: 'memory_limit', message: `the guest exhausted its memory (cap ${context.memoryMb} MiB) and trapped: ${reply.message}` } });
      }
      const what = {
        trap: 'the guest trapped',
        'stack-overflow': 'the guest overflowed its stack',
        exit: 'the guest exited instead of answering',
        abi: 'the guest broke the canonical ABI',
      }[reply.kind];
      return withLogs({ ok: false, failure: { code: 'trap', message: `${what}: ${reply.message}` } });
    }
    case 'out-of-fuel':
      return withLogs({ ok: false, failure: { code: 'timeout', message: `the guest ran out of ${budgetText(context)} and was stopped: ${reply.message}` } });
    case 'timeout':
      return { ok: false, failure: { code: 'timeout', message: `the guest did not answer within ${context.timeoutMs} ms; its worker was stopped` } };
    case 'aborted':
      return { ok: false, failure: { code: 'timeout', message: `the guest was stopped: ${reply.why}` } };
    case 'crashed':
      return reply.outOfMemory
        ? { ok: false, failure: { code: 'memory_limit', message: reply.message } }
        : { ok: false, failure: { code: 'internal_error', message: reply.message } };
    case 'unavailable':
      return { ok: false, failure: { code: 'load_failed', message: reply.message } };
  }
}
