/*
 * Small checks the fast validators share (the engine's outcome envelope, the hook adapter's WIT
 * records): each fast validator accepts only a strict, obviously valid subset and leaves everything
 * else to zod, the arbiter.
 */

export type Rec = Readonly<Record<string, unknown>>;

export function isPlainRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Own enumerable keys, or -1 when one is `__proto__` (zod's copy would lose it: zod decides). */
export function keyCount(record: Rec): number {
  let n = 0;
  for (const key in record) {
    if (key === '__proto__') return -1;
    n++;
  }
  return n;
}

export function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** zod's `safeParse` result shape, for a validator with a fast path in front. */
export type SafeParsed<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: { readonly message: string } };
