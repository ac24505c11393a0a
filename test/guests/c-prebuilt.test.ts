/**
 * The committed prebuilt C components must be built from the current sources: `prebuilt/manifest.json`
 * records, per component, the hash of its manifest, source, glue, the WIT and the kit's C flags.
 * Editing any of them without `npm run build-guests -- c --update-prebuilt` fails here — on any
 * machine, clang or not. (Whether a rebuild *behaves* the same is checked by running the suites
 * against build/ and prebuilt/.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sourceHash } from '../../scripts/guests/build.js';
import { GUESTS, PREBUILT_DIR, prebuiltKey } from '../../scripts/guests/catalog.js';

const Manifest = z.strictObject({ compiler: z.string(), built_with: z.string(), guests: z.record(z.string(), z.string()) });
const C_PREBUILT_DIR = PREBUILT_DIR.c ?? '';

describe('prebuilt C components', () => {
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(C_PREBUILT_DIR, 'manifest.json'), 'utf8')));

  it('lists exactly the C guests the catalog builds', () => {
    expect(Object.keys(manifest.guests).sort()).toEqual(GUESTS.c.map(prebuiltKey).sort());
  });

  for (const guest of GUESTS.c) {
    it(`${prebuiltKey(guest)} is present and built from the current sources`, () => {
      expect(existsSync(join(C_PREBUILT_DIR, `${prebuiltKey(guest)}.wasm`))).toBe(true);
      expect(manifest.guests[prebuiltKey(guest)], 'stale: run `npm run build-guests -- c --update-prebuilt`').toBe(sourceHash(guest));
    });
  }
});
