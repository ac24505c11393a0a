/**
 * The behaviours every transport implements for the conformance suite. Each transport's fixture
 * turns a behaviour name into a real hook (a TS interceptor, a real subprocess, a real .wasm guest in
 * each language) that does exactly this. Names are the contract between vectors and fixtures.
 *
 * Answer behaviours (what the hook answers; the event is wherever the vector declares it):
 * - `allow`            → {"decision":"allow"}
 * - `deny`             → {"decision":"deny","reason":"denied by conformance hook"}
 * - `modify-wrap`      → {"decision":"modify","input":{"wrapped":<request.input>},"reason":"wrapped input"}
 *                        (answered at post too: that is the wrong-event vector)
 * - `replace-wrap`     → {"decision":"replace","output":{"wrapped":<request.output>},"reason":"wrapped output"}
 *                        (no is_error: the tool's claim stands; at pre, request.output is absent → use null)
 * - `replace-error`    → {"decision":"replace","output":"replaced as error","is_error":true}
 * - `replace-ok`       → {"decision":"replace","output":"replaced as ok","is_error":false}
 * - `deny-if-wrapped`  → deny with reason "saw a wrapped value" when the value the hook may rewrite (input
 *                        at pre, output at post) is an object with a "wrapped" key; else allow
 * - `probe`            → reports what the request looked like. At pre: modify, input =
 *                        {"hook_schema":<n>,"event":"pre_tool_use","has_output":<bool>,"has_is_error":<bool>,"input":<input>};
 *                        at post: replace, output = {"hook_schema":<n>,"event":"post_tool_use","has_output":<bool>,
 *                        "has_is_error":<bool>,"input":<input>,"output":<output>,"is_error":<bool>} (no is_error field in
 *                        the response). has_* mean the field is *present* (a JSON null counts as present;
 *                        for components: option is `some`).
 *
 * Failure behaviours (each transport's natural way to misbehave; expected code in the vector, or
 * `crash`, which each transport maps to its own code via `crashCode`):
 * - `empty-deny-reason` → {"decision":"deny","reason":""}                         → malformed_response
 * - `malformed`         → an answer that is not a valid response (subprocess: a banner line then JSON;
 *                         component: modify whose input is not JSON text; interceptor: {"decision":"maybe"})
 *                                                                                  → malformed_response
 * - `hang`              → never answers (sleep forever / infinite loop / pending promise) → timeout
 * - `crash`             → dies (subprocess: prints allow then exits 1; component: traps; interceptor:
 *                         throws)                                                    → crashCode
 * - `silent`            → answers nothing (subprocess: prints nothing, exits 0)      → empty_output
 * - `oversized`         → answers more than the output cap                          → output_too_large
 */
export const BEHAVIOURS = [
  'allow',
  'deny',
  'modify-wrap',
  'replace-wrap',
  'replace-error',
  'replace-ok',
  'deny-if-wrapped',
  'probe',
  'empty-deny-reason',
  'malformed',
  'hang',
  'crash',
  'silent',
  'oversized',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/** Reason used by the `deny` behaviour. */
export const DENY_REASON = 'denied by conformance hook';
/** Reason used by the `deny-if-wrapped` behaviour. */
export const WRAPPED_REASON = 'saw a wrapped value';

/** Behaviours a component guest can express: all but `silent` (a component always returns a result). */
export const COMPONENT_BEHAVIOURS = BEHAVIOURS.filter((b): b is Exclude<Behaviour, 'silent'> => b !== 'silent');

/**
 * What the compiled-language guests (C, Rust, AssemblyScript) build: every component behaviour plus
 * `guest-error`, a guest returning `err(...)`, which pins the err layout of `result<decision, string>`.
 * The order matters to AssemblyScript, whose conformance source numbers the behaviours in this order.
 */
export const COMPILED_GUEST_BEHAVIOURS = [...COMPONENT_BEHAVIOURS, 'guest-error'] as const;
