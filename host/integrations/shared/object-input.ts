import type { JsonValue } from '../../contract/json.js';
import type { RunOptions } from '../../runner/options.js';

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `checkInput` of a client whose tool inputs are JSON objects (MCP's `tools/call` arguments,
 * Claude Code's `tool_input`): a hook that rewrites one into a string or an array has not given an
 * answer the client can use, so it has failed (`malformed_response`) — under its own `on_failure`,
 * recorded in the trail like any failure, before a later hook sees the bad input. Passed on every run
 * (the runner's own mechanism), so the chain keeps everything else its config gave it: budgets, the
 * audit stream, shadow hooks.
 */
export function objectInputCheck(client: string): NonNullable<RunOptions['checkInput']> {
  return (input) => {
    if (isJsonObject(input)) return undefined;
    const got = Array.isArray(input) ? 'an array' : input === null ? 'null' : `a ${typeof input}`;
    return `it must be a JSON object (${client} tool inputs are objects); got ${got}`;
  };
}
