/**
 * `matches` within RE2's promise — time linear in the text, whatever the pattern — on V8: a pattern
 * must be one V8's linear-time engine can run (compiled once with its `l` flag to check: no
 * backreferences, lookaround or large counted repetitions, which RE2 has none of either), and runs on
 * the ordinary engine, ~40× faster on everyday patterns, with V8's fallback on (engine.ts): a match
 * that backtracks more than 50,000 times is finished by the linear-time engine, with the same result.
 *
 * RE2's leading flag group (`(?i)`, `(?s)`, `(?m)`, `(?is)`…) is read as the JavaScript flags; the rest
 * is JavaScript syntax. The linear engine has no case-insensitive mode, so `(?i)` folds ASCII letters
 * into the pattern itself (`a` → `[aA]`, `[a-f]` → `[a-fA-F]`).
 */

const FLAG_GROUP = /^\(\?([ims]+)\)/;

/** A compiled pattern, or why it cannot be one. */
export type CompiledPattern = { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly why: string };

/** Compile a CEL pattern for `matches`. */
export function compilePattern(pattern: string): CompiledPattern {
  const group = FLAG_GROUP.exec(pattern);
  const given = group?.[1] ?? '';
  const flags = `l${[...new Set(given.replace('i', ''))].join('')}`;
  const rest = group === null ? pattern : pattern.slice(group[0].length);
  const body = given.includes('i') ? foldCase(rest) : rest;
  try {
    // Checked on the linear engine (it refuses what it cannot run in linear time), run on the fast one.
    new RegExp(body, flags);
    return { ok: true, regex: new RegExp(body, flags.slice(1)) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, why: why.includes('linear time') ? `${JSON.stringify(pattern)} cannot run in linear time (backreferences, lookaround and large counted repetitions are not supported, as in RE2)` : why };
  }
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

const LETTER = /^[A-Za-z]$/;

function swapCase(char: string): string {
  const lower = char.toLowerCase();
  return lower === char ? char.toUpperCase() : lower;
}

/** How many characters an escape after its backslash takes: `\x41` 3, `\u0041` 5, `\u{1F600}` to the brace, `\cA` 2, else 1. */
function escapeLength(pattern: string, at: number): number {
  const kind = pattern[at];
  if (kind === 'x') return 3;
  if (kind === 'c') return 2;
  if (kind === 'u') return pattern[at + 1] === '{' ? pattern.indexOf('}', at) - at + 1 || 1 : 5;
  return 1;
}

/**
 * Make a pattern match ASCII letters in either case without the `i` flag: a letter outside a class
 * becomes `[xX]`, a class gains the other case of its letters and letter ranges. Escapes, group names
 * (`(?<name>`) and quantifiers are copied as they are.
 */
export function foldCase(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] as string;
    if (char === '\\') {
      const length = escapeLength(pattern, i + 1);
      out += pattern.slice(i, i + 1 + length);
      i += 1 + length;
    } else if (char === '(' && pattern.startsWith('(?<', i) && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
      const end = pattern.indexOf('>', i);
      const stop = end === -1 ? pattern.length : end + 1;
      out += pattern.slice(i, stop);
      i = stop;
    } else if (char === '[') {
      const folded = foldClass(pattern, i);
      out += folded.text;
      i = folded.end;
    } else {
      out += LETTER.test(char) ? `[${char}${swapCase(char)}]` : char;
      i += 1;
    }
  }
  return out;
}

/** A character class starting at `start` (its `[`), with the other case of its letters added. */
function foldClass(pattern: string, start: number): { text: string; end: number } {
  let i = start + 1;
  let body = '';
  let extra = '';
  if (pattern[i] === '^') {
    body += '^';
    i += 1;
  }
  while (i < pattern.length && pattern[i] !== ']') {
    const char = pattern[i] as string;
    if (char === '\\') {
      const length = escapeLength(pattern, i + 1);
      body += pattern.slice(i, i + 1 + length);
      i += 1 + length;
      continue;
    }
    const to = pattern[i + 2];
    if (pattern[i + 1] === '-' && to !== undefined && to !== ']') {
      body += pattern.slice(i, i + 3);
      if (LETTER.test(char) && LETTER.test(to) && (char <= 'Z') === (to <= 'Z')) extra += `${swapCase(char)}-${swapCase(to)}`;
      i += 3;
      continue;
    }
    body += char;
    if (LETTER.test(char)) extra += swapCase(char);
    i += 1;
  }
  return { text: `[${body}${extra}]`, end: Math.min(i + 1, pattern.length) };
}
