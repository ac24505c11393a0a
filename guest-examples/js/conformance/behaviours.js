/**
 * The conformance behaviours (test/conformance/behaviours.ts) as one JavaScript function over the wire
 * contract's own shapes: the request as the glue hands it over, the answer as `{decision, ...}`.
 * `by-env.js` picks the behaviour per call from the granted environment.
 *
 * Two behaviours come out differently from the other languages, because JavaScript hooks answer
 * through the glue (guest-examples/js/glue/hook.js): `malformed` cannot reach the host as text that
 * is not JSON (the glue writes every value as JSON) — the glue refuses a wrong shape itself, a
 * `guest_error` — and `crash` throws, which the glue turns into `err` (`guest_error`) under both
 * engines instead of a trap.
 */

const DENY_REASON = 'denied by conformance hook';
const WRAPPED_REASON = 'saw a wrapped value';
/** Over the suite's 64 KiB output cap. */
const OVERSIZED_REASON = 'x'.repeat(80 * 1024);

function isWrapped(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'wrapped' in value;
}

/** What the request looked like: which fields are present, and their values. */
function probe(request) {
  const pre = request.event === 'pre_tool_use';
  const seen = {
    hook_schema: request.hook_schema,
    event: request.event,
    has_output: 'output' in request,
    has_is_error: 'is_error' in request,
    input: request.input,
  };
  if (pre) return { decision: 'modify', input: seen };
  return { decision: 'replace', output: { ...seen, output: request.output, is_error: request.is_error } };
}

/** The answer `behaviour` gives to `request`. Throws a string for an unknown behaviour (→ err). */
export function answer(behaviour, request) {
  const pre = request.event === 'pre_tool_use';
  switch (behaviour) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      return { decision: 'deny', reason: DENY_REASON };
    case 'modify-wrap':
      return { decision: 'modify', input: { wrapped: request.input }, reason: 'wrapped input' };
    case 'replace-wrap':
      return { decision: 'replace', output: { wrapped: request.output ?? null }, reason: 'wrapped output' };
    case 'replace-error':
      return { decision: 'replace', output: 'replaced as error', is_error: true };
    case 'replace-ok':
      return { decision: 'replace', output: 'replaced as ok', is_error: false };
    case 'deny-if-wrapped':
      return isWrapped(pre ? request.input : request.output) ? { decision: 'deny', reason: WRAPPED_REASON } : { decision: 'allow' };
    case 'probe':
      return probe(request);
    case 'empty-deny-reason':
      return { decision: 'deny', reason: '' };
    case 'malformed':
      return { decision: 'maybe' };
    case 'hang':
      for (;;) {
        // Spin until the host's deadline stops the guest.
      }
    case 'crash':
      throw new Error('crashed on purpose');
    case 'oversized':
      return { decision: 'deny', reason: OVERSIZED_REASON };
    default:
      throw `unknown conformance behaviour: ${String(behaviour)}`;
  }
}
