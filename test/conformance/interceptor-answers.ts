/**
 * Each conformance behaviour as an in-process interceptor answers it: the in-process suite's hooks,
 * and the hooks other transports borrow for what they cannot express (see `TransportFixture.borrowed`).
 */
import type { HookRequest, HookResponse, JsonValue } from '../../host/index.js';
import { DENY_REASON, WRAPPED_REASON, type Behaviour } from './behaviours.js';

function isWrapped(value: JsonValue | undefined): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'wrapped' in value;
}

export function answer(behaviour: Behaviour, req: HookRequest): HookResponse | Promise<HookResponse> {
  switch (behaviour) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      return { decision: 'deny', reason: DENY_REASON };
    case 'modify-wrap':
      return { decision: 'modify', input: { wrapped: req.input }, reason: 'wrapped input' };
    case 'replace-wrap':
      return { decision: 'replace', output: { wrapped: req.event === 'post_tool_use' ? req.output : null }, reason: 'wrapped output' };
    case 'replace-error':
      return { decision: 'replace', output: 'replaced as error', is_error: true };
    case 'replace-ok':
      return { decision: 'replace', output: 'replaced as ok', is_error: false };
    case 'deny-if-wrapped':
      return isWrapped(req.event === 'pre_tool_use' ? req.input : req.output)
        ? { decision: 'deny', reason: WRAPPED_REASON }
        : { decision: 'allow' };
    case 'probe': {
      const seen = { hook_schema: req.hook_schema, event: req.event, has_output: 'output' in req, has_is_error: 'is_error' in req, input: req.input };
      return req.event === 'pre_tool_use'
        ? { decision: 'modify', input: seen }
        : { decision: 'replace', output: { ...seen, output: req.output, is_error: req.is_error } };
    }
    case 'empty-deny-reason':
      return { decision: 'deny', reason: '' };
    case 'malformed':
      return { decision: 'maybe' } as unknown as HookResponse;
    case 'hang':
      return new Promise<HookResponse>(() => {});
    case 'crash':
      throw new Error('interceptor crashed');
    case 'silent':
    case 'oversized':
      throw new Error(`behaviour ${behaviour} is not expressible in-process`);
  }
}
