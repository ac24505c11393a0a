/**
 * The candidate a mistyped word most likely meant, or `undefined` when none is close: for
 * did-you-mean hints on unknown config keys (`timout_ms` → `timeout_ms`), program names and file names.
 *
 * Two spellings that differ only in case, `_` and `-` are the same word (`timeoutMs`, `on-failure`);
 * otherwise the nearest by edit distance (insert, delete, substitute, swap two neighbours) wins, when
 * it is within a third of the longer word (at least 1). Ties go to the earlier candidate.
 *
 * @example
 * closest('timout_ms', ['timeout_ms', 'memory_mb']) // 'timeout_ms'
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const normal = normalize(word);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    if (normalize(candidate) === normal) return candidate;
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(word: string): string {
  return word.toLowerCase().replace(/[-_]/g, '');
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one substring). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      d[i * cols + j] = value;
    }
  }
  return at(a.length, b.length);
}
