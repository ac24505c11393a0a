/**
 * The repository builds its guests with the authoring kit (scripts/guests/catalog.ts lists them as kit
 * manifests): the list of conformance behaviours the guests implement is the suite's, every guest
 * source is built by some manifest, and the build scripts never import test code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookManifest } from '../../host/kit/manifest.js';
import { GUESTS, GUEST_BEHAVIOURS, GUEST_GROUPS, ROOT } from '../../scripts/guests/catalog.js';
import { COMPONENT_BEHAVIOURS } from '../conformance/behaviours.js';

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('the guest catalog', () => {
  it('builds every behaviour of the conformance suite that a component can express', () => {
    expect([...GUEST_BEHAVIOURS]).toEqual([...COMPONENT_BEHAVIOURS]);
  });

  it('holds valid kit manifests with unique keys and outputs', () => {
    const all = GUEST_GROUPS.flatMap((g) => GUESTS[g]);
    for (const guest of all) expect(HookManifest.safeParse(guest.manifest).success, guest.key).toBe(true);
    expect(new Set(all.map((g) => g.key)).size).toBe(all.length);
    expect(new Set(all.map((g) => g.out)).size).toBe(all.length);
  });

  it('builds every guest source in guest-examples/ (no source is left behind)', () => {
    const sources = new Set<string>();
    for (const guest of GUEST_GROUPS.flatMap((g) => GUESTS[g])) {
      const m = guest.manifest;
      const named = m.lang === 'c' ? m.sources : [m.source];
      for (const file of [...named, ...guest.inputs]) sources.add(relative(ROOT, join(guest.dir, file)));
    }
    const expected = GUEST_GROUPS.flatMap((group) =>
      files(join(ROOT, 'guest-examples', group))
        .map((f) => relative(ROOT, f))
        .filter((f) => !f.includes('/build/') && !f.includes('/prebuilt/') && /\.(wat|c|rs|js|ts)$/.test(f) && !f.endsWith('.d.ts'))
        // The shared pieces every guest of a language is assembled with, and the JS glue the kit bundles.
        .filter((f) => !/(prelude\.wat|\/glue\/)/.test(f)),
    );
    expect(expected.filter((f) => !sources.has(f))).toEqual([]);
  });

  it('scripts/ never imports test code', () => {
    const offenders = files(join(ROOT, 'scripts'))
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /from\s+['"][./]*\/test\/|import\(\s*['"][./]*\/test\//.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });
});
