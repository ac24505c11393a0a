/**
 * The limits on JSON that crosses the host, in one place. Every tool input and output, every call
 * and every hook answer the host parses or serialises is held to them, by walkers that never recurse
 * (a value nested 100,000 deep costs a loop, not the host's stack):
 *
 * - a call beyond them is refused with `RunnerError('invalid_call')`, naming the path;
 * - a hook's answer beyond them is `malformed_response` (the hook failed, its policy applies);
 * - either way the host stays up and every later call runs.
 *
 * The defaults are far beyond what real tools produce (tool inputs nest a handful of levels; a model's
 * whole context is a few MB of text) and far below what would hurt the host: V8's own `JSON.stringify`
 * and `structuredClone` recurse and overflow somewhere past a few thousand levels, and a string cannot
 * be longer than ~512 Mi code units.
 */
export const JSON_LIMITS = {
  /**
   * Deepest nesting of arrays and objects in one tool value (an `input` or `output`): `[]` and `{}`
   * are depth 1, `[[1]]` is depth 2, a scalar is depth 0. The envelope around a value (a call, a
   * request, an answer) does not count.
   */
  max_depth: 256,
  /**
   * Longest JSON text, in UTF-16 code units (characters, for text outside the BMP two each): of one
   * tool value as `JSON.stringify` would write it, and of any one JSON text the host parses (an answer,
   * a call line of `basis-hooks run`, a raw tool input that is JSON). 32 Mi.
   */
  max_length: 32 * 1024 * 1024,
} as const;

/** The shape of {@link JSON_LIMITS}, for code that takes limits as a parameter. */
export interface JsonLimits {
  readonly max_depth: number;
  readonly max_length: number;
}
