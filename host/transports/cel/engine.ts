import type { Environment } from '@marcbachmann/cel-js';

/** The CEL library (`@marcbachmann/cel-js`), typed. */
type CelLibrary = typeof import('@marcbachmann/cel-js');

/** A loaded CEL engine: the library and the environment every basis-hooks expression compiles in. */
export interface CelEngine {
  readonly lib: CelLibrary;
  /** The library's own printer of a parsed (sub)expression back to CEL source. */
  readonly serialize: (node: unknown) => string;
  /** Declares the request's fields; an expression naming anything else does not type-check. */
  readonly env: Environment;
}

/**
 * The variables a CEL expression sees: the request's fields, under the wire contract's names.
 * `output` and `is_error` exist only after the call (a `pre_tool_use` expression reading them is
 * refused at load). `input` and `output` are the JSON values themselves (`dyn`: a map, list, string,
 * number, bool or null); JSON numbers are CEL doubles, and compare with CEL ints as numbers.
 */
export const REQUEST_VARIABLES = {
  tool_name: 'string',
  input: 'dyn',
  output: 'dyn',
  is_error: 'bool',
  agent_id: 'string',
  workspace: 'string',
  event: 'string',
} as const;

/** The variables that do not exist before the call. */
export const POST_ONLY_VARIABLES: readonly string[] = ['output', 'is_error'];

let engine: Promise<CelEngine> | undefined;

/**
 * Load the CEL engine once per process, on first use: the library takes tens of ms to import, which
 * a config without CEL should not pay. It changes nothing else in the process: `matches` runs on V8's
 * linear-time engine, whose flag is on only while a pattern is compiled (regex.ts).
 */
export function loadCelEngine(): Promise<CelEngine> {
  // One after the other: the printer's module imports the library's, which must initialise first.
  engine ??= import('@marcbachmann/cel-js').then(async (lib) => {
    const printer = await import('@marcbachmann/cel-js/serialize');
    const env = new lib.Environment({ unlistedVariablesAreDyn: false, homogeneousAggregateLiterals: false });
    for (const [name, type] of Object.entries(REQUEST_VARIABLES)) env.registerVariable(name, type);
    return { lib, env, serialize: (node: unknown) => printer.serialize(node as Parameters<typeof printer.serialize>[0]) };
  });
  return engine;
}
