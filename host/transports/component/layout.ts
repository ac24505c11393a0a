/*
 * The canonical-ABI layout of our world's `handle` (wit/hook.wit, /work/shared/TOOLCHAIN.md): the
 * flattened request record the guest receives a pointer to, and the `result<decision, string>` area it
 * returns a pointer to. The direct caller writes and reads exactly these offsets; the planner checks
 * that jco's glue uses the same ones before it lets a component be called directly.
 */

/** `hook-request`: 64 bytes, align 4. Strings are (ptr u32, len u32); options are a u8 tag then the payload. */
export const REQUEST = {
  size: 64,
  align: 4,
  hookSchema: 0,
  event: 4,
  workspace: 8,
  agentId: 16,
  toolCallId: 24,
  toolName: 32,
  input: 40,
  outputTag: 48,
  output: 52,
  isErrorTag: 60,
  isError: 61,
} as const;

/** `result<decision, string>`: 32 bytes, align 4. */
export const RESULT = {
  size: 32,
  align: 4,
  /** 0 ok, 1 err. */
  tag: 0,
  /** ok: the decision's case, allow 0, deny 1, modify 2, replace 3. */
  decision: 4,
  /** deny reason, modify input, replace output: a string. */
  text: 8,
  /** modify: option<string> reason. */
  modifyReasonTag: 16,
  modifyReason: 20,
  /** replace: option<bool> is-error, then option<string> reason. */
  replaceIsErrorTag: 16,
  replaceIsError: 17,
  replaceReasonTag: 20,
  replaceReason: 24,
  /** err: the message string. */
  errText: 4,
} as const;

/**
 * The memory accesses jco's glue makes for `handle`, as `<set|get><Type>@<offset>` against the record
 * (`ptr0 + n`) and the result (`ret + n`). A glue that makes other ones has another layout: the
 * component is not called directly.
 */
export const GLUE_LOWERING_ACCESSES: readonly string[] = [
  'setInt32@0',
  'setInt8@4',
  'setUint32@8', 'setUint32@12',
  'setUint32@16', 'setUint32@20',
  'setUint32@24', 'setUint32@28',
  'setUint32@32', 'setUint32@36',
  'setUint32@40', 'setUint32@44',
  'setInt8@48', 'setUint32@52', 'setUint32@56',
  'setInt8@60', 'setInt8@61',
];

export const GLUE_LIFTING_ACCESSES: readonly string[] = [
  'getUint8@0',
  'getUint8@4',
  'getUint32@8', 'getUint32@12',
  'getUint8@16', 'getUint32@20', 'getUint32@24',
  'getUint8@17',
  'getUint8@20', 'getUint32@24', 'getUint32@28',
  'getUint32@4', 'getUint32@8',
];
