/**
 * Lay rows out in aligned columns for a terminal: each column as wide as its widest cell, numbers
 * (columns listed in `right`) aligned right, two spaces between columns, no trailing blanks.
 */
export function columns(rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          const pad = (widths[i] ?? 0) - [...cell].length;
          return right.has(i) ? ' '.repeat(pad) + cell : cell + ' '.repeat(pad);
        })
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
