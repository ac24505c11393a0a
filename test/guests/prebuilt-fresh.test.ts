/**
 * A fresh clone copies the committed prebuilt C and Rust components instead of compiling them only
 * while their manifest's `built_with` matches the kit as it is (scripts/guests/build.ts: the kit's
 * build code, the JS glue, the WIT and the adapters, and the compiler's version). A change there
 * that did not refresh the manifests went unnoticed: every fresh clone compiled the 32 Rust guests
 * from source (270 s of `npm test`'s guest build on this machine). This fails instead, naming the fix.
 * On a machine whose compiler is not the one the copies were built with, they cannot be reused anyway:
 * skipped, saying so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedBuiltWith } from '../../scripts/guests/build.js';
import { PREBUILT_DIR } from '../../scripts/guests/catalog.js';

for (const group of ['c', 'rust'] as const) {
  describe(`prebuilt ${group} components`, async () => {
    const manifest = JSON.parse(readFileSync(join(PREBUILT_DIR[group] ?? '', 'manifest.json'), 'utf8')) as { compiler: string; built_with: string };
    const expected = await expectedBuiltWith(group);
    const sameCompiler = expected.compiler === manifest.compiler;

    // Skipped where the compiler is another: the copies cannot be reused there.
    it.skipIf(!sameCompiler)(`are reused by a fresh clone with ${manifest.compiler}: built with the kit as it is`, () => {
      expect(manifest.built_with, `stale: the kit changed since the prebuilt ${group} copies were built, so a fresh clone compiles every ${group} guest from source; run \`npm run build-guests -- c rust --update-prebuilt\` and commit the manifests`).toBe(expected.builtWith);
    });
  });
}
