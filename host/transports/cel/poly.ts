/**
 * Polynomials with non-negative coefficients, for cost estimates: over `n`, the size of the call's
 * values, and over element sizes (one variable per comprehension, eliminated when it is summed).
 * Only what the estimator needs: sums, products, coefficient-wise maxima and the comprehension rule.
 */

/** Monomial (its variables, sorted, joined by `*`; `''` is the constant) → coefficient. */
export type Poly = ReadonlyMap<string, number>;

const ONE = '';

export function constant(k: number): Poly {
  return k === 0 ? new Map() : new Map([[ONE, k]]);
}

export function variable(name: string): Poly {
  return new Map([[name, 1]]);
}

function vars(monomial: string): string[] {
  return monomial === ONE ? [] : monomial.split('*');
}

function key(names: readonly string[]): string {
  return [...names].sort().join('*');
}

export function add(...polys: readonly Poly[]): Poly {
  const out = new Map<string, number>();
  for (const p of polys) for (const [m, c] of p) out.set(m, (out.get(m) ?? 0) + c);
  return out;
}

export function scale(p: Poly, k: number): Poly {
  return new Map([...p].map(([m, c]) => [m, c * k]));
}

export function mul(a: Poly, b: Poly): Poly {
  const out = new Map<string, number>();
  for (const [ma, ca] of a) {
    for (const [mb, cb] of b) {
      const m = key([...vars(ma), ...vars(mb)]);
      out.set(m, (out.get(m) ?? 0) + ca * cb);
    }
  }
  return out;
}

/** An upper bound of both (every variable is non-negative): the larger coefficient of each monomial. */
export function max(a: Poly, b: Poly): Poly {
  const out = new Map(a);
  for (const [m, c] of b) out.set(m, Math.max(out.get(m) ?? 0, c));
  return out;
}

function power(p: Poly, k: number): Poly {
  let out = constant(1);
  for (let i = 0; i < k; i++) out = mul(out, p);
  return out;
}

/**
 * Sum `p` over the elements of a collection of size `size`, `v` standing for one element's size: a
 * term without `v` is paid once per element (at most `size` of them); a term in `v^k` sums to at
 * most `size^k`, because the elements' sizes add up to at most the collection's. So scanning every
 * element (`items.exists(i, i.contains("x"))`) is linear in the call, and scanning the whole call for
 * every element (`items.exists(i, input.s.contains(i))`) is quadratic. `count`, when known to be
 * smaller (a literal list: its elements), bounds how many elements there are.
 */
export function sumOver(p: Poly, v: string, size: Poly, count: Poly = size): Poly {
  const parts: Poly[] = [];
  for (const [m, c] of p) {
    const names = vars(m);
    const k = names.filter((name) => name === v).length;
    const rest = new Map([[key(names.filter((name) => name !== v)), c]]);
    // Σ eᵢᵏ ≤ (Σ eᵢ)ᵏ ≤ sizeᵏ; a part without v, once per element: at most count times.
    parts.push(mul(rest, k === 0 ? count : power(size, k)));
  }
  return add(...parts);
}

/** The highest power of `name` with a non-zero coefficient. */
export function degree(p: Poly, name: string): number {
  let d = 0;
  for (const [m, c] of p) if (c > 0) d = Math.max(d, vars(m).filter((v) => v === name).length);
  return d;
}

/** The value at `n`, every other variable at 0 (there are none left at the top of an expression). */
export function valueAt(p: Poly, name: string, n: number): number {
  let total = 0;
  for (const [m, c] of p) {
    const names = vars(m);
    if (names.some((v) => v !== name)) continue;
    total += c * n ** names.length;
  }
  return total;
}

/** `7 + 0.3·n + 0.01·n²`, for messages. */
export function formatPoly(p: Poly, name: string): string {
  const terms = [...p]
    .filter(([, c]) => c > 0)
    .map(([m, c]) => [vars(m).length, c] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([d, c]) => {
      const coefficient = c >= 100 ? Math.ceil(c) : Number(c.toPrecision(3));
      if (d === 0) return String(coefficient);
      const variableText = d === 1 ? name : `${name}${d === 2 ? '²' : d === 3 ? '³' : `^${d}`}`;
      return coefficient === 1 ? variableText : `${coefficient}·${variableText}`;
    });
  return terms.length === 0 ? '0' : terms.join(' + ');
}
