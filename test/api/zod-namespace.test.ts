import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

describe('zod in the bundles', () => {
  // zod 4's named `z` export is one object holding every schema kind and all ~40 locales, so a bundler
  // keeps all of zod (755 KB) for it; `import * as z` lets esbuild keep what the code uses (206 KB).
  // Every command's cold start compiles that chunk: ~30 ms per agent event without a server.
  it('host/ imports zod as a namespace (import * as z), never the named z export', () => {
    const named = sources('host').filter((file) => /import\s+\{\s*z\b[^}]*\}\s+from\s+'zod(?:\/[^']*)?'/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(named).toEqual([]);
  });
});
