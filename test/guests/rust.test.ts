/**
 * The Rust guests (guest-examples/rust/): the example policies in both flavours, the err layout, what
 * the components import, and that the committed prebuilt copies match their sources. The components
 * are the ones `npm run build-guests` left in build/ — rebuilt by Debian's rustc, or the prebuilt
 * copies on machines without it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/index.js';
import { ALLOWED_IMPORTS, componentTransport, inspectComponent } from '../../host/transports/component/index.js';
import { sourceHash } from '../../scripts/guests/build.js';
import { GUESTS, PREBUILT_DIR, RUST_FLAVOURS, buildDir, prebuiltKey, type Guest } from '../../scripts/guests/catalog.js';
import type { PrebuiltManifest } from '../../scripts/guests/prebuilt.js';
import { TEST_CACHE_DIR, ensureGuestsBuilt } from '../helpers/guests.js';
import { runPolicyCases } from '../helpers/policy-cases.js';

const cacheDir = TEST_CACHE_DIR;
const RUST_GUESTS = GUESTS.rust;
const RUST_PREBUILT_DIR = PREBUILT_DIR.rust ?? '';
const PREBUILT_MANIFEST = join(RUST_PREBUILT_DIR, 'manifest.json');
/** `std/guard`. */
const guestKey = (guest: Guest): string => prebuiltKey(guest);
const flavourOf = (guest: Guest): string => (guest.manifest.lang === 'rust' ? guest.manifest.flavour : '');
/** `conformance/allow` within the flavour. */
const outOf = (guest: Guest): string => guestKey(guest).slice(flavourOf(guest).length + 1);
const rustGuestPath = (flavour: string, out: string): string => join(buildDir('rust'), flavour, `${out}.wasm`);
const ensureRustGuestsBuilt = (): Promise<void> => ensureGuestsBuilt('rust', RUST_GUESTS.map((g) => g.out));

for (const flavour of RUST_FLAVOURS) {
  runPolicyCases(`rust ${flavour}`, async (hook) => {
    await ensureRustGuestsBuilt();
    return componentTransport({ path: rustGuestPath(flavour, hook), cache_dir: cacheDir });
  });
}

/** `wasi:cli/stdout@0.2.12` → `wasi:cli/stdout`. */
const unversioned = (name: string): string => name.replace(/@[^@]*$/, '');

describe('rust guests', () => {
  beforeAll(ensureRustGuestsBuilt, 300_000);

  it('are all built', () => {
    for (const guest of RUST_GUESTS) expect(existsSync(guest.out), guestKey(guest)).toBe(true);
  });

  for (const flavour of RUST_FLAVOURS) {
    it(`${flavour}: err(message) is a guest_error failure`, async () => {
      const transport = componentTransport({ path: rustGuestPath(flavour, 'conformance/guest-error'), cache_dir: cacheDir });
      const runner = new HookRunner([{ name: 'fails', event: 'pre_tool_use', on_failure: 'deny', transport }]);
      try {
        const outcome = await runner.run({ workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', event: 'pre_tool_use', input: { command: 'ls' } });
        expect(outcome.decision).toBe('deny');
        expect(outcome.trail[0]?.failure?.code).toBe('guest_error');
      } finally {
        await runner.close();
        await transport.close();
      }
    });
  }

  it('nostd components import nothing but the hook types', async () => {
    for (const guest of RUST_GUESTS.filter((g) => flavourOf(g) === 'nostd')) {
      const inspection = await inspectComponent(guest.out, { cache_dir: cacheDir });
      expect(inspection.problem, guestKey(guest)).toBeUndefined();
      expect(inspection.imports.map(unversioned).filter((i) => i !== 'basis:hook/types'), guestKey(guest)).toEqual([]);
    }
  });

  it('std components import only allowed WASI, and std formatting does bring WASI in', async () => {
    const wasiUsers: string[] = [];
    for (const guest of RUST_GUESTS.filter((g) => flavourOf(g) === 'std')) {
      const inspection = await inspectComponent(guest.out, { cache_dir: cacheDir });
      expect(inspection.problem, guestKey(guest)).toBeUndefined();
      for (const name of inspection.imports) expect(ALLOWED_IMPORTS, `${guestKey(guest)} imports ${name}`).toContain(unversioned(name));
      if (inspection.imports.some((i) => i.startsWith('wasi:'))) wasiUsers.push(outOf(guest));
    }
    // redact formats its reason with format!: that guest runs through the preview1 adapter.
    expect(wasiUsers).toContain('redact');
  });

  it('prebuilt copies exist for every guest and were built from the current sources', async () => {
    const manifest = JSON.parse(await readFile(PREBUILT_MANIFEST, 'utf8')) as PrebuiltManifest;
    expect(Object.keys(manifest.guests).sort()).toEqual(RUST_GUESTS.map(guestKey).sort());
    for (const guest of RUST_GUESTS) {
      expect(existsSync(join(RUST_PREBUILT_DIR, `${guestKey(guest)}.wasm`)), guestKey(guest)).toBe(true);
      // A mismatch means a source changed without `npm run build-guests -- rust --update-prebuilt`.
      expect(manifest.guests[guestKey(guest)], `${guestKey(guest)} prebuilt copy is stale`).toBe(sourceHash(guest));
    }
  });
});
