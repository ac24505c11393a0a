/**
 * The `p`-th percentile (0–100) of `values` by the nearest-rank method: the smallest value with at
 * least p% of the values at or below it — always one of the values, never an interpolation.
 * Undefined for no values.
 *
 * @example
 * percentile([1, 2, 3, 4], 50) // 2
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/** Milliseconds as people read them: 3 significant digits, µs below 1 ms. */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 1) return `${(ms * 1000).toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, '$1')} µs`;
  if (ms < 1000) return `${ms.toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, '$1')} ms`;
  return `${(ms / 1000).toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, '$1')} s`;
}
