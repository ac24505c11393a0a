/**
 * A component's world, as jco prints it: what it imports and exports, fully qualified. Read before
 * anything runs, so an embedder can refuse a component by its world (the hook adapter's world check).
 */

/** A component's world as `jco`'s `componentWit` prints it: fully qualified names with versions. */
export interface ComponentWorld {
  readonly imports: readonly string[];
  readonly exports: readonly string[];
}

/** Parse the root world out of `componentWit` output (`import x;` / `export y;` lines). */
export function parseWorld(wit: string): ComponentWorld {
  const start = wit.search(/^world\s+\S+\s*\{/m);
  const body = start < 0 ? '' : wit.slice(start, wit.indexOf('\n}', start) + 1);
  const imports: string[] = [];
  const exports: string[] = [];
  for (const line of body.split('\n')) {
    const m = /^\s*(import|export)\s+(.+?);?\s*$/.exec(line);
    if (!m) continue;
    // An inline import (`import log: func(...)`) is named by what precedes the colon-space.
    const name = (m[2] ?? '').replace(/:\s.*$/, '');
    (m[1] === 'import' ? imports : exports).push(name);
  }
  return { imports, exports };
}
