/**
 * RE2's `(?i)` for V8's linear-time engine, which has no case-insensitive mode: ASCII letters folded
 * into the pattern itself (`a` → `[aA]`, `[a-f]` → `[a-fA-F]`).
 */
const LETTER = /^[A-Za-z]$/;

function swapCase(char: string): string {
  const lower = char.toLowerCase();
  return lower === char ? char.toUpperCase() : lower;
}

/** Letters that start an escape with a meaning of its own (any other escaped letter is the letter itself, without the `u` flag). */
const SPECIAL = new Set([...'dDsSwWbBfnrtvcxuk']);

/** How many characters an escape after its backslash takes: `\x41` 3, `\u0041` 5, `\cA` 2, else 1 (`\x`, `\u` not followed by hex digits stand for the letter). */
function escapeLength(pattern: string, at: number): number {
  const kind = pattern[at];
  if (kind === 'x' && /^[0-9a-fA-F]{2}$/.test(pattern.slice(at + 1, at + 3))) return 3;
  if (kind === 'u' && /^[0-9a-fA-F]{4}$/.test(pattern.slice(at + 1, at + 5))) return 5;
  if (kind === 'c' && LETTER.test(pattern[at + 1] ?? '')) return 2;
  return 1;
}

/** The ASCII letter an escape stands for (`\x41`, `\u0062`, an identity escape `\e`), if it stands for one. */
function escapedLetter(pattern: string, at: number, length: number): string | undefined {
  const kind = pattern[at] ?? '';
  let char: string | undefined;
  if ((kind === 'x' && length === 3) || (kind === 'u' && length === 5)) char = String.fromCharCode(Number.parseInt(pattern.slice(at + 1, at + length), 16));
  else if (length === 1 && !SPECIAL.has(kind)) char = kind;
  else if (length === 1 && (kind === 'x' || kind === 'u' || kind === 'k')) char = kind;
  return char !== undefined && LETTER.test(char) ? char : undefined;
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
      const letter = escapedLetter(pattern, i + 1, length);
      out += letter === undefined ? pattern.slice(i, i + 1 + length) : `[${letter}${swapCase(letter)}]`;
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

/** The one character a class escape stands for (`\x41`, `\u0062`, `\-`, `\n`), or undefined (`\d`, octal, unknown). */
function escapedChar(pattern: string, at: number, length: number): string | undefined {
  const kind = pattern[at] ?? '';
  if ((kind === 'x' && length === 3) || (kind === 'u' && length === 5)) return String.fromCharCode(Number.parseInt(pattern.slice(at + 1, at + length), 16));
  if (length !== 1) return undefined;
  const control: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', b: '\b' };
  if (control[kind] !== undefined) return control[kind];
  if (/^[0-9dDsSwWck]$/.test(kind)) return undefined;
  return kind;
}

/** One atom of a class at `i`: its text, the character it stands for when it is one, and where it ends. */
function classAtom(pattern: string, i: number): { text: string; char: string | undefined; end: number } {
  const char = pattern[i] as string;
  if (char !== '\\') return { text: char, char, end: i + 1 };
  const length = escapeLength(pattern, i + 1);
  return { text: pattern.slice(i, i + 1 + length), char: escapedChar(pattern, i + 1, length), end: i + 1 + length };
}

/** The letters of `from`–`to` in the other case, as class ranges (`X-c` → `x-zA-C`). */
function swappedRange(from: number, to: number): string {
  let out = '';
  for (const [low, high, shift] of [[65, 90, 32], [97, 122, -32]] as const) {
    const a = Math.max(from, low);
    const b = Math.min(to, high);
    if (a <= b) out += `${String.fromCharCode(a + shift)}-${String.fromCharCode(b + shift)}`;
  }
  return out;
}

/** A character class starting at `start` (its `[`), with the other case of its letters and ranges added. */
function foldClass(pattern: string, start: number): { text: string; end: number } {
  let i = start + 1;
  let body = '';
  let extra = '';
  if (pattern[i] === '^') {
    body += '^';
    i += 1;
  }
  // A `-` written last stays a `-` only while nothing follows it: escaped when the other cases are added after it.
  let dashLast = false;
  while (i < pattern.length && pattern[i] !== ']') {
    const first = classAtom(pattern, i);
    dashLast = false;
    if (pattern[first.end] === '-' && first.end + 1 < pattern.length && pattern[first.end + 1] !== ']') {
      const second = classAtom(pattern, first.end + 1);
      body += `${first.text}-${second.text}`;
      // A range between two characters: the other case of every letter in it.
      if (first.char !== undefined && second.char !== undefined) extra += swappedRange(first.char.charCodeAt(0), second.char.charCodeAt(0));
      i = second.end;
      continue;
    }
    body += first.text;
    dashLast = first.text === '-';
    if (first.char !== undefined && LETTER.test(first.char)) extra += swapCase(first.char);
    i = first.end;
  }
  if (dashLast && extra !== '') body = `${body.slice(0, -1)}\\-`;
  return { text: `[${body}${extra}]`, end: Math.min(i + 1, pattern.length) };
}
