import type { JsonValue } from '../contract/json.js';

/** One line of a diff: kept (` `), only expected (`-`) or only actual (`+`). */
export interface DiffLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
}

/** Longest-common-subsequence tables grow as the product of the line counts: above this, no alignment. */
const MAX_CELLS = 4_000_000;

/**
 * JSON as diffable text: two-space indented, with the keys of every object in a stable order (`order`
 * first — an expectation's keys as people write them — then the rest sorted), so two equal values
 * print identically.
 */
export function canonicalJson(value: JsonValue, order: readonly string[] = ['decision', 'failure', 'input', 'output', 'is_error', 'reason', 'message']): string {
  const sort = (v: JsonValue): JsonValue => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(sort);
    const keys = Object.keys(v).sort((a, b) => {
      const ia = order.indexOf(a);
      const ib = order.indexOf(b);
      if (ia >= 0 || ib >= 0) return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib);
      return a < b ? -1 : a > b ? 1 : 0;
    });
    return Object.fromEntries(keys.map((k) => [k, sort(v[k] as JsonValue)]));
  };
  return JSON.stringify(sort(value), null, 2);
}

/** A line diff of two texts (expected → actual), by longest common subsequence. */
export function diffLines(expected: string, actual: string): DiffLine[] {
  const a = expected.split('\n');
  const b = actual.split('\n');
  if (a.length * b.length > MAX_CELLS) {
    return [...a.map((text): DiffLine => ({ op: '-', text })), ...b.map((text): DiffLine => ({ op: '+', text }))];
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i] as number[];
    const below = lcs[i + 1] as number[];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] ?? '' });
      i++;
      j++;
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) {
      out.push({ op: '-', text: a[i++] ?? '' });
    } else {
      out.push({ op: '+', text: b[j++] ?? '' });
    }
  }
  while (i < a.length) out.push({ op: '-', text: a[i++] ?? '' });
  while (j < b.length) out.push({ op: '+', text: b[j++] ?? '' });
  return out;
}
