/**
 * `matches` within RE2's promise — time linear in the text, whatever the pattern — without changing
 * any other regular expression of the process.
 *
 * Every pattern runs on V8's linear-time engine: a `RegExp` with the `l` flag. V8 recognises that flag
 * only while its `--enable-experimental-regexp-engine` flag is on, and a linear `RegExp` once made runs
 * whatever the flag says later; so the flag is turned on for the moment a pattern is compiled and put
 * back as it was at once ({@link linearRegExp}). Nothing else of the process sees it: its own regular
 * expressions are compiled and run as before (test/transports/cel/regex.test.ts). V8's other switch,
 * a fallback to the linear engine for any regular expression that backtracks too much, would be the
 * process's for good: it is not used.
 *
 * A pattern the linear engine cannot run (backreferences, lookaround, counted repetitions copied more
 * than 16 times over — none of which RE2 has, or RE2 limits too) is refused, naming the pattern. The engine is slow (tens to hundreds of ns per character and
 * automaton state), so the shape of each pattern is read once (pattern.ts): a plain literal is answered
 * with `includes`/`startsWith`/`endsWith`, a literal every match contains is looked for first, captures
 * are compiled as plain groups, and the pattern's weight prices a match in the cost model.
 *
 * RE2's leading flag group (`(?i)`, `(?s)`, `(?m)`, `(?is)`…) is read as the JavaScript flags; the rest
 * is JavaScript syntax. The linear engine has no case-insensitive mode, so `(?i)` folds ASCII letters
 * into the pattern itself (`a` → `[aA]`, `[a-f]` → `[a-fA-F]`: fold.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { foldCase } from './fold.js';
import { readPattern } from './pattern.js';

const FLAG_GROUP = /^\(\?([ims]+)\)/;

/** A compiled `matches` pattern. */
export interface MatchesPattern {
  /**
   * The answer without the engine, when a literal decides it: the whole pattern is a literal
   * (`includes`/`startsWith`/`endsWith`/`===`), or a literal every match contains is absent (false).
   * Undefined: only the engine can tell ({@link engine}).
   */
  quick(text: string): boolean | undefined;
  /** The answer on the linear-time engine, in time linear in the text's length (times {@link weight}). */
  engine(text: string): boolean;
  /** Whether `text` matches: {@link quick}, else {@link engine}. */
  test(text: string): boolean;
  /** An upper bound of the size of the automaton the engine runs (pattern.ts): a match costs about this per character. */
  readonly weight: number;
}

/** A compiled pattern, or why it cannot be one. */
export type CompiledPattern = { readonly ok: true; readonly pattern: MatchesPattern } | { readonly ok: false; readonly why: string };

const ENABLE = '--enable-experimental-regexp-engine';

/** Whether V8 takes the `l` flag right now (the process may have been started with it). */
function linearFlagOn(): boolean {
  try {
    new RegExp('', 'l');
    return true;
  } catch {
    return false;
  }
}

/**
 * `new RegExp(source, 'l' + flags)`, with V8's flag for the `l` flag on only while it is made (left on
 * if the process had it). Throws what the constructor throws: a `SyntaxError` naming linear time for a
 * pattern the engine cannot run. Throws `Error` if this V8 has no linear-time engine at all.
 */
export function linearRegExp(source: string, flags: string): RegExp {
  if (linearFlagOn()) return new RegExp(source, `l${flags}`);
  setFlagsFromString(ENABLE);
  try {
    if (!linearFlagOn()) throw new Error('this Node.js has no linear-time regular-expression engine (V8\'s --enable-experimental-regexp-engine): matches cannot run');
    return new RegExp(source, `l${flags}`);
  } finally {
    setFlagsFromString(`--no-${ENABLE.slice(2)}`);
  }
}

/** Compile a CEL pattern for `matches`. */
export function compilePattern(pattern: string): CompiledPattern {
  const group = FLAG_GROUP.exec(pattern);
  const given = group?.[1] ?? '';
  const flags = [...new Set(given.replace('i', ''))].join('');
  const rest = group === null ? pattern : pattern.slice(group[0].length);
  const body = given.includes('i') ? foldCase(rest) : rest;
  try {
    // Checked as written (the engine refuses what it cannot run in linear time), then read and run without captures.
    linearRegExp(body, flags);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, why: why.includes('linear time') ? `${JSON.stringify(pattern)} cannot run in linear time (backreferences, lookaround and large counted repetitions are not supported, as in RE2)` : why };
  }
  const shape = readPattern(body, flags);
  const { weight, required, shortcut } = shape;
  // A plain literal never needs the engine; the regex is still made (it is what the literal stands for).
  const regex = linearRegExp(shape.source, flags);
  const engine = (text: string): boolean => regex.test(text);
  const quick: (text: string) => boolean | undefined =
    shortcut !== undefined ? shortcut : required !== undefined ? (text) => (text.includes(required) ? undefined : false) : () => undefined;
  const test = (text: string): boolean => quick(text) ?? regex.test(text);
  return { ok: true, pattern: { weight, quick, engine, test } };
}

const CACHE_SIZE = 256;
const cache = new Map<string, CompiledPattern>();

/** {@link compilePattern} for patterns known only when a call runs, remembering the last few hundred. */
export function patternAtRunTime(pattern: string): CompiledPattern {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compilePattern(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, compiled);
  }
  return compiled;
}
