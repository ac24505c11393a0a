import { BasisHooksError } from './basis-hooks-error.js';

/**
 * What is wrong with a policy, a closed set:
 * - `syntax`: a Cedar policy set, schema or entities file, or a CEL expression, does not parse;
 * - `validation`: a Cedar policy does not validate against the schema, or an entity does not conform
 *   to it; a CEL expression does not type-check;
 * - `cost_limit`: a CEL expression's estimated cost exceeds its limit, or grows faster than linearly
 *   with the size of the call;
 * - `regex`: a CEL `matches` pattern is not a regular expression that runs in linear time;
 * - `absent_field`: a CEL expression of a `pre_tool_use` hook reads `output` or `is_error`, which do not
 *   exist before the call;
 * - `too_large`: a policy, entities or schema file is over its size limit;
 * - `duplicate_id`: two Cedar policies have the same `@id`;
 * - `unreadable`: a policy file cannot be read.
 */
export type PolicyProblem = 'syntax' | 'validation' | 'cost_limit' | 'regex' | 'absent_field' | 'too_large' | 'duplicate_id' | 'unreadable';

/** Where a policy problem is: a file and position, or a CEL rule and position. */
export interface PolicyLocation {
  /** The file (a Cedar policy set, entities or schema file). */
  readonly file?: string;
  /** The rule or expression (`cel[2].when`, `when`, `tools[1].cel`). */
  readonly rule?: string;
  /** 1-based line and column, when the engine says where. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * A Cedar or CEL policy that cannot be used, found at load before any call runs. The message names
 * the file or rule, the line and column when known, and the engine's own diagnostic; a hook built
 * from it fails to load (`HookError('load_failed')` with this as its `cause`).
 * (The Cedar engine not installed is a `PackageMissingError` instead, naming the install command.)
 */
export class PolicyError extends BasisHooksError {
  override readonly name = 'PolicyError' as const;
  readonly code = 'policy_invalid' as const;
  /** What is wrong. */
  readonly problem: PolicyProblem | undefined;
  readonly location: PolicyLocation;

  constructor(message: string, options: { problem?: PolicyProblem; location?: PolicyLocation; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.problem = options.problem;
    this.location = options.location ?? {};
  }
}

/** True when `value` is a {@link PolicyError} (by name, so it works across realms). */
export function isPolicyError(value: unknown): value is PolicyError {
  return value instanceof Error && value.name === 'PolicyError' && typeof (value as PolicyError).code === 'string';
}
