/**
 * The shape of a `matches` pattern (JavaScript syntax without the `u` flag, already accepted by V8's
 * linear-time engine), read once at load:
 *
 * - its **weight**: an upper bound of the size of the automaton the linear-time engine runs it as
 *   (counted repetitions expanded, a character class priced by its ranges). That engine does work in
 *   proportion to the text's length times this size, so the cost model charges for it (cost.ts);
 * - its **source without captures**: every capturing group compiled as `(?:…)`. Whether a pattern
 *   matches does not depend on captures, and the engine copies each thread's capture registers;
 * - a **literal every match contains** (a run of plain characters at the pattern's top level), looked
 *   for with `String.prototype.includes` before running the engine: absent, there is no match;
 * - a **shortcut** when the whole pattern is a plain literal (`contains`), anchored at one end or both.
 *
 * Over-approximations only: when unsure, the weight is larger, and there is no literal or shortcut.
 */

/** What {@link readPattern} finds. */
export interface PatternShape {
  readonly weight: number;
  readonly source: string;
  readonly required: string | undefined;
  readonly shortcut: ((text: string) => boolean) | undefined;
}

/** Ranges of the classes an escape stands for, as V8 builds them (upper bounds). */
const CLASS_ESCAPES: Readonly<Record<string, number>> = { d: 1, D: 2, w: 4, W: 5, s: 11, S: 12 };
/** `.` without the `s` flag: everything but four line terminators. */
const DOT_RANGES = 4;
/** A class of r ranges is r consume instructions joined by forks and jumps. */
const classWeight = (ranges: number): number => 3 * Math.max(1, ranges);

/** Characters with a meaning in a pattern (`/` has none in `new RegExp`: a plain character). */
const SYNTAX = new Set([...'^$\\.*+?()[]{}|']);
/** Escapes that stand for the character itself (identity escapes of syntax characters, and `-`). */
const IDENTITY = new Set([...'^$\\.*+?()[]{}|/-']);
const CONTROL: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v' };

interface Piece {
  readonly weight: number;
  /** The character, when the piece is one plain character (no quantifier). */
  readonly char?: string | undefined;
  /** Whether the piece is a zero-width assertion. */
  readonly anchor?: '^' | '$' | 'other' | undefined;
}

class Reader {
  i = 0;
  /** Start offsets of capturing groups' `(` and, for named ones, the end of their `(?<name>`. */
  readonly captures: Array<{ readonly start: number; readonly end: number }> = [];

  constructor(
    readonly text: string,
    readonly dotAll: boolean,
  ) {}

  /** A disjunction up to `)` or the end: its weight, and its top-level alternatives' pieces. */
  disjunction(): { weight: number; alternatives: Piece[][] } {
    const alternatives: Piece[][] = [this.alternative()];
    while (this.text[this.i] === '|') {
      this.i++;
      alternatives.push(this.alternative());
    }
    const weight = alternatives.reduce((sum, pieces) => sum + pieces.reduce((s, p) => s + p.weight, 0) + 2, 0);
    return { weight, alternatives };
  }

  alternative(): Piece[] {
    const pieces: Piece[] = [];
    while (this.i < this.text.length && this.text[this.i] !== '|' && this.text[this.i] !== ')') {
      const atom = this.atom();
      pieces.push(this.quantified(atom));
    }
    return pieces;
  }

  /** A quantifier after `atom`, if any: the atom's weight repeated as V8 expands it. */
  quantified(atom: Piece): Piece {
    const c = this.text[this.i];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.i));
      if (match === null) return atom;
      this.i += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    } else {
      return atom;
    }
    if (this.text[this.i] === '?') this.i++;
    const w = atom.weight;
    const weight = max === Infinity ? min * w + w + 3 : min * w + (max - min) * (w + 2);
    return { weight: Math.max(weight, 1) };
  }

  atom(): Piece {
    const c = this.text[this.i] as string;
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '\\') return this.escape();
    this.i++;
    if (c === '.') return { weight: this.dotAll ? 1 : classWeight(DOT_RANGES) };
    if (c === '^' || c === '$') return { weight: 1, anchor: c };
    return SYNTAX.has(c) ? { weight: 1 } : { weight: 1, char: c };
  }

  group(): Piece {
    const start = this.i;
    let capturing = true;
    if (this.text.startsWith('(?:', this.i)) {
      capturing = false;
      this.i += 3;
    } else if (this.text.startsWith('(?<', this.i) && this.text[this.i + 3] !== '=' && this.text[this.i + 3] !== '!') {
      const close = this.text.indexOf('>', this.i);
      this.i = close === -1 ? this.text.length : close + 1;
    } else if (this.text.startsWith('(?', this.i)) {
      // Lookaround: the linear engine refuses it before this reads the pattern; weigh it whole.
      capturing = false;
      this.i += 3;
    } else {
      this.i += 1;
    }
    if (capturing) this.captures.push({ start, end: this.i });
    const inner = this.disjunction();
    if (this.text[this.i] === ')') this.i++;
    return { weight: inner.weight + 2 };
  }

  /** An escape outside a class. */
  escape(): Piece {
    const next = this.text[this.i + 1];
    if (next === undefined) {
      this.i++;
      return { weight: 1 };
    }
    const ranges = CLASS_ESCAPES[next];
    if (ranges !== undefined) {
      this.i += 2;
      return { weight: classWeight(ranges) };
    }
    if (next === 'b' || next === 'B') {
      this.i += 2;
      return { weight: 1, anchor: 'other' };
    }
    this.i += 2 + escapeTail(this.text, this.i + 1);
    if (IDENTITY.has(next)) return { weight: 1, char: next };
    const control = CONTROL[next];
    return control === undefined ? { weight: 1 } : { weight: 1, char: control };
  }

  characterClass(): Piece {
    this.i++;
    let negated = false;
    if (this.text[this.i] === '^') {
      negated = true;
      this.i++;
    }
    let ranges = 0;
    // A `]` right after `[` or `[^` closes an empty class in JavaScript.
    while (this.i < this.text.length && this.text[this.i] !== ']') {
      if (this.text[this.i] === '\\') {
        const next = this.text[this.i + 1] ?? '';
        ranges += CLASS_ESCAPES[next] ?? 1;
        this.i += 2 + (CLASS_ESCAPES[next] === undefined ? escapeTail(this.text, this.i + 1) : 0);
      } else {
        ranges += 1;
        this.i += 1;
      }
    }
    this.i++;
    return { weight: classWeight(negated ? ranges + 1 : ranges) };
  }
}

/** How many characters an escape takes after its letter (`\x41`: 2, `\u0041`: 4, `\u{…}`: to the brace, `\cA`: 1, `\012`: its digits). */
function escapeTail(text: string, at: number): number {
  const kind = text[at];
  if (kind === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(at + 1, at + 3))) return 2;
  if (kind === 'u') {
    if (text[at + 1] === '{') {
      const close = text.indexOf('}', at);
      return close === -1 ? 0 : close - at;
    }
    return /^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5)) ? 4 : 0;
  }
  if (kind === 'c' && /^[A-Za-z]$/.test(text[at + 1] ?? '')) return 1;
  if (kind !== undefined && /[0-7]/.test(kind)) return (/^[0-7]{0,2}/.exec(text.slice(at + 1))?.[0].length ?? 0);
  return 0;
}

/** The longest run of plain characters, without quantifiers, in a sequence of pieces. */
function longestRun(pieces: readonly Piece[]): string | undefined {
  let best = '';
  let run = '';
  for (const piece of pieces) {
    if (piece.char !== undefined) {
      run += piece.char;
      if (run.length > best.length) best = run;
    } else {
      run = '';
    }
  }
  return best === '' ? undefined : best;
}

/** The whole pattern as a test without the engine: a literal, anchored or not (not under the `m` flag). */
function shortcutOf(pieces: readonly Piece[], multiline: boolean): PatternShape['shortcut'] {
  const first = pieces[0];
  const last = pieces.at(-1);
  const start = first?.anchor === '^' && !multiline;
  const end = last?.anchor === '$' && !multiline && pieces.length > (start ? 1 : 0);
  const middle = pieces.slice(start ? 1 : 0, end ? -1 : undefined);
  if (middle.some((piece) => piece.char === undefined)) return undefined;
  const literal = middle.map((piece) => piece.char).join('');
  if (start && end) return (text) => text === literal;
  if (start) return (text) => text.startsWith(literal);
  if (end) return (text) => text.endsWith(literal);
  return (text) => text.includes(literal);
}

/**
 * Read `source`, a pattern V8's linear-time engine accepts with `flags` (`m`, `s`). Never throws on
 * such a pattern.
 */
export function readPattern(source: string, flags: string): PatternShape {
  const reader = new Reader(source, flags.includes('s'));
  const { weight, alternatives } = reader.disjunction();
  let stripped = source;
  for (const capture of [...reader.captures].reverse()) stripped = `${stripped.slice(0, capture.start)}(?:${stripped.slice(capture.end)}`;
  const top = alternatives.length === 1 ? alternatives[0] : undefined;
  return {
    weight: Math.max(1, weight, source.length),
    source: stripped,
    required: top === undefined ? undefined : longestRun(top),
    shortcut: top === undefined ? undefined : shortcutOf(top, flags.includes('m')),
  };
}
