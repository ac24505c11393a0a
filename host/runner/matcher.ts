import type { HookFailure } from '../contract/failure.js';
import type { HookRequest } from '../contract/request.js';
import { RunnerError } from '../errors/runner-error.js';

/**
 * One entry of a hook's `tools` list:
 * - a string: an exact tool name (`shell`) or a glob where `*` matches any run of characters
 *   (`mcp__github__*`, `*`), matched against the whole tool name;
 * - `{ regex }`: a Claude Code matcher, evaluated exactly as Claude Code evaluates one, so a matcher
 *   copied from `.claude/settings.json` selects the same tools here (see {@link compileRegexEntry}):
 *   `*` is every tool; a value of only names (letters, digits, `_`, `-`) joined by `|` or `,` is
 *   that list of exact names (`"Edit|Write"`: not `MultiEdit`); anything else is a JavaScript regex
 *   searched in the tool name, unanchored (`"mcp__github__.*"`, `"^Notebook"`).
 */
export type ToolPattern = string | { readonly regex: string };

/**
 * Characters a tool name or glob may not contain: regular-expression syntax (and whitespace). A
 * string holding one is almost always a regex or a Claude Code permission rule (`Bash(rm:*)`) that,
 * taken literally, would match no tool and make its hook silently never run.
 */
const FORBIDDEN = /[()|[\]{}^$+?\\\s]/;

/**
 * The JSON Schema `pattern` of a string entry: what {@link toolPatternProblem} accepts, for editors.
 * No forbidden character, and no `.*` (regex for "anything"; the glob is `*`).
 */
export const TOOL_GLOB_PATTERN = '^(?!.*\\.\\*)[^()|\\[\\]{}^$+?\\\\\\s]+$';

/** The forms a `tools` entry may take, for error messages. */
export const ACCEPTED_TOOL_FORMS = 'accepted: an exact tool name ("Bash"), a * glob ("mcp__github__*"), or {"regex": "<Claude Code matcher or JavaScript regex>"}';

/**
 * What is wrong with one `tools` entry, or `undefined` when it is valid. The text names the entry,
 * says why, suggests the form that was probably meant, and lists the accepted forms.
 *
 * @example
 * toolPatternProblem('Bash(rm:*)') // '"Bash(rm:*)" is a Claude Code permission rule, not a tool name…'
 * toolPatternProblem({ regex: 'mcp__github__.*' }) // undefined
 */
export function toolPatternProblem(pattern: unknown): string | undefined {
  if (typeof pattern === 'string') return globProblem(pattern);
  if (pattern !== null && typeof pattern === 'object' && !Array.isArray(pattern)) {
    const keys = Object.keys(pattern);
    const source = (pattern as { regex?: unknown }).regex;
    if (keys.length !== 1 || typeof source !== 'string') {
      return `${show(pattern)} is not a tool pattern: an object entry must be exactly {"regex": "<string>"}; ${ACCEPTED_TOOL_FORMS}`;
    }
    return regexProblem(source);
  }
  return `${show(pattern)} is not a tool pattern; ${ACCEPTED_TOOL_FORMS}`;
}

/**
 * What is wrong with a whole `tools` list, or `undefined`: `undefined` (every tool) is fine, an empty
 * list is not — it would select no tool, so its hook could never run — nor is any invalid entry.
 * Each problem is `[index, message]`; the index is `undefined` for the list itself.
 */
export function toolsProblems(tools: unknown): Array<readonly [number | undefined, string]> {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return [[undefined, `${show(tools)} is not a list of tool patterns; ${ACCEPTED_TOOL_FORMS}`]];
  if (tools.length === 0) return [[undefined, EMPTY_TOOLS]];
  const out: Array<readonly [number | undefined, string]> = [];
  tools.forEach((tool: unknown, index) => {
    const problem = toolPatternProblem(tool);
    if (problem !== undefined) out.push([index, problem]);
  });
  return out;
}

/** The message for `"tools": []`. */
export const EMPTY_TOOLS =
  'an empty list selects no tool, so the hook would never run: list the tools it is for, or leave "tools" out to run it for every tool';

function globProblem(pattern: string): string | undefined {
  if (pattern === '') return `"" is not a tool name: it must not be empty; ${ACCEPTED_TOOL_FORMS}`;
  if (/^[A-Za-z][\w-]*\(.*\)$/s.test(pattern)) {
    const tool = pattern.slice(0, pattern.indexOf('('));
    return (
      `${show(pattern)} is a Claude Code permission rule, not a tool name: a hook is given whole tool calls, ` +
      `so select the tool (${show(tool)}) and look at its input in the hook; ${ACCEPTED_TOOL_FORMS}`
    );
  }
  const bad = FORBIDDEN.exec(pattern)?.[0];
  if (bad === undefined && !pattern.includes('.*')) return undefined;
  return `${show(pattern)} is not a tool name or glob: ${bad === undefined ? '".*"' : describeChar(bad)} is regular-expression syntax${suggestion(pattern)}; ${ACCEPTED_TOOL_FORMS}`;
}

function describeChar(char: string): string {
  return /\s/.test(char) ? 'whitespace' : JSON.stringify(char);
}

/** The literal forms a regex-looking string most likely meant. */
function suggestion(pattern: string): string {
  const options: string[] = [];
  // `Edit|Write`: Claude Code reads a matcher of plain names joined by | as a list of exact names.
  const names = pattern.split('|');
  if (names.length > 1 && names.every((name) => /^[\w-]+$/.test(name))) options.push(JSON.stringify(names));
  // `mcp__github__.*`: a prefix followed by "anything" is the glob `mcp__github__*`.
  const glob = pattern.replace(/^\^/, '').replace(/\$$/, '').replace(/\.\*/g, '*');
  if (glob !== pattern && globProblem(glob) === undefined) options.push(JSON.stringify(glob));
  options.push(JSON.stringify({ regex: pattern }));
  return ` (did you mean ${options.join(' or ')}?)`;
}

function regexProblem(source: string): string | undefined {
  if (source.trim() === '') {
    return `${show({ regex: source })} would match every tool: leave "tools" out (or write "*") to run the hook for every tool; ${ACCEPTED_TOOL_FORMS}`;
  }
  if (source === '*' || NAME_LIST.test(source)) return undefined;
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `${show({ regex: source })} is not a valid JavaScript regular expression (${why}); ${ACCEPTED_TOOL_FORMS}`;
  }
}

/** A Claude Code matcher that is a list of exact names rather than a regex: names joined by `|` or `,`. */
const NAME_LIST = /^[A-Za-z0-9_\-|, ]+$/;

/**
 * A `{ regex }` entry as Claude Code evaluates its matchers: `*` is every tool; only names joined by
 * `|` or `,` (spaces allowed around them) is that list of exact names — `Bash` does not select
 * `BashOutput`, `Edit|Write` not `MultiEdit`; anything else is `new RegExp(source).test(name)`, a
 * search, unanchored — `mcp__github__.*`, `^Notebook` (`NotebookEdit` too), `Output$`.
 */
export function compileRegexEntry(source: string): (toolName: string) => boolean {
  if (source === '*') return () => true;
  if (NAME_LIST.test(source)) {
    const names = new Set(source.split(/[|,]/).map((name) => name.trim()).filter((name) => name !== ''));
    return (toolName) => names.has(toolName);
  }
  const regex = new RegExp(source);
  return (toolName) => regex.test(toolName);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Compile a hook's `tools` list into a predicate. Absent means every tool. An invalid list (empty, or
 * an entry {@link toolPatternProblem} refuses) throws a {@link RunnerError} (`invalid_hooks`): a
 * matcher that cannot match is a hook that silently never runs.
 *
 * @example
 * const matches = compileToolMatcher(['shell', 'mcp__github__*', { regex: 'Edit|Write' }]);
 * matches('mcp__github__create_issue') // true
 */
export function compileToolMatcher(tools: readonly ToolPattern[] | undefined): (toolName: string) => boolean {
  if (tools === undefined) return () => true;
  const [problem] = toolsProblems(tools);
  if (problem !== undefined) {
    const [index, message] = problem;
    throw new RunnerError('invalid_hooks', index === undefined ? `tools: ${message}` : `tools[${index}]: ${message}`);
  }
  const exact = new Set<string>();
  const tests: Array<(toolName: string) => boolean> = [];
  for (const tool of tools) {
    if (typeof tool !== 'string') {
      tests.push(compileRegexEntry(tool.regex));
    } else if (tool.includes('*')) {
      const body = tool.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
      const glob = new RegExp(`^${body}$`, 's');
      tests.push((toolName) => glob.test(toolName));
    } else {
      exact.add(tool);
    }
  }
  return (toolName) => exact.has(toolName) || tests.some((test) => test(toolName));
}

/**
 * A hook's `when`: which requests it runs for, beyond its event and `tools`. The runner asks it at the
 * hook's turn, on the request the hook would see (the input as rewritten so far, the output as
 * replaced so far), so an earlier rewrite cannot slip past a later hook's filter. The runner knows
 * nothing of how it decides: the config compiles a CEL expression into one (the CEL transport's
 * `celFilter`), and any object of this shape will do.
 *
 * `test` answers `true` (run the hook), `false` (skip it: it does not run and is not in the trail), or
 * a failure (it cannot tell: the hook fails with it, under its `on_failure` — never a silent skip). A
 * `test` that throws is the filter's bug and fails the hook `internal_error`.
 */
export interface CallFilter {
  /** What it tests, for messages and `basis-hooks explain` (a CEL filter: its expression). */
  readonly source: string;
  test(request: HookRequest): boolean | HookFailure;
}

/** What is wrong with a hook's `when`, or `undefined` (absent, or an object with `source` and `test`). */
export function callFilterProblem(when: unknown): string | undefined {
  if (when === undefined) return undefined;
  if (when === null || typeof when !== 'object') return 'when must be a CallFilter (an object with source and test)';
  const filter = when as { source?: unknown; test?: unknown };
  if (typeof filter.source !== 'string' || typeof filter.test !== 'function') return 'when must be a CallFilter (an object with a string source and a test method)';
  return undefined;
}
