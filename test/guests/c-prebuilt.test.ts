/**
 * The committed prebuilt C components must be built from the current sources: `prebuilt/manifest.json`
 * records, per component, the hash of its source, the glue, the WIT and the flags. Editing any of them
 * without `npx tsx scripts/guests/c.ts --update-prebuilt` fails here — on any machine, clang or not.
 * (Whether a rebuild *behaves* the same is checked by running the suites against build/ and prebuilt/.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { C_GUESTS, C_PREBUILT_DIR, PREBUILT_MANIFEST, sourceHash } from '../../scripts/guests/c.js';

const Manifest = z.strictObject({ compiler: z.string(), guests: z.record(z.string(), z.string()) });

describe('prebuilt C components', () => {
  const manifest = Manifest.parse(JSON.parse(readFileSync(PREBUILT_MANIFEST, 'utf8')));

  it('lists exactly the C guests the builder knows', () => {
    expect(Object.keys(manifest.guests).sort()).toEqual(C_GUESTS.map((g) => g.out).sort());
  });

  for (const guest of C_GUESTS) {
    it(`${guest.out} is present and built from the current sources`, async () => {
      expect(existsSync(join(C_PREBUILT_DIR, `${guest.out}.wasm`))).toBe(true);
      expect(manifest.guests[guest.out], 'stale: run `npx tsx scripts/guests/c.ts --update-prebuilt`').toBe(await sourceHash(guest));
    });
  }
});
