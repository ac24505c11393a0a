/**
 * The conformance behaviours (test/conformance/behaviours.ts) as one JavaScript function over the
 * `basis:hook` WIT shapes. Entry points choose the behaviour: `by-env.js` per call from the
 * `BASIS_BEHAVIOUR` environment variable (one SpiderMonkey component for all behaviours), the QuickJS
 * build one fixed behaviour per component (scripts/guests/js.ts generates those entries).
 *
 * Values are JSON *text* (`request.input`, `request.output`), so wrapping is string concatenation.
 * An absent option arrives as `undefined` under SpiderMonkey and as `null` under QuickJS: compare with
 * `== null`. Failures are thrown as strings (→ `err`); an `Error` object traps under SpiderMonkey.
 */

const DENY_REASON = 'denied by conformance hook';
const WRAPPED_REASON = 'saw a wrapped value';
/** Over the suite's 64 KiB output cap. */
const OVERSIZED_REASON = 'x'.repeat(80 * 1024);

const WIRE_EVENT = { 'pre-tool-use': 'pre_tool_use', 'post-tool-use': 'post_tool_use' };

function isWrapped(text) {
  if (text == null) return false;
  const value = JSON.parse(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'wrapped' in value;
}

/** What the request looked like, as the JSON text the `probe` behaviour answers with. */
function probe(request) {
  const pre = request.event === 'pre-tool-use';
  const fields = [
    `"hook_schema":${request.hookSchema}`,
    `"event":"${WIRE_EVENT[request.event]}"`,
    `"has_output":${request.output != null}`,
    `"has_is_error":${request.isError != null}`,
    `"input":${request.input}`,
  ];
  if (!pre) fields.push(`"output":${request.output ?? 'null'}`, `"is_error":${request.isError ?? false}`);
  const text = `{${fields.join(',')}}`;
  return pre ? { tag: 'modify', val: { input: text } } : { tag: 'replace', val: { output: text } };
}

/** The decision `behaviour` answers to `request`. Throws a string for an unknown behaviour (→ err). */
export function answer(behaviour, request) {
  const pre = request.event === 'pre-tool-use';
  switch (behaviour) {
    case 'allow':
      return { tag: 'allow' };
    case 'deny':
      return { tag: 'deny', val: DENY_REASON };
    case 'modify-wrap':
      return { tag: 'modify', val: { input: `{"wrapped":${request.input}}`, reason: 'wrapped input' } };
    case 'replace-wrap':
      return { tag: 'replace', val: { output: `{"wrapped":${request.output ?? 'null'}}`, reason: 'wrapped output' } };
    case 'replace-error':
      return { tag: 'replace', val: { output: '"replaced as error"', isError: true } };
    case 'replace-ok':
      return { tag: 'replace', val: { output: '"replaced as ok"', isError: false } };
    case 'deny-if-wrapped':
      return isWrapped(pre ? request.input : request.output) ? { tag: 'deny', val: WRAPPED_REASON } : { tag: 'allow' };
    case 'probe':
      return probe(request);
    case 'empty-deny-reason':
      return { tag: 'deny', val: '' };
    case 'malformed':
      // The host must refuse rewritten input that is not JSON text.
      return { tag: 'modify', val: { input: 'this is {not JSON', reason: 'malformed on purpose' } };
    case 'hang':
      for (;;) {
        // Spin until the host's deadline terminates the worker.
      }
    case 'crash':
      // Not a decision: lowering it fails, which traps (`unreachable`) under both engines. (Throwing
      // an Error traps under SpiderMonkey but is an err under QuickJS, so it is not used here.)
      return undefined;
    case 'oversized':
      return { tag: 'deny', val: OVERSIZED_REASON };
    default:
      throw `unknown conformance behaviour: ${String(behaviour)}`;
  }
}
