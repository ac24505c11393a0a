import type { HookEvent } from '../contract/event.js';
import type { HookFailure } from '../contract/failure.js';
import type { HookResponse } from '../contract/response.js';

/**
 * `modify` belongs to the event before the call and `replace` to the one after. A hook that answers
 * with the wrong one has not answered: it is a failure, never reinterpreted — reinterpreting would
 * give a guard powers it did not ask for.
 */
export function checkDecisionForEvent(response: HookResponse, event: HookEvent): HookFailure | undefined {
  if (event === 'pre_tool_use' && response.decision === 'replace') {
    return {
      code: 'wrong_decision_for_event',
      message: '"replace" rewrites a result and is only valid at post_tool_use; answered at pre_tool_use',
    };
  }
  if (event === 'post_tool_use' && response.decision === 'modify') {
    return {
      code: 'wrong_decision_for_event',
      message: '"modify" rewrites an input and is only valid at pre_tool_use; answered at post_tool_use (the tool has already run)',
    };
  }
  return undefined;
}
