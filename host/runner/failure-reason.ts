import type { HookEvent } from '../contract/event.js';
import { FAILURE_DESCRIPTIONS, type FailureCode } from '../contract/failure.js';

/**
 * What the model is told when a hook failed closed: the hook's name, the failure code and the code's
 * fixed description — nothing the hook produced. A failure's message can quote stderr, stdout, a
 * stack trace, host paths or the request itself; it stays in the trail (for operators), never in
 * front of the model (which the hook's output may be trying to reach).
 *
 * @example
 * failureReason('guard', 'timeout', 'pre_tool_use')
 * // → 'hook "guard" failed (timeout: the hook did not answer in time); the call was denied (fail closed)'
 */
export function failureReason(hook: string, code: FailureCode, event: HookEvent): string {
  const what = event === 'pre_tool_use' ? 'the call was denied' : 'the output was withheld';
  return `hook ${JSON.stringify(hook)} failed (${code}: ${FAILURE_DESCRIPTIONS[code]}); ${what} (fail closed)`;
}
