import { fromWitDecision } from '../../codec/wit.js';
import type { HookFailure } from '../../contract/failure.js';
import type { EngineLogs, EngineOutcome } from '../../engine/outcome.js';
import type { HookLogs, InvokeResult } from '../../runner/transport.js';
import type { HookResult } from './binding.js';

/** What the mapping needs to know about the hook. */
export interface ReplyContext {
  /** The call's deadline (its `timeout_ms`, or less under a chain budget). */
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly memoryMb: number;
}

function logsOf(logs: EngineLogs): HookLogs | undefined {
  const { stdout, stderr } = logs;
  if (stdout === undefined) return stderr === undefined ? undefined : { stderr };
  return stderr === undefined ? { stdout } : { stdout, stderr };
}

/** A failure with the call's logs when it has some (literals: this is on every failed call). */
function failed(failure: HookFailure, logs: HookLogs | undefined): InvokeResult {
  return logs === undefined ? { ok: false, failure } : { ok: false, failure, logs };
}

const TRAPS = {
  trap: 'the guest trapped',
  'stack-overflow': 'the guest overflowed its stack',
  exit: 'the guest exited instead of answering',
  abi: 'the guest broke the canonical ABI',
} as const;

/**
 * The one place where what became of a component call (the engine's outcome) becomes the contract's
 * result: a decision goes through the codec (JSON text, output cap, response schema); `err(msg)` is
 * `guest_error`; an answer over `max_output_bytes` is `output_too_large`; a trap is `trap` — or
 * `memory_limit` when the guest was refused memory in that call — and a string that is not UTF-8
 * `malformed_response` (as from a subprocess); a stop at the deadline or out of fuel, a worker past
 * its deadline, a call given up, or an instance that could not be made within the call's deadline is
 * `timeout`; over the memory cap, the resources a guest may hold or what a host call takes is
 * `memory_limit`; a worker that died is `internal_error`; a component that cannot be instantiated at
 * all is `load_failed`. Captured stdout/stderr ride along for the trail.
 */
export function toInvokeResult(outcome: EngineOutcome<HookResult>, context: ReplyContext): InvokeResult {
  const logs = logsOf(outcome.logs);
  switch (outcome.type) {
    case 'ok': {
      const result = outcome.value;
      if (result.tag === 'err') return failed({ code: 'guest_error', message: `the guest returned err: ${result.message}` }, logs);
      if (result.tag === 'too-large') return failed({ code: 'output_too_large', message: `the guest returned ${result.bytes} bytes (cap ${context.maxOutputBytes})` }, logs);
      const decoded = fromWitDecision(result.decision, context.maxOutputBytes);
      if (!decoded.ok) return failed(decoded.failure, logs);
      return logs === undefined ? { ok: true, response: decoded.value } : { ok: true, response: decoded.value, logs };
    }
    case 'trap':
      if (outcome.kind === 'crash') return failed({ code: 'internal_error', message: outcome.message }, logs);
      if (outcome.violation === 'utf8') return failed({ code: 'malformed_response', message: `the guest returned a string that is not valid UTF-8 (${outcome.message})` }, logs);
      if (outcome.memoryAtLimit) {
        return failed({ code: 'memory_limit', message: `the guest exhausted its memory (cap ${context.memoryMb} MiB) and trapped: ${outcome.message}` }, logs);
      }
      return failed({ code: 'trap', message: `${TRAPS[outcome.kind]}: ${outcome.message}` }, logs);
    case 'timeout':
      if (outcome.reason === 'fuel' || outcome.phase === 'instantiate') return failed({ code: 'timeout', message: outcome.message }, logs);
      return failed({ code: 'timeout', message: outcome.reason === 'aborted' ? outcome.message : `the guest did not answer within its timeout_ms (${context.timeoutMs} ms)` }, logs);
    case 'limit':
      if (outcome.what === 'result') return failed({ code: 'output_too_large', message: `the guest returned ${outcome.bytes ?? 'more'} bytes in one value (cap ${context.maxOutputBytes})` }, logs);
      return failed({ code: 'memory_limit', message: outcome.what === 'memory' ? `the component went over its memory cap (${context.memoryMb} MiB): ${outcome.message}` : outcome.message }, logs);
    case 'load-failure':
      return { ok: false, failure: { code: 'load_failed', message: outcome.message } };
  }
}
