import { GuestStopped, type StopReason } from '../meter/call-meter.js';
import type { Limits } from '../limits.js';
import type { EngineLogs, EngineOutcome } from '../outcome.js';
import { isAnswerTooLarge, isHostCallLimit } from '../wasi/host-calls.js';
import { ResourceLimit, type CallResources } from '../wasi/resources.js';
import { GuestExit } from '../wasi/wasi-error.js';
import { Wasm } from '../wasm-api.js';
import { AbiViolation, isResultTooLarge } from './abi.js';

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The glue's strict UTF-8 decoder refused a string the guest returned (compile/glue-patch.ts). */
function isInvalidUtf8(error: unknown): boolean {
  return error instanceof TypeError && (error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA';
}

/** Why the meter stopped a guest, in words. */
export function stopMessage(reason: StopReason, phase: 'call' | 'instantiate', limits: Limits): string {
  if (reason === 'fuel') return `the guest ran out of its fuel (${limits.fuel ?? 0} units) and was stopped`;
  return phase === 'instantiate'
    ? `the component could not be instantiated within its deadline (${limits.deadlineMs} ms): a start function did not return in time`
    : `the guest did not return within its deadline (${limits.deadlineMs} ms) and was stopped`;
}

/** What the instance knew when a call threw. */
export interface FailureContext {
  readonly stopped: StopReason | undefined;
  readonly memoryRefused: boolean;
  readonly resources: CallResources;
  readonly limits: Limits;
  readonly logs: EngineLogs;
}

/**
 * What a call that threw comes to — the one place exceptions from a guest's call become outcomes: the
 * meter's stop (or a guest that caught it) is a timeout; a refusal of the sandbox is a limit; a
 * string that is not UTF-8 or a broken canonical ABI is an `abi` trap saying which rule; `wasi:cli/exit`
 * is an `exit` trap; a stack overflow (V8's RangeError) and a WebAssembly trap are what they are;
 * anything else thrown from the glue or the host on the guest's behalf is an `abi` trap.
 */
export function classifyFailure(error: unknown, context: FailureContext): EngineOutcome<never> {
  const { stopped, logs, limits } = context;
  if (stopped !== undefined || error instanceof GuestStopped) {
    const reason = stopped ?? 'deadline';
    return { type: 'timeout', reason, phase: 'call', message: stopMessage(reason, 'call', limits), logs };
  }
  if (isAnswerTooLarge(error) || isResultTooLarge(error)) {
    return { type: 'limit', what: 'result', bytes: error.bytes, message: `the guest's result holds ${error.bytes} bytes in one value (cap ${limits.resultBytes})`, logs };
  }
  if (isHostCallLimit(error)) return { type: 'limit', what: 'host-call', message: error.message, logs };
  if (error instanceof ResourceLimit || context.resources.exceeded) return { type: 'limit', what: 'resources', message: describe(error), logs };
  if (error instanceof AbiViolation) {
    return { type: 'trap', kind: 'abi', violation: error.violation, message: error.message, memoryAtLimit: false, logs };
  }
  if (isInvalidUtf8(error)) return { type: 'trap', kind: 'abi', violation: 'utf8', message: 'the guest returned a string that is not valid UTF-8', memoryAtLimit: false, logs };
  let kind: 'trap' | 'stack-overflow' | 'exit' | 'abi';
  if (error instanceof GuestExit) kind = 'exit';
  else if (error instanceof Wasm.RuntimeError) kind = 'trap';
  else if (error instanceof RangeError && /call stack/i.test(error.message)) kind = 'stack-overflow';
  else kind = 'abi';
  return { type: 'trap', kind, message: describe(error), memoryAtLimit: context.memoryRefused, logs };
}
