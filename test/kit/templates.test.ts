import { readFile } from 'node:fs/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Guest from '../../guest-examples/js/glue/hook.js';
import type { HookRequest, HookResponse } from '../../host/contract/index.js';
import { starterFiles } from '../../host/kit/templates/index.js';
import { ROOT } from './kit.js';

describe('starter templates', () => {
  it('JS and TS starters get the contract shapes the package ships (guest-examples/js/glue/hook.d.ts)', async () => {
    const shipped = await readFile(`${ROOT}guest-examples/js/glue/hook.d.ts`, 'utf8');
    for (const lang of ['js', 'ts'] as const) {
      const files = await starterFiles({ lang, event: 'pre_tool_use', name: 'x', engine: 'quickjs', flavour: 'std' });
      expect(files['types/hook.d.ts'], lang).toBe(shipped);
      // Nothing of the WIT's own shapes is handed to the author any more.
      expect(Object.keys(files).filter((f) => f.startsWith('types/')), lang).toEqual(['types/hook.d.ts']);
    }
  });

  it('the shipped guest shapes are the contract: every request the host sends fits, every answer a guest may give is a response', () => {
    // What the host sends, a guest's handle accepts, and the other way round.
    expectTypeOf<HookRequest>().toExtend<Guest.HookRequest>();
    expectTypeOf<Guest.HookRequest>().toExtend<HookRequest>();
    // What a guest may answer is a response of the contract (the glue passes it on as the WIT decision).
    expectTypeOf<Guest.HookResponse>().toExtend<HookResponse>();
    expectTypeOf<HookResponse>().toExtend<Guest.HookResponse>();
    expectTypeOf<Guest.Handle>().parameter(0).toEqualTypeOf<Guest.HookRequest>();
  });

  it('the WIT the kit embeds is the package\'s wit/hook.wit at basis:hook@1.0.0', async () => {
    const { WIT_FILE } = await import('../../host/kit/package-files.js');
    expect(WIT_FILE).toBe(`${ROOT}wit/hook.wit`);
    expect(await readFile(WIT_FILE, 'utf8')).toMatch(/^package basis:hook@1\.0\.0;/);
  });
});
