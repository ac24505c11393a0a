import { fromWitDecision } from '../../codec/wit.js';
import type { HookFailure } from '../../contract/failure.js';
import type { HookLogs, InvokeResult } from '../../runner/transport.js';
import type { GuestReply } from '../../engine/executor/executor.js';

/** What the mapping needs to know about the hook. */
export interface ReplyContext {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly memoryMb: number;
}

function logsOf(reply: GuestReply): HookLogs | undefined {
  if (!('logs' in reply)) return undefined;
  const { stdout, stderr } = reply.logs;
  if (stdout === undefined) return stderr === undefined ? undefined : { stderr };
  return stderr === undefined ? { stdout } : { stdout, stderr };
}

/** A failure with the call's logs when it has some (literals: this is on every failed call). */
function failed(failure: HookFailure, logs: HookLogs | undefined): InvokeResult {
  return logs === undefined ? { ok: false, failure } : { ok: false, failure, logs };
}

/**
 * The one place where what happened to a component call becomes the contract's result: a decision
 * goes through the codec (JSON text, output cap, response schema); `err(msg)` is `guest_error`; a trap
 * is `trap` — or `memory_limit` when the guest was refused memory in that call; a guest stopped by its
 * meter (deadline or fuel), a worker past its deadline, or a component that could not be instantiated
 * within the call's deadline is `timeout`; going over the memory cap at instantiation or holding too
 * many WASI resources is `memory_limit`; a string that is not UTF-8 is `malformed_response`; a worker
 * that died is `memory_limit` when it ran out of heap, else `internal_error`; a component that cannot
 * be instantiated at all is `load_failed`. Captured stdout/stderr ride along for the trail.
 */
export function toInvokeResult(reply: GuestReply, context: ReplyContext): InvokeResult {
  const logs = logsOf(reply);
  switch (reply.type) {
    case 'result': {
      const decoded = fromWitDecision(reply.decision, context.maxOutputBytes);
      if (!decoded.ok) return failed(decoded.failure, logs);
      return logs === undefined ? { ok: true, response: decoded.value } : { ok: true, response: decoded.value, logs };
    }
    case 'guest-error':
      return failed({ code: 'guest_error', message: `the guest returned err: ${reply.message}` }, logs);
    case 'too-large':
      return failed({ code: 'output_too_large', message: `the guest returned ${reply.bytes} bytes (cap ${context.maxOutputBytes})` }, logs);
    case 'trap': {
      if (reply.memoryAtLimit) {
        return failed({ code: 'memory_limit', message: `the guest exhausted its memory (cap ${context.memoryMb} MiB) and trapped: ${reply.message}` }, logs);
      }
      const what = {
        trap: 'the guest trapped',
        'stack-overflow': 'the guest overflowed its stack',
        exit: 'the guest exited instead of answering',
        abi: 'the guest broke the canonical ABI',
      }[reply.kind];
      return failed({ code: 'trap', message: `${what}: ${reply.message}` }, logs);
    }
    case 'stopped':
      return failed({ code: 'timeout', message: reply.message }, logs);
    case 'limit':
      return failed({ code: 'memory_limit', message: reply.what === 'memory' ? `the component went over its memory cap (${context.memoryMb} MiB): ${reply.message}` : reply.message }, logs);
    case 'malformed':
      return failed({ code: 'malformed_response', message: reply.message }, logs);
    case 'refused':
      return { ok: false, failure: { code: 'load_failed', message: reply.message } };
    case 'timeout':
      return { ok: false, failure: { code: 'timeout', message: `the guest did not answer within its timeout_ms (${context.timeoutMs} ms)` } };
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
