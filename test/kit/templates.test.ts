import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { WIT_GUEST_TYPES } from '../../host/kit/templates/ts-types.js';
import { ROOT } from './kit.js';

describe('starter templates', () => {
  it('the TypeScript starter\'s types are exactly what `jco types --guest` generates from wit/hook.wit', async () => {
    // jco's wasm tools read the WIT through preview2-shim, which has no preopen by default.
    const fs = (await import('@bytecodealliance/preview2-shim/filesystem')) as unknown as { _setPreopens(p: Record<string, string>): void };
    fs._setPreopens({ '/': '/' });
    const { types } = await import('@bytecodealliance/jco');
    const generated = await types(`${ROOT}wit/hook.wit`, { worldName: 'hook', guest: true, quiet: true });
    const text = Object.fromEntries(Object.entries(generated).map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
    expect(WIT_GUEST_TYPES).toEqual(text);
  });

  it('the WIT the kit embeds is the package\'s wit/hook.wit at basis:hook@1.0.0', async () => {
    const { WIT_FILE } = await import('../../host/kit/package-files.js');
    expect(WIT_FILE).toBe(`${ROOT}wit/hook.wit`);
    expect(await readFile(WIT_FILE, 'utf8')).toMatch(/^package basis:hook@1\.0\.0;/);
  });
});
